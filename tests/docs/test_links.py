"""Every relative link in README.md and docs/*.md points at a file that exists, and every
``#anchor`` at a heading of its page (``mkdocs build --strict`` checks the docs pages among
themselves; this also covers the README, and runs with the tests). Every docs page is in
mkdocs.yml's nav, and every page the nav names exists."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.M | re.S)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", re.M)


def _prose(text: str) -> str:
    """``text`` without fenced code blocks and code spans (links there are not links)."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def _heading_text(heading: str) -> str:
    heading = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text
    return re.sub(r"[`*]", "", heading)


def slugs(heading: str) -> set[str]:
    """The anchors a heading gets: MkDocs's (Python-Markdown's toc) and GitHub's."""
    text = _heading_text(heading)
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    mkdocs = re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", ascii_text).strip().lower())
    github = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
    return {mkdocs, github}


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        for slug in slugs(heading):
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}_{n}")  # MkDocs's suffix for a repeat
            found.add(slug if n == 0 else f"{slug}-{n}")  # GitHub's
    return found


def dead_links(path: Path) -> list[str]:
    """The relative links of the Markdown file ``path`` whose file or anchor does not exist, as
    ``target (why)``."""
    dead = []
    for target in LINK.findall(_prose(path.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("//"):
            continue  # http:, https:, mailto: ...: not a file of the repository
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists():
            dead.append(f"{target} (no file {linked})")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            dead.append(f"{target} (no heading #{anchor} in {linked.name})")
    return dead


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_every_relative_link_resolves():
    dead = {str(p.relative_to(ROOT)): dead_links(p) for p in pages()}
    assert {p: links for p, links in dead.items() if links} == {}


def test_the_check_sees_the_links():  # not vacuous: it reads the README's and docs' links
    links = LINK.findall(_prose((ROOT / "README.md").read_text(encoding="utf-8")))
    assert "docs/getting-started.md" in links and "docs/agents.md" in links
    assert "actions.md#composite-mode" in LINK.findall((ROOT / "docs/agents.md").read_text())


def test_a_planted_dead_link_is_caught(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text(
        "# Other page\n\n## `ScratchEnv` (`scratch_gym.env`)\n\n## Twice\n\n## Twice\n"
    )
    (tmp_path / "image.png").write_bytes(b"")
    page = tmp_path / "README.md"
    page.write_text(
        "# Page\n\n## A heading, with punctuation!\n\n"
        "[ok](docs/other.md) [ok](docs/other.md#scratchenv-scratch_gymenv) [ok](#a-heading-with-punctuation)\n"
        "[ok](docs/other.md#twice_1) ![ok](image.png) [ok](https://example.org/gone.md)\n"
        "`[in code](gone.md)`\n\n```\n[in a block](gone.md)\n```\n\n"
        "[dead](docs/gone.md) [dead](docs/other.md#no-such-heading) [dead](#nowhere)\n"
        '![dead](missing.png "title")\n'
    )
    dead = dead_links(page)
    assert [d.split(" (")[0] for d in dead] == [
        "docs/gone.md",
        "docs/other.md#no-such-heading",
        "#nowhere",
        "missing.png",
    ]
    assert "no heading #no-such-heading in other.md" in dead[1]


def test_every_docs_page_is_in_the_mkdocs_nav():
    nav = re.findall(
        r"^\s*-\s+(?:[^:\n]+:\s+)?([\w./-]+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(), re.M
    )
    assert sorted(nav) == sorted(p.name for p in (ROOT / "docs").glob("*.md"))
