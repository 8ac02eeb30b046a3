"""Repairs, as pgn-extract makes them: what can be fixed in a record without guessing.

:func:`repair_record` changes a record in place and returns one note (a ``note``-severity
:class:`Diagnostic` located where the original text was) per fix: a malformed tag pair whose
name and value are plain to see (``--fix-tags``), a ``Result`` that contradicts the replayed
end (``--fix-result``), missing or wrong move numbers (``--fix-numbers``), move texts that
are not the canonical spelling of the move they resolve to, ambiguous ones included where
the replay settles the reading (``--fix-moves``), and the moves from a line's first
unplayable one on, kept as a comment after the last good move (``--keep-broken``), so that
the record replays to its end and nothing is lost.

The moves a repair keeps are the moves the record had: a repair never adds, drops or changes
a replayed move (the main line's digest stays the same). Replays copies; the record's own
diagnostics keep what the reader found, less the tag pairs repaired. Used by ``convert``,
``fmt`` and the Python API. Does not read files or print.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from notation_tools.analysis.convert import number_moves
from notation_tools.analysis.replay import Replay, ReplayVisitor, replay
from notation_tools.games.base import Game, Position, Rules
from notation_tools.records.diagnostics import NOTE, Diagnostic
from notation_tools.records.model import Move, Record, Tag
from notation_tools.records.pgn import (TAG_NAME, comment_problem, malformed_tag_text,
                                        movetext_words)

FIX_CODES = ("I-FIXED-TAG", "I-FIXED-RESULT", "I-FIXED-NUMBER", "I-FIXED-MOVE",
             "I-KEPT-BROKEN")
"""The codes of the notes a repair leaves, one per fix."""

KEPT_PREFIX = "kept, not played: "
"""How the comment that ``--keep-broken`` writes begins."""


@dataclasses.dataclass(frozen=True)
class Repairs:
    """Which repairs to make (all off by default); ``note_fixes`` also writes the notes into
    the record, as its first comment."""

    tags: bool = False
    result: bool = False
    numbers: bool = False
    moves: bool = False
    keep_broken: bool = False
    note_fixes: bool = False
    notation: str | None = None
    """The notation canonical move texts are written in (default: the record's own, see
    :func:`record_notation`)."""

    @property
    def any(self) -> bool:
        return self.tags or self.result or self.numbers or self.moves or self.keep_broken


class Survey(ReplayVisitor):
    """What a replay saw of each move (main line and variations): the side to move before it
    and its spelling in each of the game's notations, by node identity."""

    def __init__(self) -> None:
        self.game: Game[Any, Any] | None = None
        self.sides: dict[int, int] = {}
        self.spellings: dict[int, dict[str, str]] = {}
        self.nodes: dict[int, Move] = {}

    def begin(self, game: Game[Any, Any], rules: Rules, record: Record) -> None:
        self.game = game

    def visit_move(self, node: Move, move: Any, before: Position[Any], ply: int,
                   in_variation: bool) -> None:
        game = self.game
        assert game is not None  # begin came first
        key = id(node)
        self.sides[key] = before.turn
        self.nodes[key] = node
        self.spellings[key] = {name: game.format_move(move, before, name)
                               for name in game.notations}


def survey(record: Record, *, game: str | None = None, rules: str | None = None) -> \
        tuple[Replay, Survey]:
    """Replay ``record`` (with its main line's digest), noting every move; the replay's
    findings are on ``Replay.record``, a shallow copy, and not on ``record``."""
    seen = Survey()
    shadow = dataclasses.replace(record, diagnostics=list(record.diagnostics))
    result = replay(shadow, game_name=game, rules_text=rules, visitor=seen,
                    keep_start=True, digest=True)
    return result, seen


def record_notation(seen: Survey) -> str | None:
    """The notation a record is written in: the one in which most of its replayed moves are
    already spelled canonically (the game's first notation on a tie or with no moves)."""
    game = seen.game
    if game is None:
        return None
    counts = dict.fromkeys(game.notations, 0)
    for key, spellings in seen.spellings.items():
        text = seen.nodes[key].text
        for name, spelling in spellings.items():
            counts[name] += spelling == text
    return max(counts, key=lambda name: counts[name])  # max keeps the first of equals


def _note(record: Record, code: str, message: str, line: int, column: int,
          **where: Any) -> Diagnostic:
    return Diagnostic(code, message, record.path, line or record.line, column or 1,
                      severity=NOTE, record=record.index, **where)


