"""Presenting a game to a person: stepping through its tree, plain-text boards, score reports."""
