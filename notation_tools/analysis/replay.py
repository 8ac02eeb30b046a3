"""Replay a record against its game's engine: the one place engine errors become diagnostics.

``replay`` resolves the game (``--game`` over the ``Variant``/``Game`` tag, else a game that
recognises the movetext), the rules (``--rules`` over the ``Rules`` tag), the start position
(``SetUp``/``FEN``, ``FirstPlayer``), then pushes every move of the main line and of every
variation, checking move numbers, the end of the game and the result. It collects diagnostics
on the way and never raises for bad input (G3). A :class:`ReplayVisitor` sees each move with the
position before it, which is how ``convert`` re-writes moves and ``show`` stops at a ply.

Does not read files or print.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from notation_tools.analysis.overrides import parsed_rules
from notation_tools.games.base import (
    EngineError,
    Game,
    Outcome,
    Position,
    Resolution,
    Rules,
    Side,
    StatsCollector,
    UnknownGameError,
    all_games,
    get_game,
)
from notation_tools.records.diagnostics import ERROR, NOTE, WARNING, Diagnostic
from notation_tools.records.model import Move, Record, Tag

RESULT_TEXTS = frozenset({"1-0", "0-1", "1/2-1/2", "*"})


class ReplayVisitor:
    """Hooks called during replay; the default does nothing."""

    def begin(self, game: Game[Any, Any], rules: Rules, record: Record) -> None:
        """Called once the record's game and rules are known, before its first move."""

    def visit_move(self, node: Move, move: Any, before: Position[Any], ply: int,
                   in_variation: bool) -> None:
        """Called with the parsed move and the position before it (not yet pushed)."""

    def stop_after(self, ply: int) -> bool:
        """Whether to stop the main line after ``ply`` plies (and skip the end checks)."""
        return False

    @property
    def may_stop(self) -> bool:
        """Whether :meth:`stop_after` can say yes in this replay: when it cannot, replay
        does not ask it once per ply. True when a subclass has its own ``stop_after``."""
        return type(self).stop_after is not ReplayVisitor.stop_after

    def move_visits(self) -> tuple[Callable[[Move, Any, Position[Any], int, bool], None], ...]:
        """The ``visit_move`` methods replay calls for each move, in order (asked once a
        line, after :meth:`begin`)."""
        return (self.visit_move,)


class Visitors(ReplayVisitor):
    """Several visitors of one replay; the main line stops when every one says so."""

    def __init__(self, visitors: list[ReplayVisitor]) -> None:
        self.visitors = visitors

    def begin(self, game: Game[Any, Any], rules: Rules, record: Record) -> None:
        for visitor in self.visitors:
            visitor.begin(game, rules, record)

    def visit_move(self, node: Move, move: Any, before: Position[Any], ply: int,
                   in_variation: bool) -> None:
        for visitor in self.visitors:
            visitor.visit_move(node, move, before, ply, in_variation)

    def stop_after(self, ply: int) -> bool:
        for visitor in self.visitors:
            if not visitor.stop_after(ply):
                return False
        return True

    def move_visits(self) -> tuple[Callable[[Move, Any, Position[Any], int, bool], None], ...]:
        # Replay calls each visitor's own method: no call of this one in between, once per ply.
        return tuple(visit for visitor in self.visitors for visit in visitor.move_visits())

    @property
    def may_stop(self) -> bool:
        # One visitor that never stops (the position index's collector) keeps the replay
        # going to the end: then no visitor is asked.
        return all(visitor.may_stop for visitor in self.visitors)


def combined(*visitors: ReplayVisitor | None) -> ReplayVisitor | None:
    """The visitors given (``None`` for none) as one: ``None``, the only one, or
    :class:`Visitors` of them all."""
    present = [visitor for visitor in visitors if visitor is not None]
    return None if not present else present[0] if len(present) == 1 else Visitors(present)


@dataclasses.dataclass
class Replay:
    """What replaying a record found."""

    record: Record
    game: Game[Any, Any] | None = None
    rules: Rules | None = None
    position: Position[Any] | None = None
    """The position after the last main-line move replayed."""
    start: Position[Any] | None = None
    """A copy of the start position, when ``replay`` was asked to keep it."""
    plies: int = 0
    outcome: Outcome | None = None
    result: str | None = None
    stats: dict[str, Any] = dataclasses.field(default_factory=dict)
    complete: bool = False
    """Whether every main-line move was replayed."""
    digest: str | None = None
    """The main line's identity, when ``replay`` was asked for it (see :func:`movetext_digest`)."""

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.record.diagnostics

    @property
    def is_valid(self) -> bool:
        return not any(d.is_error for d in self.record.diagnostics)


