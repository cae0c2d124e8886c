"""The plumbing of the programs: whole-file writes, reading sources, spooled output, worker processes, lazy names."""
