"""The README's reference sections are generated from the catalogues and must be current."""

from scratch_gym.docs import main


def test_readme_generated_sections_are_current():
    assert main(["--check"]) == 0, "run: python -m scratch_gym.docs"
