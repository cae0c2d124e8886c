"""`python -m arbo_notation` runs the arbo command line."""

from .cli import main

main()
