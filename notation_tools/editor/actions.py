"""Code actions: small text edits that mend a record, each computed from its replay.

Renumbering rewrites the move numbers the replay found out of sequence as it counts them; the
result is the replayed end's (``Game.result_text``); a missing ``Variant`` is each game that
replays the movetext, a missing ``Rules`` the rules the replay used; a move is re-spelled as
the game's ``format_move`` writes it in the notation it was written in; an illegal move is
offered the legal moves written most like it. Does not speak LSP.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from notation_tools.analysis.replay import replay
from notation_tools.editor.document import (
    EditorDocument,
    RecordCheck,
    RecordText,
    Span,
    flatten_moves,
    move_span,
    tag_span,
)
from notation_tools.editor.features import canonical_spellings, closest_moves
from notation_tools.editor.positions import position_at, record_notation
from notation_tools.games.base import Game, all_games
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.model import Record

QUICK_FIX = "quickfix"
SOURCE_FIX = "source.fixAll"


@dataclasses.dataclass(frozen=True)
class Edit:
    span: Span
    new_text: str


@dataclasses.dataclass(frozen=True)
class Action:
    """One code action: a title, its LSP kind, the edits, and the diagnostics it mends."""

    title: str
    kind: str
    edits: tuple[Edit, ...]
    diagnostics: tuple[Diagnostic, ...] = ()


def code_actions(document: EditorDocument, line: int, end_line: int) -> list[Action]:
    """The actions for the record at 0-based document ``line``: the record-wide ones, and
    those for the moves on lines ``line`` to ``end_line``."""
    found = document.check_at(line)
    if found is None:
        return []
    text, check = found
    actions = [*_renumber(text, check), *_result(text, check), *_missing_tags(text, check)]
    actions += _respell(text, check, line, end_line)
    actions += _illegal(text, check, line, end_line)
    return actions


def _renumber(text: RecordText, check: RecordCheck) -> list[Action]:
    game = check.replay.game
    if game is None:
        return []
    wrong = [d for d in check.record.diagnostics
             if d.code == game.dialect.move_number_code[0] and d.number and d.side]
    edits = tuple(Edit(text.word_span(d.line, d.column),
                       f"{d.number}." if d.side == game.sides[0] else f"{d.number}...")
                  for d in wrong)
    return [Action("Renumber the moves", QUICK_FIX, edits, tuple(wrong))] if edits else []


def _result(text: RecordText, check: RecordCheck) -> list[Action]:
    game, result, record = check.replay.game, check.replay, check.record
    if game is None or not result.complete:
        return []
    if result.outcome is not None:
        expected = game.result_text(result.outcome)
        reason = result.outcome.detail or result.outcome.reason
    elif result.result == "1/2-1/2" and not game.draws_possible:
        expected, reason = "*", f"unfinished; {game.name} has no draws"
    else:
        return []
    edits = []
    tag = record.find_tag("Result")
    if tag is None:
        edits.append(_new_tag(text, record, "Result", expected))
    elif tag.value != expected:
        edits.append(Edit(tag_span(text, tag), f'[Result "{expected}"]'))
    if record.result is not None and record.result != expected:
        edits.append(Edit(text.word_span(record.result_line, record.result_column), expected))
    elif record.result is None and (record.moves or tag is None):
        last = _end_of_movetext(text, record)
        edits.append(Edit(Span(last.end_line, last.end_column, last.end_line, last.end_column),
                          f" {expected}"))
    fixed = tuple(d for d in record.diagnostics if d.code in ("E-RESULT-MISMATCH",
                                                              "W-RESULT-MISSING"))
    return [Action(f"Set the result to {expected} ({reason})", QUICK_FIX, tuple(edits),
                   fixed)] if edits else []


def _end_of_movetext(text: RecordText, record: Record) -> Span:
    nodes = flatten_moves(record.moves)
    if nodes:
        return move_span(text, max(nodes, key=lambda e: (e[0].line, e[0].column))[0])
    row = text.end_line - 1
    return Span(row, len(text.lines[-1]), row, len(text.lines[-1]))


def _new_tag(text: RecordText, record: Record, name: str, value: str) -> Edit:
    """A tag pair on a line of its own after the record's last tag (first, without tags)."""
    lines = [tag.line for tag in record.tags.entries() if tag.line]
    row = text.document_line(max(lines) + 1) if lines else text.document_line(record.line)
    return Edit(Span(row, 0, row, 0), f'[{name} "{value}"]\n')


