"""The terminal replayer of `arbo replay` and the record screen of `arbo record`.

``plain`` (the text step-through) is plain Python; ``app``, ``widgets`` and ``record`` import
textual, and nothing outside this package imports them except the `replay` and `record` commands
when they really open the terminal UI. The navigation model they show is
:mod:`arbo_notation.present.navigation`, shared with the HTML export.
"""
