"""Result records, below every package that writes or reads them: how an episode ended
(:mod:`scratch_gym.records.status`, the status vocabulary and exit codes) and how records are
shown (:mod:`scratch_gym.records.text`, an aligned text table and one line of valid JSON).

Pure Python that imports nothing else from the package, so tasks, suites, the runner and the
command line can all use it."""
