"""Selection: which records of a stream to keep, by their tags, by what replaying them finds,
and whether an earlier record was the same game (pgn-extract's everyday jobs).

A :class:`Selection` is built from the command line's texts by :func:`parse_selection`, which
checks everything (regular expressions, figure names, position strings, rules options) before a
record is read and raises :class:`SelectionError` naming the option. :meth:`Selection.judge`
then looks at one record at a time and says whether it matched, and if it is a duplicate of an
earlier match. A selection by tags alone never replays: the record's tags are known as soon as
the container has parsed it.

Duplicates are found by a 16-byte digest per record kept in memory (the records themselves
are never kept), so an archive larger than memory can be deduplicated.

Does not read files or print.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import functools
import hashlib
import importlib
import operator
import re
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from notation_tools.parallel.batch import Settings, records_of_chunk, units_of
from notation_tools.analysis.foreign import foreign_record
from notation_tools.analysis.openings import OpeningMatcher, cached_catalogue
from notation_tools.analysis.overrides import parsed_rules
from notation_tools.analysis.pattern import Pattern, PatternError, PatternVisitor, parse_pattern
from notation_tools.analysis.replay import Replay, ReplayVisitor, combined, replay
from notation_tools.codes import SHARED_CODES
from notation_tools.games.base import (EngineError, Game, Position, Rules, UnknownGameError,
                                       all_games, get_game)
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.model import Move, Record, Tag, Tags  # noqa: F401 - Tag: the doctests
from notation_tools.sources import ForeignText, PgnChunk, ReadProgress


class SelectionError(ValueError):
    """A selection that cannot be used, found before any record is read; ``option`` names the
    command-line option it came from."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option
        self.message = message


# ------------------------------------------------------------------------------------------
# Tags

_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "<=": operator.le, ">=": operator.ge, "!=": operator.ne, "<": operator.lt, ">": operator.gt,
    "=": operator.eq}
_TAG_TEST = re.compile(r"^\s*([A-Za-z0-9_]+)\s*(<=|>=|!=|<|>|=|~)(.*)$", re.DOTALL)


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _compare(op: str, have: str, want: str) -> bool:
    """Numbers compare as numbers when both sides are numbers; other texts as texts (so PGN
    dates ``1998.01.01`` compare in calendar order)."""
    have_number, want_number = _number(have), _number(want)
    if have_number is not None and want_number is not None:
        return _COMPARE[op](have_number, want_number)
    return _COMPARE[op](have, want)


class MatchTimeout(Exception):
    """A regular expression that searched one tag value for longer than its time limit."""

    def __init__(self, test: TagTest, tag: Tag) -> None:
        super().__init__(f"{test}: stopped after {test.time_limit:g} s on a tag of "
                         f"{len(tag.value)} characters")
        self.test, self.tag = test, tag


DEFAULT_MATCH_SECONDS = 1.0
"""How long Python's engine may search one tag value (``--limit match-ms``)."""


def linear_engine() -> Any:
    """The ``re2`` module (the google-re2 package: linear-time matching), or ``None`` when
    it is not installed."""
    try:
        return importlib.import_module("re2")  # optional, without type hints
    except ImportError:
        return None


def compile_pattern(text: str) -> tuple[Any, str]:
    """``text`` compiled, and the engine that runs it: ``re2`` (linear time in the length of
    the text searched: no pattern can make it hang) when it is installed and takes the
    pattern, else Python's ``re`` (which backtracks: a search is stopped at its time limit).
    Backreferences and lookaround are Python's only; ``re.error`` for a pattern neither
    engine takes."""
    re2 = linear_engine()
    if re2 is not None:
        options = re2.Options()
        options.log_errors = False  # a pattern re2 refuses goes to Python's engine, quietly
        try:
            return re2.compile(text, options), "re2"
        except re2.error:
            pass
    return re.compile(text), "re"


class _Expired(Exception):
    """Raised by the processor-time alarm inside a search that ran out of time."""


def _expire(signum: int, frame: Any) -> None:
    raise _Expired


