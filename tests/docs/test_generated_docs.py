"""The README's reference sections are generated from the catalogues and must be current; every
environment class documents itself in Gymnasium's layout."""

import pytest

from scratch_gym.docs import ENV_DOC_SECTIONS, env_doc_sections, main
from scratch_gym.envs.registration import ENV_IDS


def test_readme_generated_sections_are_current():
    assert main(["--check"]) == 0, "run: python -m scratch_gym.docs"


def test_every_registered_env_class_has_gymnasiums_doc_sections():
    import importlib

    for spec in ENV_IDS.values():
        module, name = spec.entry_point.split(":")
        sections = env_doc_sections(getattr(importlib.import_module(module), name))
        assert list(sections) == list(ENV_DOC_SECTIONS)
        assert all(sections.values()), name  # no empty section


def test_a_missing_or_misplaced_section_is_named():
    class NoRewards:
        """Summary.

        ## Description
        x
        ## Action Space
        x
        ## Observation Space
        x
        ## Starting State
        x
        ## Episode End
        x
        ## Arguments
        x
        """

    with pytest.raises(ValueError, match="NoRewards's docstring lacks the section\\(s\\) Rewards"):
        env_doc_sections(NoRewards)

    class Swapped:
        """Summary.

        ## Action Space
        x
        ## Description
        x
        ## Observation Space
        x
        ## Rewards
        x
        ## Starting State
        x
        ## Episode End
        x
        ## Arguments
        x
        """

    with pytest.raises(ValueError, match="Gymnasium's layout is"):
        env_doc_sections(Swapped)
