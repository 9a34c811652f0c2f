"""Single-Step Drag: one-drag episodes, feasible regions by BFS, Pass@k, generated tasks."""
