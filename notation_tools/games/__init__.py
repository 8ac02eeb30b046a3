"""The games: one package each, reached through :mod:`notation_tools.games.base`."""