_SEARCHED_WHOLE = 4096
"""Texts up to this length are searched in one call; longer ones one start at a time."""


def _search(pattern: re.Pattern[str], text: str, whole: int = _SEARCHED_WHOLE) -> bool:
    """``pattern.search(text)``, done so that an alarm can stop it soon. Python's engine
    looks for signals as it backtracks within one attempt, but seldom between the attempts
    at successive starts: ``a*b`` on 200,000 a's ran two seconds past its alarm. A long text
    is therefore tried one start at a time (``match`` at ``pos`` is what ``search`` does at
    that start: ``^`` and lookbehind see the whole text), and the alarm is seen between
    starts."""
    if len(text) <= whole:
        return pattern.search(text) is not None
    return any(pattern.match(text, start) is not None for start in range(len(text) + 1))


def bounded_search(pattern: re.Pattern[str], text: str, seconds: float) -> bool:
    """Whether Python's ``pattern`` is found in ``text``, the search stopped with
    ``_Expired`` after ``seconds`` of processor time (a profiling-timer alarm, which
    Python's engine sees as it searches). Where no alarm can be set (a thread other than the
    main one, a system without ``setitimer``) the search runs unbounded, which is one more
    reason to install re2."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not \
            threading.main_thread():
        return _search(pattern, text)
    previous = signal.signal(signal.SIGPROF, _expire)
    armed = signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        return _search(pattern, text)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
        if armed[0] > 0:
            signal.setitimer(signal.ITIMER_PROF, *armed)  # a timer someone else set


@dataclasses.dataclass(frozen=True)
class TagTest:
    """One test of one tag: ``Result=1-0`` (equal), ``White~Steere`` (a regular expression
    searched in the value), ``Round>=3``, ``Event!=Casual``. A record without the tag fails
    every test but ``!=``. A regular expression runs on re2 when it is installed (linear
    time), else on Python's engine, stopped after ``time_limit`` seconds of processor time
    with :class:`MatchTimeout`."""

    name: str
    op: str
    value: str
    pattern: Any = None
    engine: str | None = None
    """``re2`` or ``re``: which engine runs ``pattern``."""
    time_limit: float = DEFAULT_MATCH_SECONDS

    def matches(self, record: Record) -> bool:
        tag = record.find_tag(self.name)
        if tag is None:
            return self.op == "!="
        if self.pattern is not None:
            if self.engine == "re2":
                return self.pattern.search(tag.value) is not None
            try:
                return bounded_search(self.pattern, tag.value, self.time_limit)
            except _Expired:
                raise MatchTimeout(self, tag) from None
        return _compare(self.op, tag.value, self.value)

    def __str__(self) -> str:
        return f"{self.name}{self.op}{self.value}"


def parse_tag_test(text: str, option: str = "--tag", *,
                   time_limit: float = DEFAULT_MATCH_SECONDS) -> TagTest:
    """``NAME=VALUE``, ``NAME~REGEX``, or ``NAME`` then one of ``< <= > >= !=`` and a value.

    >>> parse_tag_test("White~^Stee").matches(Record(tags=[Tag("White", "Steere")]))
    True
    >>> parse_tag_test("Round>=10").matches(Record(tags=[Tag("Round", "9")]))
    False
    """
    found = _TAG_TEST.match(text)
    if found is None:
        raise SelectionError(option, f"{text!r} is not NAME=VALUE, NAME~REGEX or NAME<VALUE "
                                     "(also <=, >, >=, !=)")
    name, op, value = found.groups()
    pattern, engine = None, None
    if op == "~":
        try:
            pattern, engine = compile_pattern(value)
        except re.error as error:
            raise SelectionError(option, f"{value!r} is not a regular expression: {error}") \
                from None
    return TagTest(name, op, value, pattern, engine, time_limit)


# ------------------------------------------------------------------------------------------
# What replay finds

@dataclasses.dataclass(frozen=True)
class FigureTest:
    """``emperor_moves>0``: a figure of the record's statistics compared with a number. A
    record whose game has no such figure fails it."""

    name: str
    op: str
    value: float

    def matches(self, figures: dict[str, Any]) -> bool:
        have = figures.get(self.name)
        if isinstance(have, bool):
            have = int(have)
        if not isinstance(have, (int, float)):
            return False
        return _COMPARE[self.op](have, self.value)

    def __str__(self) -> str:
        return f"{self.name}{self.op}{self.value:g}"


_FIGURE_TEST = re.compile(r"^\s*([A-Za-z0-9_]+)\s*(<=|>=|!=|<|>|=)\s*(\S+)\s*$")


@functools.cache
def figure_names(game: Game[Any, Any]) -> frozenset[str]:
    """Every figure name ``game``'s statistics report, under each of its profiles."""
    names: set[str] = set()
    for profile in game.profiles:
        rules = game.parse_rules(profile)
        position = game.start_position(rules)
        names.update(game.new_stats(rules).summary(position, None))
    return frozenset(names)


