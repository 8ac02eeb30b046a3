"""What an editor asks about a place in a document: hover text, completions, code actions.

Every answer comes from the library: moves are read by the game's ``resolve_move`` and
written by its ``format_move``, described by its ``describe_move`` and drawn by its text
diagram; tags are explained by :mod:`notation_tools.analysis.tag_docs`. Locations are
:class:`document.Span` values (0-based lines, code-point columns). Does not speak LSP.
"""

from __future__ import annotations

import dataclasses
import difflib
from typing import Any

from notation_tools.analysis.tag_docs import describe_tag
from notation_tools.editor.document import (
    EditorDocument,
    RecordCheck,
    RecordText,
    Span,
    flatten_moves,
    move_span,
    node_at,
    tag_at,
    tag_span,
)
from notation_tools.editor.positions import (
    position_at,
    positions_before,
    record_notation,
    visit_moves,
)
from notation_tools.games.base import Game, Position
from notation_tools.records.model import Move

MOST_COMPLETIONS = 200
"""Completions offered at most. Only the moves whose text starts with what is typed are
offered, or, when none does (a move being rewritten), every legal move."""


@dataclasses.dataclass(frozen=True)
class Hover:
    markdown: str
    span: Span


@dataclasses.dataclass(frozen=True)
class Completion:
    label: str
    detail: str
    span: Span


def hover(document: EditorDocument, line: int, column: int) -> Hover | None:
    """What the move or tag at ``line:column`` is."""
    found = document.check_at(line)
    if found is None:
        return None
    text, check = found
    tag = tag_at(text, check, line, column)
    if tag is not None:
        described = describe_tag(tag.name, check.replay.game)
        return Hover(described, tag_span(text, tag)) if described is not None else None
    entry = node_at(text, check, line, column)
    game = check.replay.game
    if entry is None or game is None:
        return None
    node = entry[0]
    known = positions_before(check, [node])
    if id(node) not in known:
        return None  # the move did not replay: its diagnostic says why
    before, move = known[id(node)]
    return Hover(_describe(game, node, move, before), move_span(text, node))


def _describe(game: Game[Any, Any], node: Move, move: Any, before: Position[Any]) -> str:
    """The move in words (the game's facts about it) and the position after it."""
    side = game.sides[before.turn]
    facts = game.describe_move(move, before)
    after = before.copy()
    after.push(move)
    spellings = ", ".join(f"{name} `{game.format_move(move, before, name)}`"
                          for name in game.notations)
    lines = [f"**{node.text}**: {side}'s move", "", f"In each notation: {spellings}"]
    if facts:
        lines += ["", *(f"- {name}: {value}" for name, value in facts.items())]
    lines += ["", "Position after it:", "", "```", game.render_text(after).rstrip("\n"), "```"]
    return "\n".join(lines)


def completions(document: EditorDocument, line: int, column: int) -> list[Completion]:
    """The legal moves of the position at ``line:column``, in the record's notation: those
    that start as the move being typed there does (all of them when none does), or the
    moves after the move before the place."""
    found = document.check_at(line)
    game = found[1].replay.game if found is not None else None
    if found is None or game is None:
        return []
    text, check = found
    entry = node_at(text, check, line, column)
    if entry is not None:
        span = move_span(text, entry[0])
        typed = entry[0].text[:column - span.column]
        position = position_at(check, entry[0])
    else:
        span, typed = Span(line, column, line, column), ""
        position = _position_at_gap(text, check, line, column)
    if position is None:
        return []
    notation = record_notation(check)
    texts = [game.format_move(move, position, notation) for move in position.legal_moves()]
    texts = [written for written in texts if written.startswith(typed)] or texts
    return [Completion(written, f"legal move for {game.sides[position.turn]}", span)
            for written in texts[:MOST_COMPLETIONS]]


def _position_at_gap(text: RecordText, check: RecordCheck, line: int,
                     column: int) -> Position[Any] | None:
    """The position after the last move before ``line:column`` (the start when there is
    none); a variation closed between them continues the move it replaced."""
    previous = None
    for node, _, parent in flatten_moves(check.record.moves):
        if (move_span(text, node).end_line, move_span(text, node).end_column) <= (line, column):
            previous = (node, parent)
    if previous is None:
        return position_at(check, None)
    node, parent = previous
    between = _text_between(text, move_span(text, node), line, column)
    if parent is not None and ")" in between:
        return position_at(check, parent, after=True)
    return position_at(check, node, after=True)


def _text_between(text: RecordText, span: Span, line: int, column: int) -> str:
    """The document's text from the end of ``span`` to ``line:column``."""
    rows = [text.line_text(row - text.first_line + 1) for row in range(span.end_line, line + 1)]
    if len(rows) == 1:
        return rows[0][span.end_column:column]
    return "\n".join([rows[0][span.end_column:], *rows[1:-1], rows[-1][:column]])


def closest_moves(game: Game[Any, Any], position: Position[Any], written: str,
                  notation: str | None, most: int = 8) -> list[str]:
    """The legal moves written most like ``written``: those that start as it does (the same
    piece, from the same square) or end as it does (the same destination), closest first.
    Texts are compared a whole part at a time (a run of letters, of digits, or a mark), so
    ``L15`` shares no square with ``L13``."""
    scored = []
    for move in position.legal_moves():
        text = game.format_move(move, position, notation)
        shared = max(_shared_start(text, written), _shared_start(text[::-1], written[::-1]))
        if shared >= 2 and text != written:
            ratio = difflib.SequenceMatcher(None, text, written).ratio()
            scored.append((-shared, -ratio, text))
    return [text for _, _, text in sorted(scored)[:most]]


def _kind(char: str) -> int:
    return 0 if char.isalpha() else 1 if char.isdigit() else 2


def _part_ends(text: str, size: int) -> bool:
    return size in (0, len(text)) or _kind(text[size - 1]) != _kind(text[size])


def _shared_start(first: str, second: str) -> int:
    """How many leading characters the texts share, in whole parts."""
    size = 0
    while size < min(len(first), len(second)) and first[size] == second[size]:
        size += 1
    while not (_part_ends(first, size) and _part_ends(second, size)):
        size -= 1
    return size


def canonical_spellings(check: RecordCheck) -> dict[int, str]:
    """For each resolved move node (by ``id``) written other than its canonical spelling in
    the record's notation (the one its first move is written in), that spelling."""
    game: Game[Any, Any] | None = check.replay.game
    found: dict[int, str] = {}
    if game is None:
        return found
    notation = record_notation(check)

    def spell(node: Move, move: Any, before: Position[Any]) -> None:
        if node.text:
            canonical = game.format_move(move, before, notation)
            if canonical != node.text:
                found[id(node)] = canonical

    visit_moves(check, spell)
    return found