class _Context:
    def __init__(self, record: Record) -> None:
        self.record = record

    def add(self, code: str, message: str, line: int, column: int, *, severity: str = ERROR,
            **where: Any) -> None:
        self.record.diagnostics.append(Diagnostic(
            code, message, self.record.path, line, column, severity=severity,
            record=self.record.index, **where))


def resolve_game(record: Record, game_name: str | None, ctx: _Context) -> Game[Any, Any] | None:
    if game_name is not None:
        return get_game(game_name)  # the CLI has already checked the name
    tag = record.find_tag("Variant") or record.find_tag("Game")
    if tag is not None:
        try:
            return get_game(tag.value)
        except UnknownGameError as error:
            ctx.add("E-UNKNOWN-VARIANT", str(error.args[0]), tag.line, tag.column)
            return None
    # Only movetext with no tags at all (a bare score, as ShogiVar writes) is recognised by
    # its look: a tagged record without a Variant tag is an error (DESIGN: the container).
    texts = [move.text for move in record.moves[:16]]
    if not record.tags and texts:
        for game in all_games():
            skip = game.dialect.preamble_length(texts)
            if skip or game.dialect.sniff(texts[skip:skip + 8]):
                return game
    if not record.tags and not record.moves and any(d.is_error for d in record.diagnostics):
        return None  # nothing of the record could be read: its own error says so
    ctx.add("E-UNKNOWN-VARIANT", "the record names no game: add a [Variant \"...\"] tag or "
            "give --game", record.line, 1)
    return None


def _rules_problem(record: Record, game: Game[Any, Any], game_name: str | None,
                   rules_text: str | None, message: str) -> str:
    """What is wrong with a record's rules, saying where they came from: ``--rules`` (given
    for every record, so the record's game is named), or the ``Rules`` tag, read under the
    game ``--game`` put in place of the record's own ``Variant`` when it did."""
    if rules_text is not None:
        return f"--rules {rules_text!r} (given for every record) does not suit {game.id}: {message}"
    text = f"Rules tag: {message}"
    variant = record.find_tag("Variant") or record.find_tag("Game")
    if game_name is not None and variant is not None:
        try:
            own = get_game(variant.value).id
        except UnknownGameError:
            own = None
        if own != game.id:
            text += (f"; --game {game.id} overrode the record's {variant.name} "
                     f"{variant.value!r}, whose rules these are")
    return text


def _tag_location(tag: Tag | None, record: Record) -> tuple[int, int]:
    return (tag.line, tag.column) if tag is not None else (record.line, 1)


def _start(record: Record, game: Game[Any, Any], rules: Rules,
           ctx: _Context) -> Position[Any] | None:
    fen_tag = record.find_tag("FEN")
    setup = record.find_tag("SetUp")
    first_tag = record.find_tag("FirstPlayer")
    if setup is not None and setup.value == "1" and fen_tag is None:
        ctx.add("E-BAD-TAG", "SetUp \"1\" needs a FEN tag with the start position",
                setup.line, setup.column)
        return None
    first: Side | None = None
    try:
        if first_tag is not None:
            first = game.parse_side(first_tag.value)
        position: Position[Any] = game.start_position(
            rules, fen=fen_tag.value if fen_tag else None, first_player=first)
        return position
    except EngineError as error:
        tag = fen_tag if error.code == "E-BAD-POSITION" else (first_tag or fen_tag)
        line, column = _tag_location(tag, record)
        ctx.add(error.code, error.message, line, column, rule=error.rule)
        return None


