"""Tests that read the NL2Scratch data find it through $SCRATCH_GYM_SHARED: where it is absent
they skip with a reason that names the variable, and with $SCRATCH_GYM_REQUIRE_SHARED=1 (CI)
they fail instead."""

from __future__ import annotations

import pytest

from .cases import REQUIRE_SHARED, require_shared


def test_a_missing_data_file_skips_naming_the_variable(tmp_path, monkeypatch):
    monkeypatch.delenv(REQUIRE_SHARED, raising=False)
    with pytest.raises(pytest.skip.Exception, match="set SCRATCH_GYM_SHARED"):
        require_shared(tmp_path / "absent.jsonl")


def test_a_missing_data_file_fails_when_ci_requires_it(tmp_path, monkeypatch):
    monkeypatch.setenv(REQUIRE_SHARED, "1")
    with pytest.raises(pytest.fail.Exception, match="SCRATCH_GYM_REQUIRE_SHARED=1 requires it"):
        require_shared(tmp_path / "absent.jsonl")


def test_a_present_data_file_is_returned(tmp_path, monkeypatch):
    monkeypatch.setenv(REQUIRE_SHARED, "1")
    path = tmp_path / "present.jsonl"
    path.write_text("{}\n")
    assert require_shared(path) == path