def parse_figure_test(text: str, games: Iterable[Game[Any, Any]]) -> FigureTest:
    """``NAME>VALUE`` (also ``< <= >= = !=``), where NAME is a figure of one of ``games``."""
    found = _FIGURE_TEST.match(text)
    value = _number(found.group(3)) if found else None
    if found is None or value is None:
        raise SelectionError("--figure", f"{text!r} is not NAME>NUMBER (also <, <=, >=, =, !=)")
    name = found.group(1)
    known = set().union(*(figure_names(game) for game in games))
    if name not in known:
        close = sorted(n for n in known if name.lower() in n.lower())[:8]
        hint = f" (did you mean {', '.join(close)}?)" if close else \
            " ('notation-tools stats' lists every figure of a game)"
        raise SelectionError("--figure", f"no game has a figure {name!r}{hint}")
    return FigureTest(name, found.group(2), value)


def parse_plies(text: str) -> tuple[int | None, int | None]:
    """``40..200``, ``40..`` or ``..200`` (inclusive), or one number.

    >>> parse_plies("40..200"), parse_plies("..9"), parse_plies("12")
    ((40, 200), (None, 9), (12, 12))
    """
    low_text, dots, high_text = text.partition("..")
    if not dots:
        high_text = low_text
    try:
        low = int(low_text) if low_text.strip() else None
        high = int(high_text) if high_text.strip() else None
    except ValueError:
        raise SelectionError("--plies", f"{text!r} is not a range such as 40..200, 40.. or "
                                        "..200") from None
    if (low is not None and low < 0) or (low is not None and high is not None and high < low):
        raise SelectionError("--plies", f"{text!r} is an empty range")
    return low, high


def parse_position_targets(text: str, games: Iterable[Game[Any, Any]]) -> dict[str, str]:
    """Game id → the canonical spelling of position string ``text`` in that game, for every
    game among ``games`` that reads it; a :class:`SelectionError` when none does."""
    found: dict[str, str] = {}
    problems: list[str] = []
    for game in games:
        try:
            rules = game.parse_rules(None)
            found[game.id] = game.format_position(game.parse_position(text, rules))
        except EngineError as error:
            problems.append(f"{game.id}: {error.message}")
        except Exception as error:  # noqa: BLE001 - a reader's fault is the text's fault here
            problems.append(f"{game.id}: {type(error).__name__}")
    if not found:
        raise SelectionError("--reaches", f"{text!r} is not a position string of any game "
                                          f"({'; '.join(problems)})")
    return found


class _Reaches(ReplayVisitor):
    """Whether the main line passes through one of the target positions."""

    def __init__(self, targets: dict[str, str]) -> None:
        self.targets = targets
        self.game: Game[Any, Any] | None = None
        self.target: str | None = None
        self.reached = False

    def begin(self, game: Game[Any, Any], rules: Rules, record: Record) -> None:
        self.game, self.target = game, self.targets.get(game.id)

    def visit_move(self, node: Move, move: Any, before: Position[Any], ply: int,
                   in_variation: bool) -> None:
        if not in_variation and not self.reached and self.target is not None:
            assert self.game is not None
            self.reached = self.game.format_position(before) == self.target

    def finish(self, result: Replay) -> None:
        if not self.reached and self.target is not None and result.position is not None \
                and result.game is not None:
            self.reached = result.game.format_position(result.position) == self.target