# ---------------------------------------------------------------------------------------------
# Tags


_QUOTES = re.compile(r"""\A(?P<open>["'“”]?)(?P<value>.*?)(?P<close>["'“”]?)\Z""", re.S)


def repaired_tag(text: str) -> tuple[str, str] | None:
    """The name and value of a malformed tag pair whose meaning is plain: ``[Site Reading]``,
    ``[Variant "elevation"`` (no closing bracket), ``[Event "a "big" day"]`` (quotes inside
    the value), ``[Round '3']``; ``None`` when it is not one tag pair with a name.

    >>> repaired_tag('[Site Reading]'), repaired_tag('[Event "a "big" day"]')
    (('Site', 'Reading'), ('Event', 'a "big" day'))
    >>> repaired_tag('[Variant "elevation"'), repaired_tag('["x" "y"]')
    (('Variant', 'elevation'), None)
    """
    text = text.strip()
    if not text.startswith("["):
        return None
    inner = text[1:-1] if text.endswith("]") else text[1:]
    parts = inner.strip().split(None, 1)
    if not parts or not TAG_NAME.fullmatch(parts[0]):
        return None
    value = parts[1].strip() if len(parts) > 1 else ""
    if "[" in value or "]" in value or "\n" in value:
        return None  # not one tag pair: leave it to the reader's error
    match = _QUOTES.match(value)
    assert match is not None  # every text matches
    inside = match.group("value") if match.group("open") else value
    return parts[0], inside.replace('\\"', '"').replace("\\\\", "\\")


def repair_tags(record: Record) -> list[Diagnostic]:
    """Read each malformed tag pair the reader reported (``E-BAD-TAG``) whose meaning is
    plain, in its place among the tags; the reader's error for it goes."""
    notes: list[Diagnostic] = []
    kept: list[Diagnostic] = []
    entries = record.tags.entries()
    for diagnostic in record.diagnostics:
        raw = malformed_tag_text(diagnostic)
        pair = repaired_tag(raw) if raw is not None else None
        if raw is None or pair is None:
            kept.append(diagnostic)
            continue
        tag = Tag(pair[0], pair[1], diagnostic.line, diagnostic.column)
        at = next((i for i, old in enumerate(entries) if old.line > tag.line), len(entries))
        entries.insert(at, tag)
        notes.append(_note(record, "I-FIXED-TAG", f"tag pair {raw.strip()} read as "
                           f'[{tag.name} "{tag.value}"]', tag.line, tag.column))
    record.diagnostics[:] = kept
    return notes


# ---------------------------------------------------------------------------------------------
# Moves, numbers, result


def repair_moves(record: Record, seen: Survey, notation: str) -> list[Diagnostic]:
    """Write every replayed move in its canonical spelling in ``notation``."""
    notes = []
    for key, spellings in seen.spellings.items():
        node = seen.nodes[key]
        canonical = spellings[notation]
        if node.text != canonical:
            notes.append(_note(record, "I-FIXED-MOVE", f"{node.text} written {canonical}",
                               node.line, node.column, move=node.text))
            node.text = canonical
    return notes


def renumber(record: Record, result: Replay, seen: Survey) -> list[tuple[Move, str | None]]:
    """Give every move the number PGN gives it (the first player's moves, and the second
    player's where a line starts or follows a comment or variations), none to the others;
    returns the moves whose number changed, each with its old number."""
    before = {}
    pending = [record.moves]
    while pending:
        for node in pending.pop():
            before[id(node)] = (node, node.number)
            node.number = None
            pending.extend(node.variations)
    game, start = result.game, result.start
    number_moves(record.moves, game, seen.sides,
                 game.dialect.first_move_number(start) if game and start else 1,
                 start.turn if start is not None else 0)
    return [(node, old) for node, old in before.values() if node.number != old]


def repair_numbers(record: Record, result: Replay, seen: Survey) -> list[Diagnostic]:
    """Renumber the moves; a note for each number that was wrong, and one for the numbers
    that were missing."""
    notes = []
    missing: Move | None = None
    for node, old in renumber(record, result, seen):
        if old is None:
            missing = missing or node
        elif node.number is not None:
            notes.append(_note(record, "I-FIXED-NUMBER", f"move number {old} written "
                               f"{node.number}", node.number_line, node.number_column,
                               move=node.text))
    if missing is not None:
        notes.append(_note(record, "I-FIXED-NUMBER", "missing move numbers added",
                           missing.line, missing.column, move=missing.text))
    return notes


