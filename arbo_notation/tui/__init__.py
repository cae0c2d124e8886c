"""The terminal replayer of `arbo replay`.

``model`` (the navigation through a game's main line and variations) and ``plain`` (the text
step-through) are plain Python; only ``app`` and ``widgets`` import textual, and nothing outside
this package imports them except the `replay` command when it really opens the terminal UI.
"""
