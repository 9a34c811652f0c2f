"""Agent actions: primitive mouse/keyboard input, continuous drags, semantic (composite) edits."""
