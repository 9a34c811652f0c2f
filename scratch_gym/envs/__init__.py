"""Every Gymnasium environment class of scratch-gym, and the table of registered ids.

One module per env class: :mod:`~scratch_gym.envs.scratch` (``ScratchEnv``, the ScratchWorld
tasks), :mod:`~scratch_gym.envs.single_drag` and :mod:`~scratch_gym.envs.single_drag_fast`
(Single-Step Drag, real and fast path), :mod:`~scratch_gym.envs.perception` (Visual Perception
QA), :mod:`~scratch_gym.envs.program` (NL2Scratch-style program writing);
:mod:`~scratch_gym.envs.registration` registers them by entry-point strings, so importing this
package loads no env class (and no browser code)."""
