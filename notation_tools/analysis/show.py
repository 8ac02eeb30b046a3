"""The position of one record at a ply (``notation-tools show``): the record picked from its
input, replayed up to the ply, and the position drawn as a diagram, a picture or its string.

Does not print; reads the input it is given.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from typing import Any, BinaryIO

from notation_tools.analysis.replay import Replay, ReplayVisitor, replay
from notation_tools.games.base import Game, Position, Style
from notation_tools.parallel.batch import Settings, iter_records
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.model import Move, Record

SHOW_FORMATS = ("text", "svg", "fen")
"""What :func:`draw_position` draws: a text diagram, an SVG picture, the position string."""


class UnreadableInput(Exception):
    """The input could not be read up to the record asked for; ``diagnostic`` says why."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic


class TooFewRecords(LookupError):
    """The input holds fewer records (``seen``) than the index asked for."""

    def __init__(self, path: str, seen: int, index: int) -> None:
        super().__init__(f"{path} has {seen} records, fewer than {index}")
        self.seen = seen


class UnofferedMark(ValueError):
    """A mark the record's game does not draw (``mark``: its name, as ``loops``)."""

    def __init__(self, mark: str, game: Game[Any, Any]) -> None:
        super().__init__(f"{mark} is not offered by {game.id}")
        self.mark = mark


def pick_record(path: str, index: int, *, settings: Settings = Settings(),
                stdin: BinaryIO | None = None) -> Record:
    """The ``index``-th record of ``path`` (1 is the first), counted across every file of a
    directory and every member of an archive (``archive:member`` reads one member); not
    replayed. Raises :class:`UnreadableInput` or :class:`TooFewRecords`."""
    seen = 0
    for item in iter_records([path], stdin=stdin, settings=settings):
        if isinstance(item, Diagnostic):
            raise UnreadableInput(item)
        seen += 1
        if seen == index:
            return item
    raise TooFewRecords(path, seen, index)


@dataclasses.dataclass(frozen=True)
class LastMove:
    """The last main-line move replayed: its text as recorded, its ply and the move."""

    text: str
    ply: int
    move: Any


class _StopAt(ReplayVisitor):
    """Stops the main line after ``ply`` plies (``None``: at its end), noting the last move."""

    def __init__(self, ply: int | None) -> None:
        self.ply = ply
        self.last: LastMove | None = None

    def visit_move(self, node: Move, move: Any, before: Position[Any], ply: int,
                   in_variation: bool) -> None:
        if not in_variation:
            self.last = LastMove(node.text, ply, move)

    def stop_after(self, ply: int) -> bool:
        return self.ply is not None and ply >= self.ply


@dataclasses.dataclass(frozen=True)
class PositionAt:
    """A record replayed up to a ply: the replay (its ``position``, ``plies`` and the record's
    diagnostics) and the last main-line move played to reach it."""

    replayed: Replay
    last_move: LastMove | None


def position_at(record: Record, ply: int | None = None, *, game_name: str | None = None,
                rules_text: str | None = None) -> PositionAt:
    """Replay ``record`` up to ``ply`` plies (``None``: its end; fewer when a move before it
    is illegal), with ``--game``/``--rules`` overrides as :func:`replay` takes them.

    >>> from notation_tools.records.pgn import read_records
    >>> record = next(read_records(['[Variant "elevation"]', '', '1. c1:c2>b2,c1-c2 *']))
    >>> shown = position_at(record, 0)
    >>> shown.replayed.plies, shown.last_move
    (0, None)
    """
    visitor = _StopAt(ply)
    replayed = replay(record, game_name=game_name, rules_text=rules_text, visitor=visitor)
    return PositionAt(replayed, visitor.last)


def draw_position(shown: PositionAt, *, output_format: str = "text", style: Style = Style.ASCII,
                  marks: Collection[str] = ()) -> str:
    """The position of ``shown`` as ``output_format`` (:data:`SHOW_FORMATS`), ending with a
    newline: ``text`` is a line naming the record, its game, rules, ply and last move, then
    the game's diagram. ``marks`` are render options (``loops``); the game's drawing
    functions check them, and one it does not offer raises :class:`UnofferedMark` whatever
    the format."""
    replayed = shown.replayed
    game, position, rules = replayed.game, replayed.position, replayed.rules
    assert game is not None and position is not None and rules is not None  # replayed
    keywords = {name.replace("-", "_"): True for name in marks}
    try:
        if output_format == "svg":
            last_move = shown.last_move.move if shown.last_move is not None else None
            return game.render_svg(position, last_move=last_move, **keywords) + "\n"
        if output_format == "fen":
            if keywords:  # no mark is drawn, but an unoffered one is refused as it is above
                game.render_text(position, style=style, **keywords)
            return game.format_position(position) + "\n"
        diagram = game.render_text(position, style=style, **keywords)
    except TypeError:
        unoffered = sorted(set(marks) - set(game.render_options))
        if not unoffered:
            raise
        raise UnofferedMark(unoffered[0], game) from None
    last = shown.last_move
    record = replayed.record
    return (f"{record.path} record {record.index}: {game.id} ({rules.describe()}), after ply "
            f"{replayed.plies}{f', last move {last.ply}: {last.text}' if last else ''}\n"
            f"{diagram}\n")