def _missing_tags(text: RecordText, check: RecordCheck) -> list[Action]:
    record, game = check.record, check.replay.game
    actions = []
    named = record.find_tag("Variant") or record.find_tag("Game")
    unknown = tuple(d for d in record.diagnostics if d.code == "E-UNKNOWN-VARIANT")
    if named is None:
        for candidate in ([game] if game is not None else _games_that_replay(record)):
            actions.append(Action(f'Add [Variant "{candidate.id}"]', QUICK_FIX,
                                  (_new_tag(text, record, "Variant", candidate.id),), unknown))
    if game is not None and check.replay.rules is not None and record.find_tag("Rules") is None:
        rules = check.replay.rules.describe()
        actions.append(Action(f'Add [Rules "{rules}"]', QUICK_FIX,
                              (_new_tag(text, record, "Rules", rules),)))
    return actions


def _games_that_replay(record: Record) -> list[Game[Any, Any]]:
    """The games under which the record's movetext replays furthest, best first (those that
    replay none of it left out; without moves, those that read its start position)."""
    scored = []
    for game in all_games():
        copy = dataclasses.replace(record, diagnostics=[], tags=record.tags.copy())
        result = replay(copy, game_name=game.id, keep_start=True)
        errors = sum(d.is_error for d in copy.diagnostics)
        if result.plies or (not record.moves and result.start is not None):
            scored.append((-result.plies, errors, game.id, game))
    return [entry[3] for entry in sorted(scored, key=lambda entry: entry[:3])]


def _respell(text: RecordText, check: RecordCheck, line: int, end_line: int) -> list[Action]:
    spellings = canonical_spellings(check)
    if not spellings:
        return []
    nodes = [entry[0] for entry in flatten_moves(check.record.moves) if id(entry[0]) in spellings]
    actions = [Action(f"Write {node.text} as {spellings[id(node)]}", QUICK_FIX,
                      (Edit(move_span(text, node), spellings[id(node)]),))
               for node in nodes if line <= text.document_line(node.line) <= end_line]
    if len(nodes) > 1:
        actions.append(Action("Write every move in its canonical spelling", SOURCE_FIX,
                              tuple(Edit(move_span(text, node), spellings[id(node)])
                                    for node in nodes)))
    return actions


def _illegal(text: RecordText, check: RecordCheck, line: int, end_line: int) -> list[Action]:
    game = check.replay.game
    if game is None:
        return []
    nodes = {(node.line, node.column): node for node, _, _ in flatten_moves(check.record.moves)}
    actions = []
    for diagnostic in check.record.diagnostics:
        node = _node_of(nodes, diagnostic)
        if node is None or not diagnostic.is_error or diagnostic.code in RESULT_CODES \
                or not line <= text.document_line(node.line) <= end_line:
            continue
        position = position_at(check, node)
        if position is None:
            continue
        for written in closest_moves(game, position, node.text, record_notation(check)):
            actions.append(Action(f"Replace {node.text} with {written}", QUICK_FIX,
                                  (Edit(move_span(text, node), written),), (diagnostic,)))
    return actions


RESULT_CODES = frozenset({"E-MOVE-AFTER-END"})
"""Error codes on a move that no other move would mend (the game was already over)."""


def _node_of(nodes: dict[tuple[int, int], Any], diagnostic: Diagnostic) -> Any:
    """The move node an error about a move stands on (its column may point inside it)."""
    if diagnostic.move is None:
        return None
    for (line, column), node in nodes.items():
        if line == diagnostic.line and column <= diagnostic.column < column + max(len(node.text), 1):
            return node
    return None
