"""Collections of games: their rows and Parquet tables, statistics by DuckDB, and finding games."""
