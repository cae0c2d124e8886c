"""The test suite: a folder per package of arbo_notation, shared helpers at its root."""