def repair_result(record: Record, result: Replay) -> list[Diagnostic]:
    """Make the ``Result`` tag and the result token say how the replayed game ended (an
    unfinished game keeps its result, unless it is a draw in a game that has none)."""
    game = result.game
    if game is None or not result.complete:
        return []
    if result.outcome is not None:
        expected = game.result_text(result.outcome)
    elif not game.draws_possible and "1/2-1/2" in (record.result, record.tag("Result")):
        expected = "*"
    else:
        return []
    notes = []
    tag = record.find_tag("Result")
    if tag is not None and tag.value != expected:
        notes.append(_note(record, "I-FIXED-RESULT", f"Result tag {tag.value} written "
                           f"{expected}", tag.line, tag.column))
        tag.value = expected
    if record.result is not None and record.result != expected:
        notes.append(_note(record, "I-FIXED-RESULT", f"result {record.result} written "
                           f"{expected}", record.result_line, record.result_column))
        record.result = expected
    elif record.result is None and tag is None:
        notes.append(_note(record, "I-FIXED-RESULT", f"result {expected} added",
                           record.line, 1))
        record.result = expected
    return notes


# ---------------------------------------------------------------------------------------------
# Broken lines


def _stuck_lines(record: Record, seen: Survey, skipped: frozenset[str]) -> \
        list[tuple[list[Move], int]]:
    """Each line the replay reached but did not finish, with the index of its first move
    that did not play."""
    stuck = []
    pending = [record.moves]
    while pending:
        line = pending.pop()
        for index, node in enumerate(line):
            if id(node) in seen.nodes:
                pending.extend(node.variations)
            elif node.data is None and node.text in skipped:
                continue
            else:
                stuck.append((line, index))
                break
    return stuck


def keep_broken(record: Record, result: Replay, seen: Survey) -> list[Diagnostic]:
    """Move each line's moves from its first unplayable one on into a comment after the move
    before it, so that the record replays (line breaks in the comments kept become spaces);
    a line whose first move does not play stays as it is."""
    game = result.game
    if game is None or result.start is None:
        return []
    skipped = frozenset(game.dialect.ignored_words)
    notes = []
    for line, index in _stuck_lines(record, seen, skipped):
        if index == 0:
            continue  # no good move in the line to keep the rest after
        rest = line[index:]
        kept = KEPT_PREFIX + " ".join(movetext_words(rest)).replace("\n", " ")
        if comment_problem(kept) is not None:
            continue
        del line[index:]
        line[index - 1].comments.append(kept)
        first = rest[0]
        notes.append(_note(record, "I-KEPT-BROKEN", f"{len(rest)} moves from {first.text} "
                           "on kept in a comment", first.line, first.column, move=first.text))
    return notes


# ---------------------------------------------------------------------------------------------
# All of them


def repair_record(record: Record, repairs: Repairs, *, game: str | None = None,
                  rules: str | None = None) -> list[Diagnostic]:
    """Make the ``repairs`` asked for in ``record`` (in place) and return their notes, which
    are also appended to ``record.diagnostics`` (and written as the record's first comment
    with ``repairs.note_fixes``). A record the reader could not read whole gets only its tag
    pairs repaired: what was read of its movetext is not all of it."""
    notes = repair_tags(record) if repairs.tags else []
    if any(d.is_error for d in record.diagnostics):
        return _noted(record, notes, repairs)
    result, seen = survey(record, game=game, rules=rules)
    if repairs.keep_broken and not result.is_valid:
        kept = keep_broken(record, result, seen)
        if kept:
            notes += kept
            result, seen = survey(record, game=game, rules=rules)
    if result.game is None:
        return _noted(record, notes, repairs)
    if repairs.moves:
        notation = repairs.notation or record_notation(seen)
        if notation in result.game.notations:
            notes += repair_moves(record, seen, notation)
    if repairs.numbers:
        notes += repair_numbers(record, result, seen)
    if repairs.result:
        notes += repair_result(record, result)
    return _noted(record, notes, repairs)


def _noted(record: Record, notes: list[Diagnostic], repairs: Repairs) -> list[Diagnostic]:
    if notes and repairs.note_fixes:
        words = "; ".join(f"{note.line}:{note.column} {note.message}" for note in notes)
        record.initial_comments.insert(0, "fixed: " + words.replace("}", ")"))
    record.diagnostics.extend(notes)
    return notes
