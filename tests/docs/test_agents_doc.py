"""The Python snippets of docs/agents.md and the README's "Run an agent from Python" run as
written, in the real editor, and do what their comments say: the docs cannot go stale."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r"```python\n(.*?)```", re.S)


def snippets(path: Path, heading: str | None = None) -> list[str]:
    """The ```python blocks of ``path`` (after ``heading``'s line, up to the next heading of the
    same or a higher level, when given)."""
    text = path.read_text(encoding="utf-8")
    if heading is not None:
        start = text.index(heading)
        level = len(heading) - len(heading.lstrip("#")) if heading.startswith("#") else 2
        rest = text[start + len(heading) :]
        end = re.search(rf"^#{{1,{level}}} ", rest, re.M)
        text = rest[: end.start()] if end else rest
    return CODE.findall(text)


def run(code: str, name: str, capsys) -> tuple[dict, str]:
    namespace: dict = {"__name__": name}
    exec(compile(code, name, "exec"), namespace)  # noqa: S102 - the docs' own code
    return namespace, capsys.readouterr().out


def test_docs_agents_md_has_the_two_snippets():
    assert len(snippets(ROOT / "docs" / "agents.md")) == 2


@pytest.mark.browser
def test_run_an_agent_from_python(capsys):
    code = snippets(ROOT / "docs" / "agents.md", "## Run an agent from Python")
    assert len(code) == 1
    ns, out = run(code[0], "docs/agents.md: Run an agent from Python", capsys)
    assert ns["info"]["success"] is True and ns["info"]["psr"] == 1.0
    assert out.strip().splitlines()[-1] == "True 1.0"  # what its comment says


@pytest.mark.browser
def test_write_your_own_agent(capsys):
    code = snippets(ROOT / "docs" / "agents.md", "## Write your own agent")
    assert len(code) == 1
    ns, out = run(code[0], "docs/agents.md: Write your own agent", capsys)
    record = ns["record"]
    assert record["status"] == "success" and record["psr"] == 1.0 and record["steps"] == 7
    assert out.strip().splitlines()[-1] == "success 1.0 7"
    from scratch_gym.agents.base import Agent

    assert issubclass(ns["SayHelloAgent"], Agent)


@pytest.mark.browser
def test_the_readme_snippet(capsys):
    code = snippets(ROOT / "README.md", "**Run an agent from Python**")
    assert len(code) == 1
    assert len(code[0].strip().splitlines()) <= 16  # short enough to read at a glance
    ns, out = run(code[0], "README: Run an agent from Python", capsys)
    assert ns["info"]["success"] is True
    assert ns["ret"] == pytest.approx(1.0)  # the return: final PSR - initial PSR
    assert out.strip().splitlines()[-1] == "True 1.0 1.0"  # what its comment says


@pytest.mark.parametrize("page", ["agents.md", "blocks.md"])
def test_the_readme_links_the_page(page):
    assert f"(docs/{page})" in (ROOT / "README.md").read_text(encoding="utf-8")