class _Line:
    """Replays one line of moves (the main line or a variation) from a position."""

    def __init__(self, game: Game[Any, Any], ctx: _Context, visitor: ReplayVisitor | None,
                 stats: StatsCollector[Any, Any] | None, digest: Any = None) -> None:
        self.game, self.ctx, self.visitor, self.stats = game, ctx, visitor, stats
        self.visits = visitor.move_visits() if visitor is not None else ()
        self.dialect = game.dialect
        self.digest = digest

    def run(self, moves: list[Move], position: Position[Any], number: int, ply: int,
            in_variation: bool) -> tuple[int, bool]:
        """Replay ``moves``; returns (plies replayed, whether every move was replayed)."""
        game, ctx, dialect = self.game, self.ctx, self.dialect
        sides, ignored, placeholder = game.sides, dialect.ignored_words, dialect.placeholder
        resolve, visitor, digest, stats = game.resolve_move, self.visitor, self.digest, self.stats
        visits = self.visits
        # Whether to stop is asked once per ply of the main line, and only of a visitor that
        # may stop (the position index's collector never does).
        stops = visitor is not None and not in_variation and visitor.may_stop
        start_ply = ply
        last_number, last_side = 0, ""
        """The move number and side of the last move played (none yet), for
        E-MOVE-AFTER-END."""
        for index, node in enumerate(moves):
            if stops and visitor.stop_after(ply):  # type: ignore[union-attr]
                return ply - start_ply, False
            side = position.turn
            side_name = sides[side]
            text = node.text
            if node.data is None and text in ignored:
                ctx.add("W-IGNORED-WORD", f'ignored "{text}"', node.line, node.column,
                        severity=WARNING, **_where(ply, number, side_name, text))
                continue
            if placeholder is not None and text == placeholder \
                    and ply == 0 and side == 1 and index == 0:
                continue  # "1. - P-10g": the placeholder fills side 0's slot of move 1
            number_text = node.number  # the usual spelling passes here; the method takes the rest
            if number_text is not None \
                    and number_text != (f"{number}..." if side else f"{number}."):
                self._check_number(node, number, side, side_name, ply)
            if placeholder is not None and text == placeholder:
                ctx.add("E-PLACEHOLDER", f"'{text}' stands for a missing move only in the "
                        f"first player's place of move 1 when {sides[1]} starts",
                        node.line, node.column, **_where(ply, number, side_name, text))
                return ply - start_ply, False
            # Whether the side to move is stuck is asked only when the move does not
            # resolve: a move that resolves is a legal move, so the game went on.
            outcome = position.outcome_unless_stuck()
            if outcome is not None:
                self._after_end(node, outcome, last_number, last_side,
                                _where(ply, number, side_name, text))
                return ply - start_ply, False
            try:
                resolution = resolve(text, position) if node.data is None or text \
                    else Resolution(game.move_from_json(node.data, position))
            except Exception as error:  # noqa: BLE001 - an engine bug must not end the run
                self._unresolved(node, error, position, last_number, last_side,
                                 _where(ply, number, side_name, text))
                return ply - start_ply, False
            move = self._reading(resolution, node, moves[index + 1:] if resolution.alternatives
                                 else [], position, ply, number, side_name)
            for variation in node.variations:
                branch = _Line(game, ctx, visitor, None)
                branch.run(variation, position.copy(), number, ply, True)
            for visit in visits:
                visit(node, move, position, ply + 1, in_variation)
            if digest is not None:
                digest.update(repr(move).encode())
                digest.update(b"\n")
            if stats is None:
                position.push(move)
            else:
                stats.before_move(position, move)
                position.push(move)
                stats.after_move(position)
            ply += 1
            last_number, last_side = number, side_name
            if side == 1:
                number += 1
        return ply - start_ply, True

    def _unresolved(self, node: Move, error: Exception, position: Position[Any],
                    last_number: int, last_side: str, where: dict[str, Any]) -> None:
        """Report a move text that did not resolve: a move after the end when the game was
        over, else the engine's error (any other exception is an engine bug)."""
        outcome = position.outcome()
        if outcome is not None:
            self._after_end(node, outcome, last_number, last_side, where)
            return
        text = node.text
        if isinstance(error, EngineError):
            message = error.message
            if text and message.startswith(f"{text}: "):
                message = message[len(text) + 2:]  # the diagnostic names the move
            self.ctx.add(error.code, message, node.line, node.column + error.offset,
                         rule=error.rule, **{**where, "move": text or repr(node.data)})
            return
        self.ctx.add("E-INTERNAL", f"internal error in the {self.game.id} engine "
                     f"({type(error).__name__}: {error}); please report this record",
                     node.line, node.column, **where)

    def _reading(self, resolution: Resolution[Any], node: Move, rest: list[Move],
                 position: Position[Any], ply: int, number: int, side_name: str) -> Any:
        """The move a resolved text stands for (of several readings, the one the rest of the
        line plays best), its warnings reported."""
        move = resolution.move
        warnings = resolution.warnings
        survivors = 1
        if resolution.alternatives:
            readings = [move, *resolution.alternatives]
            move, survivors = self._choose(readings, rest, position)
            kept = readings.index(move)
            if kept:  # only the reading the record confirms speaks (#16)
                others = resolution.alternative_warnings
                warnings = others[kept - 1] if kept - 1 < len(others) else ()
        for code, message, rule in warnings:
            self.ctx.add(code, message, node.line, node.column, rule=rule,
                         severity=NOTE if code.startswith("I-") else WARNING,
                         **_where(ply, number, side_name, node.text))
        if survivors > 1:
            self.ctx.add(self.dialect.fork_warning, f"{survivors} readings of {node.text} play "
                         "to the end of the line; the first in position order is kept",
                         node.line, node.column, severity=WARNING,
                         **_where(ply, number, side_name, node.text))
        return move

    def _after_end(self, node: Move, outcome: Outcome, last_number: int, last_side: str,
                   where: dict[str, Any]) -> None:
        """``last_side`` is empty when no move of this line was played."""
        after = f"move {last_number} ({last_side})" if last_side else "the start position"
        self.ctx.add("E-MOVE-AFTER-END", f"the game ended after {after} "
                     f"({outcome.detail or outcome.reason})", node.line, node.column, **where)

    def _resolve(self, node: Move, position: Position[Any]) -> Resolution[Any]:
        if node.data is not None and not node.text:
            return Resolution(self.game.move_from_json(node.data, position))
        return self.game.resolve_move(node.text, position)

    def _choose(self, candidates: list[Any], rest: list[Move],
                position: Position[Any]) -> tuple[Any, int]:
        """The reading under which the rest of the line plays best, and how many tie.

        Each reading is scored by the later moves in order (played cleanly, with a warning,
        or not at all), so a reading is dropped at the first move another plays better.
        """
        scores = [self._score(candidate, rest, position) for candidate in candidates]
        best = max(scores)
        survivors = [c for c, score in zip(candidates, scores) if score == best]
        return survivors[0], len(survivors)

    def _score(self, candidate: Any, rest: list[Move], position: Position[Any]) -> tuple[int, ...]:
        work = position.copy()
        work.push(candidate)
        marks = []
        for node in rest:
            if node.data is None and (node.text in self.dialect.ignored_words):
                continue
            if work.outcome() is not None:
                break
            try:
                resolution = self._resolve(node, work)
            except Exception:  # noqa: BLE001 - any failure ends this reading
                break
            marks.append(1 if resolution.warnings else 2)
            work.push(resolution.move)  # a later fork takes its first reading
        return (*marks, 0)

    def _check_number(self, node: Move, number: int, side: Side, side_name: str,
                      ply: int) -> None:
        text = node.number or ""
        if text == (f"{number}..." if side else f"{number}."):
            return
        second_form = text.endswith(("...", "…"))
        digits = text.rstrip(".…")
        if digits.isascii() and digits.isdigit() and int(digits) == number \
                and second_form == (side == 1):
            return
        expected = f"{number}..." if side == 1 else f"{number}."
        code, severity = self.dialect.move_number_code
        self.ctx.add(code, f"move number {text} out of sequence: this is {expected} "
                     f"({side_name} to move)", node.number_line, node.number_column,
                     severity=severity, ply=ply + 1, number=number, side=side_name,
                     move=node.text)