@dataclasses.dataclass(frozen=True)
class OpeningTest:
    """``--opening``: the record's opening (the deepest named line of the catalogues, the
    games' own and ``files``, that its main line begins with) is ``text`` exactly, matches
    the glob ``text`` (with ``*``, ``?`` or ``[``), or, for ``~REGEX``, contains a match of
    the regular expression. A record with no named opening fails every test.

    >>> OpeningTest.parse("Centre*").matches("Centre pawns")
    True
    >>> OpeningTest.parse("~pawn$").matches("Edge pawn"), OpeningTest.parse("Edge").matches("Edge pawn")
    (True, False)
    """

    text: str
    pattern: Any = None
    files: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str, files: tuple[str, ...] = ()) -> OpeningTest:
        if text.startswith("~"):
            try:
                return cls(text, compile_pattern(text[1:])[0], files)
            except re.error as error:
                raise SelectionError("--opening", f"{text[1:]!r} is not a regular expression: "
                                                  f"{error}") from None
        if any(mark in text for mark in "*?["):
            return cls(text, re.compile(fnmatch.translate(text)), files)
        return cls(text, None, files)

    def matches(self, name: str | None) -> bool:
        if name is None:
            return False
        if self.pattern is None:
            return name == self.text
        return self.pattern.search(name) is not None

    def matcher(self) -> OpeningMatcher:
        """A replay visitor that finds a record's opening in this test's catalogues."""
        return OpeningMatcher(cached_catalogue(self.files))


def parse_patterns(games: Iterable[Game[Any, Any]], *, squares: Iterable[str] = (),
                   material: str | None = None, at: str | None = None) -> dict[str, Pattern]:
    """Game id → the pattern, for every game among ``games`` that reads it; the first
    game's :class:`~notation_tools.analysis.pattern.PatternError` when none does."""
    found: dict[str, Pattern] = {}
    errors: list[tuple[str, PatternError]] = []
    for game in games:
        try:
            found[game.id] = parse_pattern(game, squares=squares, material=material, at=at)
        except PatternError as error:
            errors.append((game.id, error))
    if not found:
        if len(errors) == 1:
            raise SelectionError(errors[0][1].option, errors[0][1].message)
        raise SelectionError(errors[0][1].option, "no game reads it (" + "; ".join(
            f"{game_id}: {error.message}" for game_id, error in errors) + ")")
    return found


# ------------------------------------------------------------------------------------------
# The selection


DEDUPE_MODES = ("moves", "position")


@dataclasses.dataclass(frozen=True)
class Verdict:
    """What a selection says of one record: ``matched``, and for a match whether it repeats an
    earlier match (``duplicate``); ``replay`` is the replay when one was needed."""

    matched: bool
    duplicate: bool = False
    replay: Replay | None = None
    problem: Diagnostic | None = None
    """Why the record could not be judged (a regular expression out of time): it is counted
    as not matching, and the problem is reported."""


