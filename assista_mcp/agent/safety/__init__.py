"""The safety net: checkpoints (undo), validation after edits, and the plugin hooks."""
