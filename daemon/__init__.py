"""memvault: turn exported conversations into an Obsidian memory vault."""

__version__ = "0.1.0"
