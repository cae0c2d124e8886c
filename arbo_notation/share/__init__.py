"""Sharing a game: a self-contained HTML replayer (``html``) and SVG diagrams of a position (``svg``).

Both take a game tree (arbo_notation/game/tree.py) and the terminal replayer's pure model; neither imports
textual, and the page they make fetches nothing from the network.
"""
