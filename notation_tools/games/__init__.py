"""The games: one package each, reached through :mod:`notation_tools.games.base`.

:func:`get_game` here is the registry's typed face: naming a built-in game by a literal id or
alias gives a type checker that game's position and move types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, overload

from notation_tools.games import base

if TYPE_CHECKING:  # the types only: naming a game imports only that game (base.get_game)
    from notation_tools.games import elevation, gow, maka, shih, shuriken

__all__ = ["get_game"]


@overload
def get_game(name: Literal["elevation"]) -> base.Game[elevation.Position, elevation.Move]: ...
@overload
def get_game(name: Literal["game-of-war", "gow", "kriegspiel", "debord"]
             ) -> base.Game[gow.Position, gow.Turn]: ...
@overload
def get_game(name: Literal["maka-dai-dai-shogi", "maka", "mdd"]
             ) -> base.Game[maka.Position, maka.Move]: ...
@overload
def get_game(name: Literal["shih"]) -> base.Game[shih.Position, shih.Move]: ...
@overload
def get_game(name: Literal["shuriken-2d", "shuriken", "loophole"]
             ) -> base.Game[shuriken.Position, shuriken.Move]: ...
@overload
def get_game(name: str) -> base.Game[Any, Any]: ...


def get_game(name: str) -> base.Game[Any, Any]:
    """The game whose id or alias is ``name`` (case-insensitive):
    :func:`notation_tools.games.base.get_game`,
    typed for a type checker when ``name`` is a built-in game's literal id or alias (any other
    name, or another game's, is typed for any position and move).

    >>> get_game("maka").name
    'Maka-Dai-Dai Shogi'
    """
    return base.get_game(name)
