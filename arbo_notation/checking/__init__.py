"""Checking records against the rules: the table's facts, each game, and whole files shared among workers."""