def _where(ply: int, number: int, side_name: str, text: str) -> dict[str, Any]:
    """Where a diagnostic about the move after ``ply`` plies stands (made only for one)."""
    return {"ply": ply + 1, "number": number, "side": side_name, "move": text}


def movetext_digest(game: Game[Any, Any], rules: Rules, start: Position[Any]) -> Any:
    """A hash to feed the main line's moves to: seeded with the game, rules and start position.

    Two records get one digest when they are the same game from the same start with the same
    moves, whatever the notation, comments, NAGs, variations or tags: the moves enter as the
    engine's move objects (their ``repr``), not as the texts that named them.
    """
    import hashlib  # only for a digest: validate never needs it

    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{game.id}\n{rules.describe()}\n{game.format_position(start)}\n".encode())
    return digest


def replay(record: Record, *, game_name: str | None = None, rules_text: str | None = None,
           visitor: ReplayVisitor | None = None, collect_stats: bool = False,
           keep_start: bool = False, digest: bool = False) -> Replay:
    """Replay ``record``, appending diagnostics to ``record.diagnostics``.

    ``game_name`` and ``rules_text`` are the ``--game`` and ``--rules`` overrides. With
    ``digest``, ``Replay.digest`` is the hex identity of the main line as far as it replayed
    (:func:`movetext_digest`). Never raises for bad input: every fault is a diagnostic.
    """
    ctx = _Context(record)
    result = Replay(record)
    game = resolve_game(record, game_name, ctx)
    if game is None:
        return result
    result.game = game
    # Another program's title lines before its score (ShogiVar's text score) are skipped, not
    # removed: the record is written back as it was read.
    preamble = game.dialect.preamble_length([move.text for move in record.moves[:16]])
    rules_tag = record.find_tag("Rules")
    try:
        rules = parsed_rules(game, rules_text if rules_text is not None
                             else (rules_tag.value if rules_tag else None))
    except EngineError as error:
        line, column = _tag_location(rules_tag if rules_text is None else None, record)
        ctx.add(error.code, _rules_problem(record, game, game_name, rules_text, error.message),
                line, column, rule=error.rule)
        return result
    result.rules = rules
    if visitor is not None:
        visitor.begin(game, rules, record)
    position = _start(record, game, rules, ctx)
    if position is None:
        return result
    if keep_start:
        result.start = position.copy()
    for code, message in position.notes:
        line_number, column = _tag_location(record.find_tag("FEN"), record)
        ctx.add(code, message, line_number, column,
                severity=NOTE if code.startswith("I-") else WARNING)
    stats = game.new_stats(rules) if collect_stats else None
    hasher = movetext_digest(game, rules, position) if digest else None
    main_line = _Line(game, ctx, visitor, stats, hasher)
    plies, complete = main_line.run(record.moves[preamble:] if preamble else record.moves, position,
                               game.dialect.first_move_number(position), 0, False)
    result.position, result.plies, result.complete = position, plies, complete
    if hasher is not None:
        result.digest = hasher.hexdigest()
    if complete:
        result.outcome = position.outcome()
    _check_result(record, game, result, ctx, judge=complete)
    if stats is not None:
        result.stats = stats.summary(position, result.outcome)
    return result


