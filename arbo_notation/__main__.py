"""`python -m arbo_notation` runs the arbo command line."""

from arbo_notation.cli import main

main()
