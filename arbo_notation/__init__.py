"""arbo: the .arb notation, rules engine and tools for game records of the card game Arboretum."""

__version__ = "0.1.0"