def _check_result(record: Record, game: Game[Any, Any], result: Replay, ctx: _Context, *,
                  judge: bool) -> None:
    tag = record.find_tag("Result")
    claimed = tag.value if tag is not None else None
    if tag is not None and claimed not in RESULT_TEXTS:
        ctx.add("E-BAD-TAG", f"Result \"{claimed}\" is not one of 1-0, 0-1, 1/2-1/2, *",
                tag.line, tag.column)
        claimed = None
    movetext = record.result
    if claimed is not None and movetext is not None and claimed != movetext:
        ctx.add("E-RESULT-MISMATCH", f"the movetext ends with {movetext} but the Result tag "
                f"says {claimed}", record.result_line, record.result_column)
    result.result = claimed or movetext
    if not judge:
        return
    line, column = ((record.result_line, record.result_column) if movetext is not None
                    else _tag_location(tag, record))
    outcome = result.outcome
    if outcome is None:
        # An unfinished game may carry any result (resignation, agreement, adjudication),
        # except a draw in a game that has none.
        if result.result == "1/2-1/2" and not game.draws_possible:
            ctx.add("E-RESULT-MISMATCH", f"{game.name} has no draws: the game is unfinished, "
                    "and a 1/2-1/2 result is impossible", line, column)
        return
    expected = game.result_text(outcome)
    reason = outcome.detail or outcome.reason
    if result.result in (None, "*"):
        ctx.add("W-RESULT-MISSING", f"the game is over ({reason}): the result is {expected}",
                line, column, severity=WARNING)
    elif result.result != expected:
        ctx.add("E-RESULT-MISMATCH", f"the game ended ({reason}), so the result is {expected},"
                f" not {result.result}", line, column)
