"""Replay, statistics, batch runs and random games: the toolkit's work, without I/O or printing."""
