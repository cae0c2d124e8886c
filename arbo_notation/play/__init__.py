"""Games played by programs: bots playing seeded deals to the end, written as records."""
