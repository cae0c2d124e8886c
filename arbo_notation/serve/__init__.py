"""`arbo serve`: records followed live in a browser, and recorded from a phone (the `serve` extra)."""
