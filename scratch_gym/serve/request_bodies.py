"""Request bodies of the action routes: the fields, types and defaults of scratch-bench-api's.
Unknown fields are ignored as theirs are; a missing or mistyped field is a 422."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

COORD = Field(ge=-100_000, le=100_000)  # far past the screen, short of absurd


class ClickAction(BaseModel):
    x: int = COORD
    y: int = COORD
    button: str = "left"


class DoubleClickAction(ClickAction):
    pass


class MoveToAction(BaseModel):
    x: int = COORD
    y: int = COORD
    duration: float = Field(0.5, ge=0, le=60)


class DragAndDropAction(BaseModel):
    start_x: int = COORD
    start_y: int = COORD
    end_x: int = COORD
    end_y: int = COORD
    duration: float = Field(0.5, ge=0, le=60)


class ScrollAction(BaseModel):
    direction: str
    amount: int = Field(100, ge=-100_000, le=100_000)
    x: int | None = None
    y: int | None = None


class TypeAction(BaseModel):
    text: str = Field(max_length=100_000)


class KeyAction(BaseModel):
    key: str = Field(max_length=100)


class HoldKeyAction(KeyAction):
    pass


class ReleaseKeyAction(KeyAction):
    pass


class HotkeyAction(BaseModel):
    keys: list[str] = Field(max_length=10)


class CompositeRequest(BaseModel):
    api: str
    args: dict[str, Any] | None = None


class EvaluationRequest(BaseModel):
    task_name: str
    sb3_file_name: str | None = None
    evaluation_method: str = "node"
    timeout: int | None = None


def args_of(action: BaseModel) -> dict[str, Any]:
    """The request's fields as the envelope's ``requested_action.args`` (unset ``None`` left out)."""
    return action.model_dump(exclude_none=True)
