"""The doors researchers use: Arboretum as an OpenSpiel game and a PettingZoo environment (optional extras)."""
