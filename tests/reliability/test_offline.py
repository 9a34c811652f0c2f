"""Offline: requests to non-local addresses are aborted before they leave the machine, and counted."""

from __future__ import annotations

from scratch_gym.program.projects import empty_project


def test_project_with_a_missing_asset_tries_the_asset_server_and_is_blocked(fresh_editor):
    page = fresh_editor
    before = len(page.requests.blocked)
    project = empty_project()
    project["targets"][1]["costumes"][0].update(
        assetId="0123456789abcdef0123456789abcdef", md5ext="0123456789abcdef0123456789abcdef.svg"
    )
    page.load_project(project)
    page.settle()
    blocked = page.requests.blocked[before:]
    assert blocked, "the VM should have tried to fetch the missing asset"
    assert all("127.0.0.1" not in url and "localhost" not in url for url in blocked)
    assert any("0123456789abcdef" in url for url in blocked)
    assert page.requests.external == []  # none completed: the browser's own events agree
    # the editor still works with a placeholder costume
    assert page.summary()["targets"] == ["Stage", "Sprite1"]


def test_loading_the_editor_makes_no_external_request(fresh_editor):
    page = fresh_editor
    page.load_project(empty_project())
    page.settle()
    assert [u for u in page.requests.blocked if "0123456789abcdef" not in u] == []
