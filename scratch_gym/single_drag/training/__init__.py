"""Drag policies for the single-drag spaces: the learned policy (``policy``, torch: the ``rl``
extra) and its shipped checkpoint (``weights/``), the scripted heuristic (``heuristic``, numpy
only) and the generated-task curriculum (``curriculum``). The environments never import this
package; agents and training scripts do."""
