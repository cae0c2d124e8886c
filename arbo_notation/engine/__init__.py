"""The Arboretum rules engine: cards, game state, legal actions and scoring (standard library only)."""
