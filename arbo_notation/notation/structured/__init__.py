"""Structured forms of records and positions for other programs: JSON and YAML, whole or a game at a time."""