@dataclasses.dataclass
class Selection:
    """Criteria combined with AND (``any_tags``: at least one of them). Empty: every record."""

    tags: tuple[TagTest | DateTest, ...] = ()
    any_tags: tuple[TagTest, ...] = ()
    games: frozenset[str] = frozenset()
    profiles: frozenset[str] = frozenset()
    options: tuple[tuple[str, str], ...] = ()
    valid: bool | None = None
    codes: frozenset[str] = frozenset()
    ended: frozenset[str] = frozenset()
    plies: tuple[int | None, int | None] | None = None
    figures: tuple[FigureTest, ...] = ()
    reaches: dict[str, str] | None = None
    dedupe: str | None = None
    game_override: str | None = None
    rules_override: str | None = None
    seen: set[bytes] = dataclasses.field(default_factory=set, repr=False)
    opening: OpeningTest | None = None
    pattern: dict[str, Pattern] | None = None
    """Game id → the pattern (docs/pattern.md) a record's main line must match at some ply."""
    reached: Callable[[Record], bool | None] | None = None
    """What a position index says of ``reaches`` for a record (``select --db``): whether it
    reaches the position, or ``None`` when the index does not hold the record (it is then
    replayed)."""

    @property
    def needs_replay(self) -> bool:
        """Whether judging a record needs its moves replayed (tags alone do not)."""
        return (self.valid is not None or bool(self.codes) or bool(self.ended)
                or self.plies is not None or bool(self.figures)
                or (self.reaches is not None and self.reached is None)
                or self.pattern is not None or self.opening is not None
                or self.dedupe is not None)

    def judge(self, record: Record) -> Verdict:
        """Whether ``record`` matches, and whether it repeats an earlier match."""
        try:
            if not self._tags_match(record) or not self._game_matches(record):
                return Verdict(False)
        except MatchTimeout as timeout:
            return Verdict(False, problem=_timeout_diagnostic(timeout, record))
        indexed = self.reached(record) if self.reached is not None else None
        if indexed is False:
            return Verdict(False)
        if not self.needs_replay and (indexed or self.reaches is None):
            return Verdict(True)
        reaches = _Reaches(self.reaches) if self.reaches is not None and indexed is None \
            else None
        pattern = PatternVisitor(self.pattern) if self.pattern is not None else None
        opening = self.opening.matcher() if self.opening is not None else None
        result = replay(record, game_name=self.game_override, rules_text=self.rules_override,
                        visitor=combined(reaches, pattern, opening),
                        collect_stats=bool(self.figures), digest=self.dedupe == "moves")
        if reaches is not None:
            reaches.finish(result)
        if pattern is not None:
            pattern.finish(result)
        if not self._replay_matches(result, reaches) or (
                pattern is not None and pattern.ply is None) or (
                self.opening is not None and opening is not None and not self.opening.matches(
                    opening.opening.name if opening.opening is not None else None)):
            return Verdict(False, replay=result)
        if self.dedupe is None:
            return Verdict(True, replay=result)
        key = _identity(result, self.dedupe)
        if key in self.seen:
            return Verdict(True, duplicate=True, replay=result)
        self.seen.add(key)
        return Verdict(True, replay=result)

    def _tags_match(self, record: Record) -> bool:
        if not all(test.matches(record) for test in self.tags):
            return False
        return not self.any_tags or any(test.matches(record) for test in self.any_tags)

    def _game_matches(self, record: Record) -> bool:
        if not (self.games or self.profiles or self.options):
            return True
        game = game_of(record, self.game_override)
        if game is None or (self.games and game.id not in self.games):
            return False
        if not (self.profiles or self.options):
            return True
        rules_tag = record.find_tag("Rules")
        text = self.rules_override if self.rules_override is not None else (
            rules_tag.value if rules_tag is not None else None)
        try:
            rules = parsed_rules(game, text)
        except EngineError:
            return False
        if self.profiles and rules.profile not in self.profiles:
            return False
        return all(rules.texts.get(name) == value for name, value in self.options)

    def _replay_matches(self, result: Replay, reaches: _Reaches | None) -> bool:
        if self.valid is not None and result.is_valid != self.valid:
            return False
        if self.codes and not any(d.code in self.codes for d in result.diagnostics):
            return False
        if self.ended:
            reason = result.outcome.reason if result.outcome is not None else "unfinished"
            if reason not in self.ended:
                return False
        if self.plies is not None:
            low, high = self.plies
            if (low is not None and result.plies < low) or (high is not None
                                                             and result.plies > high):
                return False
        if self.figures and not all(test.matches(result.stats) for test in self.figures):
            return False
        return reaches is None or reaches.reached


