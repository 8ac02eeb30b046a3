"""The record container: PGN-style tag pairs and movetext, and JSON / JSON Lines.

Nothing here is specific to any game: a move is a whitespace-delimited word that the game's own
grammar reads later, during replay.
"""
