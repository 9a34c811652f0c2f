"""The single-drag task generator: blocks from the catalogue, scenes, an instruction grammar and
the generator that fits each task into the editor's view."""