def _timeout_diagnostic(timeout: MatchTimeout, record: Record) -> Diagnostic:
    test, tag = timeout.test, timeout.tag
    return Diagnostic(
        "E-LIMIT", f"tag test {test}: the regular expression searched the {tag.name} tag "
        f"({len(tag.value)} characters) for {test.time_limit:g} s of processor time and was "
        "stopped; the record is taken as not matching (Python's engine backtracks: install "
        "the re2 extra for linear-time matching, simplify the expression, or raise --limit "
        "match-ms)",
        record.path, tag.line, tag.column, record=record.index)


def game_of(record: Record, override: str | None = None) -> Game[Any, Any] | None:
    """The game of a record without replaying it: ``override``, its ``Variant``/``Game`` tag,
    or, for untagged movetext, the game whose dialect recognises it."""
    name = override
    if name is None:
        tag = record.find_tag("Variant") or record.find_tag("Game")
        if tag is None:
            texts = [move.text for move in record.moves[:16]]
            for game in all_games():
                skip = game.dialect.preamble_length(texts)
                if texts and not record.tags and (skip or game.dialect.sniff(texts[skip:skip + 8])):
                    return game
            return None
        name = tag.value
    try:
        return get_game(name)
    except UnknownGameError:
        return None


def _identity(result: Replay, mode: str) -> bytes:
    """16 bytes that two records share when they are the same game (``moves``: the same
    start and moves; ``position``: the same final position)."""
    record = result.record
    digest = hashlib.blake2b(digest_size=16)
    if mode == "position" and result.game is not None and result.position is not None:
        digest.update(f"{result.game.id}\n{result.game.format_position(result.position)}"
                      .encode())
        return digest.digest()
    if result.digest is not None and result.complete:
        return bytes.fromhex(result.digest)
    # A record that did not replay to its end is identified by its texts as well, so two
    # different broken records that share a playable start are not taken for one.
    digest.update((result.digest or "").encode())
    for move in record.moves:
        digest.update(b"\n" + move.text.encode("utf-8", "surrogatepass"))
    variant = record.find_tag("Variant")
    digest.update(f"\n{variant.value if variant else ''}".encode("utf-8", "surrogatepass"))
    return digest.digest()


# ------------------------------------------------------------------------------------------
# From the command line's texts

def _games_named(names: Iterable[str], option: str) -> frozenset[str]:
    ids: set[str] = set()
    for name in names:
        try:
            ids.add(get_game(name).id)
        except UnknownGameError as error:
            raise SelectionError(option, str(error.args[0])) from None
    return frozenset(ids)


