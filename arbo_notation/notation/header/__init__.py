"""A game's header: its keys, each with its type, read from the text and from YAML or JSON data."""
