"""The error raised for text that is not valid scratchblocks."""

from __future__ import annotations


class ScratchblocksError(ValueError):
    """Invalid scratchblocks text, located by 1-based ``line`` and ``column``.

    ``text`` is the offending line, ``suggestions`` the nearest known block patterns (may be
    empty). ``str(error)`` names the place, quotes the line with a caret, and lists suggestions.
    """

    def __init__(
        self,
        message: str,
        line: int = 0,
        column: int = 0,
        text: str = "",
        suggestions: list[str] | None = None,
    ) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.text = text
        self.suggestions = list(suggestions or [])
        super().__init__(self._format())

    def _format(self) -> str:
        out = f"line {self.line}, column {self.column}: {self.message}"
        if self.text:
            out += f"\n    {self.text}\n    {' ' * max(self.column - 1, 0)}^"
        if self.suggestions:
            out += "\ndid you mean: " + " | ".join(self.suggestions)
        return out