def parse_selection(*, tags: Iterable[str] = (), any_tags: Iterable[str] = (),
                    date_from: str | None = None, date_to: str | None = None,
                    games: Iterable[str] = (), profiles: Iterable[str] = (),
                    options: Iterable[str] = (), valid: bool | None = None,
                    codes: Iterable[str] = (), ended: Iterable[str] = (),
                    plies: str | None = None, figures: Iterable[str] = (),
                    reaches: str | None = None, dedupe: str | None = None,
                    game_override: str | None = None,
                    rules_override: str | None = None,
                    match_seconds: float = DEFAULT_MATCH_SECONDS,
                    opening: str | None = None,
                    opening_files: tuple[str, ...] = ()) -> Selection:
    """A :class:`Selection` from the command line's texts, every one checked;
    ``match_seconds`` bounds each search of a tag's regular expression (see
    :class:`TagTest`).

    >>> selection = parse_selection(tags=["Result=1-0"], games=["elevation"])
    >>> selection.needs_replay
    False
    """
    tag_tests: list[TagTest | DateTest] = [parse_tag_test(text, time_limit=match_seconds)
                                           for text in tags]
    if date_from is not None:
        tag_tests.append(DateTest(">=", _date(date_from, "--date-from", last=False)))
    if date_to is not None:
        tag_tests.append(DateTest("<=", _date(date_to, "--date-to", last=True)))
    game_ids = _games_named(games, "--game")
    if game_override is not None:
        game_override = get_game(game_override).id
    candidates = [game for game in all_games()
                  if not game_ids or game.id in game_ids] if game_override is None else \
        [get_game(game_override)]
    profile_set = frozenset(profiles)
    known_profiles = {p for game in candidates for p in game.profiles}
    for profile in profile_set:
        if profile not in known_profiles:
            raise SelectionError("--profile", f"no game has a rules profile {profile!r} "
                                              f"(profiles: {', '.join(sorted(known_profiles))})")
    option_pairs = []
    for text in options:
        name, equals, value = text.partition("=")
        name, value = name.strip(), value.strip()
        owners = [game for game in candidates if name in game.option_table]
        if not equals or not owners:
            raise SelectionError("--option", f"{text!r} is not NAME=VALUE for a rules option "
                                             "of the games selected")
        canonical = None
        for game in owners:
            try:
                rules = game.parse_rules(f"{game.default_profile}; {name}={value}")
                canonical = rules.texts[name]
                break
            except EngineError as error:
                problem = error.message
        if canonical is None:
            raise SelectionError("--option", problem)
        option_pairs.append((name, canonical))
    known_codes = {code.code for code in SHARED_CODES} | {
        code.code for game in all_games() for code in game.codes}
    code_set = frozenset(code.strip().upper() for code in codes)
    for code in code_set:
        if code not in known_codes:
            raise SelectionError("--code", f"{code!r} is not a diagnostic code "
                                           "('notation-tools games --codes' lists them)")
    ended_set = frozenset(ended)
    plies_range = parse_plies(plies) if plies is not None else None
    figure_tests = tuple(parse_figure_test(text, candidates) for text in figures)
    targets = parse_position_targets(reaches, candidates) if reaches is not None else None
    if dedupe is not None and dedupe not in DEDUPE_MODES:
        raise SelectionError("--dedupe", f"{dedupe!r} is not one of {', '.join(DEDUPE_MODES)}")
    return Selection(tuple(tag_tests),
                     tuple(parse_tag_test(t, "--any-tag", time_limit=match_seconds)
                           for t in any_tags),
                     game_ids, profile_set, tuple(option_pairs), valid, code_set, ended_set,
                     plies_range, figure_tests, targets, dedupe, game_override, rules_override,
                     opening=OpeningTest.parse(opening, opening_files)
                     if opening is not None else None)


_DATE = re.compile(r"^(\d{4})(?:\.(\d{1,2})(?:\.(\d{1,2}))?)?$")
_TAG_DATE = re.compile(r"^\s*(\d{4}|\?{4})(?:\.(\d{2}|\?\?)(?:\.(\d{2}|\?\?))?)?\s*$")


def _date(text: str, option: str, *, last: bool) -> tuple[int, int, int]:
    """A date given as ``1998.01.31`` (or with ``-``/``/``); ``1998`` and ``1998.01`` mean
    their first day (``last``: their last)."""
    found = _DATE.match(text.strip().replace("-", ".").replace("/", "."))
    if found is None:
        raise SelectionError(option, f"{text!r} is not a date such as 1998.01.31")
    year, month, day = found.groups()
    month_number = int(month) if month else (12 if last else 1)
    day_number = int(day) if day else (31 if last else 1)
    if not (1 <= month_number <= 12 and 1 <= day_number <= 31):
        raise SelectionError(option, f"{text!r} is not a date such as 1998.01.31")
    return int(year), month_number, day_number


@dataclasses.dataclass(frozen=True)
class DateTest:
    """``--date-from``/``--date-to`` on the ``Date`` tag (``1998.??.??`` is the whole year:
    it is after a day when any of its days is). A record without a readable date fails."""

    op: str
    bound: tuple[int, int, int]

    def matches(self, record: Record) -> bool:
        tag = record.find_tag("Date")
        found = _TAG_DATE.match(tag.value) if tag is not None else None
        if found is None or found.group(1).startswith("?"):
            return False
        year, month, day = found.groups()
        known_month = month is not None and not month.startswith("?")
        known_day = known_month and day is not None and not day.startswith("?")
        first = (int(year), int(month) if known_month else 1, int(day) if known_day else 1)
        last = (int(year), int(month) if known_month else 12, int(day) if known_day else 31)
        return last >= self.bound if self.op == ">=" else first <= self.bound

    def __str__(self) -> str:
        return "Date{}{:04d}.{:02d}.{:02d}".format(self.op, *self.bound)


