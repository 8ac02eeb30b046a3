"""Shih: the maze-and-capture game on a hexagon of 96 triangles (spec ``shih.md``).

Exposes :data:`GAME`, the :class:`~notation_tools.games.base.Game` the toolkit registers.

>>> GAME.id, GAME.sides
('shih', ('Blue', 'Red'))
"""

from .game import GAME, ShihGame

__all__ = ["GAME", "ShihGame"]
