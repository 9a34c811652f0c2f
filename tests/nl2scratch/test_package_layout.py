"""``nl2scratch``'s frozen ``paper/`` subpackage sits behind the protocol objects and imports run
one way (docs/nl2scratch.md, The two protocols as objects).

``paper/`` imports from the rest of ``nl2scratch`` only the slot container and the SAC
comparator's types (``slots``, ``sac``); outside ``paper/``, only ``protocols`` imports it, so the
robust parts never depend on the paper's. Each rule is shown to catch a violation planted in a
fake file. The two protocols' parts implement the interfaces of ``nl2scratch/interfaces.py``, and
no protocol branch on a ``paper`` flag is left."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from scratch_gym.nl2scratch import interfaces
from scratch_gym.nl2scratch.protocols import PROTOCOLS, get_protocol
from tests.docs.test_layers import imported_names

NL2SCRATCH = Path(__file__).resolve().parents[2] / "scratch_gym" / "nl2scratch"
NAME = "scratch_gym.nl2scratch"
PAPER = f"{NAME}.paper"
PAPER_MAY_IMPORT = (f"{NAME}.slots", f"{NAME}.sac")
PAPER_IMPORTERS = frozenset({"protocols.py"})


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def violations(files: list[tuple[str, ast.Module]]) -> list[str]:
    """``rel:line imports name`` for each import against the two rules (``rel`` relative to
    ``nl2scratch``)."""
    found = []
    for rel, tree in files:
        in_paper = rel.startswith("paper/")
        for line, name in imported_names(tree):
            if in_paper:
                bad = (
                    _within(name, NAME)
                    and not _within(name, PAPER)
                    and not any(_within(name, ok) for ok in PAPER_MAY_IMPORT)
                )
            else:
                bad = _within(name, PAPER) and rel not in PAPER_IMPORTERS
            if bad:
                found.append(f"{rel}:{line} imports {name}")
    return found


def package_files() -> list[tuple[str, ast.Module]]:
    return [
        (path.relative_to(NL2SCRATCH).as_posix(), ast.parse(path.read_text(), str(path)))
        for path in sorted(NL2SCRATCH.rglob("*.py"))
    ]


def test_imports_run_one_way_between_paper_and_the_rest() -> None:
    assert not violations(package_files())


@pytest.mark.parametrize(
    ("rel", "source"),
    [
        ("paper/x.py", "from scratch_gym.nl2scratch.program_slots import extract_program_slots\n"),
        ("paper/x.py", "from scratch_gym.nl2scratch import protocols\n"),
        ("scoring.py", "from scratch_gym.nl2scratch.paper.parser import paper_parse_check\n"),
        ("sac_rules.py", "from scratch_gym.nl2scratch import paper\n"),
    ],
)
def test_a_planted_import_against_the_direction_is_found(rel: str, source: str) -> None:
    assert violations([(rel, ast.parse(source))])


def test_allowed_imports_pass() -> None:
    allowed = [
        ("paper/x.py", ast.parse("from scratch_gym.nl2scratch.sac import SlotRules\n")),
        ("paper/y.py", ast.parse("from scratch_gym.nl2scratch.paper.text import paper_name\n")),
        ("protocols.py", ast.parse("from scratch_gym.nl2scratch.paper import PaperParser\n")),
    ]
    assert not violations(allowed)


INTERFACES = {
    "parser": interfaces.Parser,
    "program_slots": interfaces.ProgramSlotExtractor,
    "description_slots": interfaces.DescriptionSlotExtractor,
}


@pytest.mark.parametrize("name", PROTOCOLS)
@pytest.mark.parametrize("part", sorted(INTERFACES))
def test_each_protocols_parts_implement_the_interfaces(name: str, part: str) -> None:
    obj = getattr(get_protocol(name), part)
    for method, member in inspect.getmembers(INTERFACES[part], inspect.isfunction):
        if method.startswith("_"):
            continue
        impl = getattr(type(obj), method)
        assert list(inspect.signature(impl).parameters) == list(
            inspect.signature(member).parameters
        ), f"{type(obj).__name__}.{method}"


def test_no_branch_on_a_paper_flag_is_left() -> None:
    flag = re.compile(r"\bself\.paper\b|\bprotocol\.paper\b|\bif\s+paper\b")
    package = NL2SCRATCH.parent
    hits = [
        f"{path.relative_to(package)}:{n}"
        for path in sorted(package.rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if flag.search(line)
    ]
    assert not hits