# ------------------------------------------------------------------------------------------
# Over many inputs


@dataclasses.dataclass
class Selected:
    """One record read, what the selection said of it, and its text as read when the
    container gave it whole (a PGN record: written back unchanged when nothing is changed)."""

    record: Record
    verdict: Verdict
    text: str | None = None
    read_whole: bool = True
    """Whether the reader read the record whole (no error of its own: a syntax error, a limit,
    a file format's fault), judged before the selection replayed it."""


def stands_alone(record: Record) -> bool:
    """Whether a PGN record's text as read reads back as this record wherever it is written:
    it names its game (a tag, not its look) and its movetext ends with a result token (so
    that the text written after it starts another record)."""
    return record.result is not None and (record.find_tag("Variant") is not None
                                          or record.find_tag("Game") is not None)


def _chunk_text(chunk: Any) -> str:
    _, tag_lines, movetext_lines = chunk
    parts = ["\n".join(line for _, line in tag_lines)] if tag_lines else []
    if movetext_lines:
        parts.append("\n".join(line for _, line in movetext_lines))
    return "\n\n".join(parts) + "\n"


def iter_selected(paths: list[str], selection: Selection, *, settings: Settings | None = None,
                  stdin: Any = None,
                  progress: ReadProgress | None = None) -> Iterator[Selected | Diagnostic]:
    """Every record of ``paths`` with the selection's verdict, in input order, and the
    diagnostics of inputs that could not be read."""
    settings = settings if settings is not None else Settings()
    for unit in units_of(paths, settings, stdin, progress):
        if isinstance(unit, PgnChunk):
            records = list(records_of_chunk(unit, settings.limits))
            # The text as read stands for the record only when it is the record's whole text
            # and was read as it is in the file (no bad bytes replaced, no line too long left
            # out: their records cannot be written as read).
            text = _chunk_text(unit.chunk) if len(records) == 1 and not unit.problems else None
            for record in records:
                yield _selected(record, selection, text)
        elif isinstance(unit, ForeignText):
            yield _selected(foreign_record(unit), selection)
        elif isinstance(unit, Record):
            yield _selected(unit, selection)
        else:
            yield unit


def _selected(record: Record, selection: Selection, text: str | None = None) -> Selected:
    whole = not any(d.is_error for d in record.diagnostics)
    return Selected(record, selection.judge(record), text, whole)


REPLAY_TAGS = ("Variant", "Game", "Rules", "SetUp", "FEN", "FirstPlayer")
"""Tags a record needs to be replayed: ``--keep-tags`` never drops them."""


def trim_tags(record: Record, keep: Iterable[str] | None, *, moves: bool = True) -> Record:
    """A copy of ``record`` with only the tags named in ``keep`` (and those it needs to be
    replayed, :data:`REPLAY_TAGS`), in their order; without its moves when ``moves`` is false
    (``--tags-only``)."""
    wanted = None if keep is None else {*keep, *REPLAY_TAGS}
    tags = Tags(tag for tag in record.tags.entries() if wanted is None or tag.name in wanted)
    return dataclasses.replace(record, tags=tags,
                               moves=record.moves if moves else [],
                               final_comments=record.final_comments if moves else [],
                               diagnostics=[])


def group_name(record: Record, split_by: str, number: int, game_id: str | None) -> str:
    """The file (without suffix) a record goes to with ``--split-by``: its game, its result
    (``1-0``, ``0-1``, ``draw``, ``unfinished``) or its block of N (``part-0001``);
    ``number`` counts the records written, from 0.

    >>> group_name(Record(result="1/2-1/2"), "result", 0, None)
    'draw'
    >>> group_name(Record(), "100", 250, None)
    'part-0003'
    """
    if split_by == "game":
        return game_id or "unknown-game"
    if split_by == "result":
        result = record.tag("Result") or record.result or "*"
        return {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "draw"}.get(result, "unfinished")
    return f"part-{number // int(split_by) + 1:04d}"
