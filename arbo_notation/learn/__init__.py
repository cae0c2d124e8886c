"""Learning from one's games: the history of the puzzles a player was asked (spaced repetition)."""
