"""A game record played against the rules: replay into a tree, what each seat knew, merging seats' records, simulated games."""
