"""ScratchWorld's own benchmark, imported from a user's checkout (nothing is copied into this
repository): one package for everything that reads one.

* ``checkout``: where the checkout's parts are, :func:`~scratch_gym.scratchworld.checkout.locate`
  (the one place that finds a checkout and checks its folders) and its golden projects.
* ``tasks``: its tasks (:class:`ScratchWorldCheckout`), paired with their goldens
  (:func:`scratchworld_tasks`).
* ``evaluation``: its evaluation scripts, run in the page (:class:`ScratchWorldSuite`), for the
  imported tasks and the HTTP service.
* ``drag``: its Single-Step Drag tasks as single-drag tasks
  (:func:`load_scratchworld_drag_tasks`).
* ``perception``: its Visual Perception items and answer rules (:func:`load_items`);
  ``perception_scores``: answers files scored as its runner and results script do
  (:func:`equality_check`).
"""

from __future__ import annotations

from scratch_gym.scratchworld.drag import ScratchWorldDragError, load_scratchworld_drag_tasks
from scratch_gym.scratchworld.evaluation import ScratchWorldSuite
from scratch_gym.scratchworld.perception import (
    PerceptionItem,
    ScratchWorldPerceptionError,
    load_item,
    load_items,
)
from scratch_gym.scratchworld.perception_scores import equality_check
from scratch_gym.scratchworld.tasks import ScratchWorldCheckout, scratchworld_tasks

__all__ = [
    "PerceptionItem",
    "ScratchWorldCheckout",
    "ScratchWorldDragError",
    "ScratchWorldPerceptionError",
    "ScratchWorldSuite",
    "equality_check",
    "load_item",
    "load_items",
    "load_scratchworld_drag_tasks",
    "scratchworld_tasks",
]
