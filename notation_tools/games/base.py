"""The contract every game implements, the engine exceptions, rule options and the registry.

A game package (``notation_tools.games.<game>``) exposes one immutable :class:`Game` object.
The toolkit reaches it only through this module: :func:`get_game` finds it by id or alias, and
:func:`all_games` lists the registered games. Games register through the entry-point group
``notation_tools.games``, so a third party can add one without touching this package.

What a game implements is short (the Development guide, ``docs/development.md``, walks
through it): a :class:`Position` subclass (``legal_moves``, ``push``, ``pop``, ``copy``,
``outcome``), a :class:`Game` subclass (identity, options, the position string, the move
notation, two drawings, a statistics collector), and tables of data. Everything else has a
default: a :class:`Dialect` for other programs' record quirks, ``codes`` for its diagnostics,
``file_formats`` for its own file formats.

This module does not read files, print, or know any game's rules.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from notation_tools.codes import Code

if TYPE_CHECKING:  # the type only: file formats are an extra, not part of this contract
    from notation_tools.games.file_formats import FileFormat

Side = int
"""Index into :attr:`Game.sides`: 0 is the side that moves first by default, 1 the other."""


# --------------------------------------------------------------------------------------------
# Exceptions raised by engines (G3). Only analysis/replay.py turns them into diagnostics.


class EngineError(ValueError):
    """A move, position or rule text that a game rejects.

    ``message`` is a sentence for a person; ``rule`` names the rules section broken
    (``"§4.3"``); ``code`` overrides the class's diagnostic code (``"E-CAPTURE-MARK"``);
    ``offset`` is the character offset inside the rejected text where the fault starts, so the
    diagnostic's column can point at it.
    """

    code: ClassVar[str] = "E-ILLEGAL-MOVE"

    def __init__(self, message: str, *, rule: str | None = None, code: str | None = None,
                 offset: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.offset = offset
        if code is not None:
            self.code = code  # type: ignore[misc]  # instance value shadows the class default


class MoveSyntaxError(EngineError):
    """The move text does not fit the game's move grammar."""

    code = "E-SYNTAX"


class IllegalMoveError(EngineError):
    """The move text is well formed but names no legal move."""

    code = "E-ILLEGAL-MOVE"


class AmbiguousMoveError(EngineError):
    """The move text fits more than one legal move."""

    code = "E-AMBIGUOUS"


class BadPositionError(EngineError):
    """A position string that does not parse or describes an impossible position."""

    code = "E-BAD-POSITION"


class BadRulesError(EngineError):
    """A ``Rules`` text naming an unknown profile or option, or a bad value."""

    code = "E-BAD-RULES"


class TagConflictError(EngineError):
    """Tags that contradict each other (e.g. ``FEN`` and ``FirstPlayer``)."""

    code = "E-TAG-CONFLICT"


# --------------------------------------------------------------------------------------------
# Outcome


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended, as the engine sees it.

    ``winner`` is a :data:`Side`, or ``None`` for a draw. ``reason`` is a stable kebab-case
    word (``"all-pieces-captured"``, ``"no-legal-turn"``, ``"repetition"``); ``detail`` is a
    sentence for people.
    """

    winner: Side | None
    reason: str
    detail: str = ""


# --------------------------------------------------------------------------------------------
# Rule options (G7): every point where sources disagree is a named option.


YES_NO = ("no", "yes")


@dataclasses.dataclass(frozen=True, slots=True)
class RuleOption:
    """One named rule option.

    ``values`` lists the allowed spellings, or is ``None`` when ``convert`` decides (integers,
    ``none``). ``convert`` maps the canonical text to the value engines read; it raises
    ``ValueError`` for a bad value. ``spec`` is the rules section that defines the option.
    """

    name: str
    default: str
    help: str
    spec: str
    values: tuple[str, ...] | None = YES_NO
    convert: Callable[[str], Any] | None = None

    @property
    def is_boolean(self) -> bool:
        return self.values == YES_NO

    @property
    def field_name(self) -> str:
        """The option's attribute in a game's ``Options`` dataclass (``max-height`` →
        ``max_height``)."""
        return self.name.replace("-", "_")

    def value_of(self, text: str) -> Any:
        """Return the engine value of ``text``; raise ``ValueError`` if it is not allowed."""
        if self.values is not None and text not in self.values:
            raise ValueError(f"option {self.name} takes {', '.join(self.values)}, not {text!r}")
        if self.convert is not None:
            return self.convert(text)
        if self.is_boolean:
            return text == "yes"
        return text


def int_option(low: int, high: int | None = None, *, allow_none: bool = False) -> Callable[[str], Any]:
    """A ``RuleOption.convert`` for integers in ``low..high`` (and ``none`` when allowed)."""

    def convert(text: str) -> int | None:
        if allow_none and text == "none":
            return None
        if not (text.isascii() and text.isdigit()) or (len(text) > 1 and text[0] == "0"):
            raise ValueError(f"expected a whole number{' or none' if allow_none else ''}, not {text!r}")
        value = int(text)
        if value < low or (high is not None and value > high):
            upper = f"..{high}" if high is not None else " or more"
            raise ValueError(f"expected {low}{upper}, not {value}")
        return value

    return convert


@dataclasses.dataclass(frozen=True, eq=False)
class Rules:
    """The effective rules of a record: a profile plus option values.

    Indexing gives the engine value (``rules["max-height"]`` → ``None`` or an int);
    :attr:`texts` keeps the canonical text of every option; :meth:`describe` gives the shortest
    ``Rules`` tag text that means the same rules. Engines read a game's typed ``Options``
    instead (:func:`options_of`).
    """

    game_id: str
    profile: str
    texts: Mapping[str, str]
    values: Mapping[str, Any]
    profile_texts: Mapping[str, str]

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Rules) and (self.game_id, self.profile, dict(self.texts))
                == (other.game_id, other.profile, dict(other.texts)))

    def __hash__(self) -> int:
        # Engines look their typed options up by rules for every position they build.
        return self._hash

    @functools.cached_property
    def _hash(self) -> int:
        return hash((self.game_id, self.profile, tuple(sorted(self.texts.items()))))

    def describe(self) -> str:
        """The canonical ``Rules`` text: the profile, then options that differ from it."""
        changed = [f"{name}={text}" for name, text in self.texts.items()
                   if self.profile_texts[name] != text]
        return "; ".join([self.profile, *changed])


OptionsT = TypeVar("OptionsT")


@functools.lru_cache(maxsize=256)
def options_of(options_class: type[OptionsT], rules: Rules) -> OptionsT:
    """The game's typed options for ``rules``: one frozen dataclass per game, whose fields are
    the option names with ``_`` for ``-``, holding the engine values. Cached per rules, so an
    engine may call it for every position it builds.

    A field with ``init=False`` is derived by the class itself (in ``__post_init__``).
    """
    wanted = {field.name for field in dataclasses.fields(options_class)  # type: ignore[arg-type]
              if field.init}
    values = {name.replace("-", "_"): value for name, value in rules.values.items()}
    return options_class(**{name: values[name] for name in wanted})


# --------------------------------------------------------------------------------------------
# Positions, moves, statistics

MoveT = TypeVar("MoveT")


class Position(ABC, Generic[MoveT]):
    """The base of every game's position class (G1): the state and every question about it.

    ``push`` trusts that the move came from ``legal_moves()`` or ``Game.parse_move``. A
    position also carries ``notes``: ``(code, message)`` pairs about how it was set up
    (``W-SETUP-INCOMPLETE``), which replay reports as warnings (``W-``) or notes (``I-``).
    """

    __slots__ = ()

    turn: Side
    notes: tuple[tuple[str, str], ...] = ()

    @abstractmethod
    def legal_moves(self, *, origin: Any = None, target: Any = None) -> Iterator[MoveT]:
        """The legal moves, optionally only those from ``origin`` or to ``target`` (squares
        in the game's own index). A filter leaves out the moves that name no such square (a
        placement has no origin, a pass or a swap no target); a filter a game cannot apply
        is ignored, giving every legal move."""

    @abstractmethod
    def push(self, move: MoveT) -> None:
        """Play ``move`` (which must be legal here)."""

    @abstractmethod
    def pop(self) -> MoveT:
        """Take back the last move pushed, and return it."""

    @abstractmethod
    def copy(self) -> Position[MoveT]:
        """An independent copy (history included, so ``pop`` works on it)."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    def outcome_unless_stuck(self) -> Outcome | None:
        """:meth:`outcome`, judged as if the side to move had a legal move: it must equal
        ``outcome()`` whenever one exists. The replay asks this before each recorded move and
        asks ``outcome()`` only when the move does not resolve (a resolved move proves that
        there is one), so a game whose "no legal move" ending costs a move search overrides
        it to skip that search. Default: ``outcome()``."""
        return self.outcome()

    def is_over(self) -> bool:
        """Whether the game has ended (``outcome()`` is not ``None``)."""
        return self.outcome() is not None

    # ---- the same spelling for every game (the Python API); each asks the position's game

    @property
    def game(self) -> Game[Any, Any]:
        """The registered :class:`Game` this position belongs to."""
        return game_of_position(type(self))

    def fen(self) -> str:
        """The game's position string of this position (:meth:`Game.format_position`)."""
        return self.game.format_position(self)

    def push_text(self, text: str, *, notation: str | None = None) -> MoveT:
        """Play the move that ``text`` names (any notation of the game unless ``notation``
        narrows it) and return it; raises :class:`MoveSyntaxError`,
        :class:`IllegalMoveError` or :class:`AmbiguousMoveError`, leaving the position as
        it was."""
        move: MoveT = self.game.parse_move(text, self, notation)
        self.push(move)
        return move

    def text(self, move: MoveT, *, notation: str | None = None) -> str:
        """The text of ``move`` (legal here) in ``notation`` (default: the game's first)."""
        text: str = self.game.format_move(move, self, notation)
        return text

    def svg(self, *, last_move: MoveT | None = None, **marks: bool) -> str:
        """An SVG picture of this position (:meth:`Game.render_svg`)."""
        picture: str = self.game.render_svg(self, last_move=last_move, **marks)
        return picture

    def _repr_svg_(self) -> str:
        # Jupyter shows a position as its picture.
        return self.svg()

    def unordered_moves(self) -> Iterator[MoveT]:
        """The legal moves in any order; perft uses it where it is cheaper than
        ``legal_moves()``."""
        return self.legal_moves()

    def count_legal_moves(self) -> int:
        """How many legal moves there are; perft's last ply counts with it, so a game may
        count without building moves."""
        return sum(1 for _ in self.unordered_moves())


PositionT = TypeVar("PositionT", bound=Position[Any])


class FigureKind(enum.Enum):
    """What a numeric figure of one record is, which says how a report summarizes it over
    many records (a sum of maxima or of first-capture plies means nothing)."""

    COUNT = "count"
    """How many times something happened, or how much of something there is at the end:
    summarized by its mean over the records where it applies."""
    MAX = "max"
    """The largest value of something in the record: summarized by the maximum."""
    MIN = "min"
    """The smallest value of something in the record: summarized by the minimum."""
    PLY = "ply"
    """The ply (or turn) at which something happened, absent when it never did: summarized by
    its mean over the records where it happened."""
    RATIO = "ratio"
    """A rate or mean within the record: summarized by its mean over the records where it
    applies."""


@dataclasses.dataclass(frozen=True, slots=True)
class Figure:
    """How to read one numeric figure of :meth:`StatsCollector.summary`: its kind, what it
    means, and whether it is one of the game's few ``key`` figures (the short report)."""

    kind: FigureKind
    about: str
    key: bool = False


class StatsCollector(ABC, Generic[PositionT, MoveT]):
    """Gathers a game's own figures while a record is replayed.

    Replay calls ``before_move(position, move)`` and ``after_move(position)`` around every
    main-line push, with the live position, then ``summary`` once.

    Each game declares its numeric figures in ``FIGURES`` at the end of its ``stats.py``
    (name → :class:`Figure`), handed to reports as :attr:`Game.figures`; a figure not
    declared there is read as a :attr:`FigureKind.COUNT`.
    """

    @abstractmethod
    def before_move(self, position: PositionT, move: MoveT) -> None:
        """Note ``move``, about to be played from ``position`` (not yet changed)."""

    @abstractmethod
    def after_move(self, position: PositionT) -> None:
        """Note the position after the move given to the last ``before_move``."""

    @abstractmethod
    def summary(self, final: PositionT, outcome: Outcome | None) -> dict[str, Any]:
        """Flat figures for tables: str keys, scalar values (int, float, str, None).

        Must contain ``captures`` (int), the one figure every game shares.
        """


@dataclasses.dataclass(frozen=True, slots=True)
class Resolution(Generic[MoveT]):
    """What a move text means in a position: the move, warnings ``(code, message, rule)``
    about how it was written, and ``alternatives``: other moves the text may equally mean,
    which only later moves can tell apart (the replay keeps the reading under which the rest
    of the record plays best, and reports :attr:`Dialect.fork_warning` when several do).
    ``warnings`` belong to the reading ``move``; ``alternative_warnings[i]`` to
    ``alternatives[i]``: the replay reports only those of the reading it keeps."""

    move: MoveT
    warnings: Sequence[tuple[str, str, str | None]] = ()
    alternatives: Sequence[MoveT] = ()
    alternative_warnings: Sequence[Sequence[tuple[str, str, str | None]]] = ()


class Dialect:
    """How other programs write a game's records, beyond the PGN container: read only by the
    replay driver. The defaults describe a game no other program writes."""

    suffixes: tuple[str, ...] = ()
    """File name endings (besides ``.pgn``/``.json``) a directory walk reads as records."""
    ignored_words: frozenset[str] = frozenset()
    """Words some writers put between moves that carry no move; skipped with W-IGNORED-WORD."""
    placeholder: str | None = None
    """A token some writers put in the first player's slot when the other side starts."""
    move_number_code: tuple[str, str] = ("E-NUMBER", "error")
    """The code and severity of a move number out of sequence (some rules make it a warning)."""
    fork_warning: str = "W-AMBIGUOUS"
    """The warning code when a text's alternative readings all play to the end."""

    def sniff(self, move_texts: Sequence[str]) -> bool:
        """Whether untagged movetext (its first tokens) looks like this game's."""
        return False

    def preamble_length(self, move_texts: Sequence[str]) -> int:
        """How many leading words of untagged movetext are another program's title lines."""
        return 0

    def first_move_number(self, position: Position[Any]) -> int:
        """The move number of the first move played from ``position`` (a set-up may say)."""
        return 1


_PositionIn = TypeVar("_PositionIn", bound=Position[Any], contravariant=True)
_MoveOut = TypeVar("_MoveOut", covariant=True)


class Sampler(Protocol[_PositionIn, _MoveOut]):
    """A game's own way of drawing a random legal move, for games whose full move list is too
    large to build or whose uniform choice makes no useful games (``generate``)."""

    def sample(self, position: _PositionIn, rng: random.Random) -> _MoveOut | None:
        """A random legal move of ``position``, or ``None`` when there is none."""


class Style(enum.Enum):
    """The characters of a text diagram."""

    ASCII = "ascii"
    UNICODE = "unicode"


class Game(ABC, Generic[PositionT, MoveT]):
    """A game: identity, rule options, notations, and the engine entry points.

    Subclasses set the class attributes and implement the abstract methods. Instances are
    immutable and shared.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    sides: ClassVar[tuple[str, str]]
    results: ClassVar[tuple[str, str]] = ("1-0", "0-1")
    """``results[side]`` is the result text when ``side`` wins."""
    notations: ClassVar[tuple[str, ...]]
    """Move notations for ``convert --to``; the first is the default."""
    options: ClassVar[tuple[RuleOption, ...]] = ()
    options_type: ClassVar[type[Any] | None] = None
    """The game's ``Options`` dataclass, which the engine reads through :func:`options_of`:
    one field per option (``check_tables`` checks that they match)."""
    profiles: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    """Profile name → option texts that differ from the option defaults."""
    default_profile: ClassVar[str]
    rules_doc: ClassVar[str] = ""
    """The game's rules reference in the documentation (``docs/rules/<game>.md``): every
    section a diagnostic or option cites is a heading there."""
    codes: ClassVar[tuple[Code, ...]] = ()
    """The game's own diagnostic codes (the shared ones are :data:`notation_tools.codes.SHARED_CODES`)."""
    draws_possible: ClassVar[bool] = True
    """Whether a draw can happen at all; when not, a ``1/2-1/2`` result is a mismatch."""
    dialect: ClassVar[Dialect] = Dialect()
    """How other programs write this game's records (read by the replay driver only)."""
    file_formats: ClassVar[tuple[FileFormat, ...]] = ()
    """The game's own file formats (read when sniffed, written by ``convert --to NAME``)."""
    sampler: ClassVar[Sampler[Any, Any] | None] = None
    """The game's own random-move policy, when a uniform choice over ``legal_moves()`` will
    not do (``analysis.generate.random_move`` uses it)."""
    figures: ClassVar[Mapping[str, Figure]] = {}
    """How each numeric figure of the game's statistics is summarized over records (the
    ``FIGURES`` of its ``stats.py``)."""
    render_options: ClassVar[Mapping[str, str]] = {}
    """Extra marks the two drawings offer (name → help), e.g. ``loops``: the CLI offers each as
    a ``show`` flag (``--loops``)."""

    # ---- rules ---------------------------------------------------------------------------

    @functools.cached_property
    def option_table(self) -> dict[str, RuleOption]:
        return {option.name: option for option in self.options}

    def parse_rules(self, text: str | None) -> Rules:
        """Parse a ``Rules`` tag text: ``"profile; name=value; bare-boolean"``.

        The profile may be left out (the default profile is used). Raises
        :class:`BadRulesError` naming the unknown profile, option or value.
        """
        parts = [part.strip() for part in (text or "").split(";")]
        parts = [part for part in parts if part]
        profile = self.default_profile
        if parts and "=" not in parts[0] and parts[0] in self.profiles:
            profile = parts.pop(0)
        elif parts and "=" not in parts[0] and parts[0] not in self.option_table:
            known = ", ".join(self.profiles)
            raise BadRulesError(f"unknown rule profile {parts[0]!r} (profiles: {known})")
        profile_texts = {option.name: option.default for option in self.options}
        profile_texts.update(self.profiles[profile])
        texts = dict(profile_texts)
        for part in parts:
            name, sep, value = (piece.strip() for piece in part.partition("="))
            option = self.option_table.get(name)
            if option is None:
                raise BadRulesError(f"unknown rule option {name!r} for {self.id}")
            if not sep:
                if not option.is_boolean:
                    raise BadRulesError(f"option {name} needs a value ({name}=...)")
                value = "yes"
            texts[name] = value
        values = {}
        for name, value in texts.items():
            try:
                values[name] = self.option_table[name].value_of(value)
            except ValueError as error:
                raise BadRulesError(f"option {name}: {error}") from None
        rules = Rules(self.id, profile, texts, values, profile_texts)
        self.check_rules(rules)
        return rules

    def check_rules(self, rules: Rules) -> None:
        """Reject inconsistent option combinations with :class:`BadRulesError`."""

    # ---- positions -----------------------------------------------------------------------

    def rules_of(self, rules: Rules | str | None = None) -> Rules:
        """``rules`` as this game's :class:`Rules`: a ``Rules`` tag text, or ``None`` for the
        default profile; raises :class:`BadRulesError`."""
        return rules if isinstance(rules, Rules) else self.parse_rules(rules)

    def start(self, rules: Rules | str | None = None) -> PositionT:
        """The standard start position under ``rules`` (see :meth:`rules_of`)."""
        return self.start_position(self.rules_of(rules))

    def position(self, fen: str, rules: Rules | str | None = None) -> PositionT:
        """The position that ``fen`` (the game's position string) describes; raises
        :class:`BadPositionError`."""
        return self.parse_position(fen, self.rules_of(rules))

    @abstractmethod
    def start_position(self, rules: Rules, *, fen: str | None = None,
                       first_player: Side | None = None) -> PositionT:
        """The position a record starts from.

        ``fen`` is the record's position string (``SetUp``/``FEN`` tags), ``first_player`` the
        ``FirstPlayer`` tag. Raises :class:`BadPositionError` or :class:`TagConflictError`.
        """

    @abstractmethod
    def parse_position(self, text: str, rules: Rules) -> PositionT:
        """Parse the game's position string; raises :class:`BadPositionError`."""

    @abstractmethod
    def format_position(self, position: PositionT) -> str:
        """The canonical position string: ``format_position(parse_position(s)) == s``."""

    def parse_side(self, text: str) -> Side:
        """A side from a ``FirstPlayer`` tag value (case-insensitive name or initial)."""
        wanted = text.strip().lower()
        for index, name in enumerate(self.sides):
            if wanted in (name.lower(), name[0].lower()):
                return index
        raise TagConflictError(f"unknown side {text!r} (sides: {', '.join(self.sides)})",
                               code="E-BAD-TAG")

    # ---- moves ---------------------------------------------------------------------------

    @abstractmethod
    def parse_move(self, text: str, position: PositionT, notation: str | None = None) -> MoveT:
        """The legal move that ``text`` names in ``position``.

        Accepts every notation of the game unless ``notation`` narrows it. Raises
        :class:`MoveSyntaxError`, :class:`IllegalMoveError` or :class:`AmbiguousMoveError`
        (or a subclass carrying a game's own code). Does not change ``position``.
        """

    @abstractmethod
    def format_move(self, move: MoveT, position: PositionT, notation: str | None = None) -> str:
        """The text of ``move`` (legal in ``position``) in ``notation`` (default: the first)."""

    def resolve_move(self, text: str, position: PositionT,
                     notation: str | None = None) -> Resolution[MoveT]:
        """Like :meth:`parse_move`, with the warnings and alternative readings of the text."""
        return Resolution(self.parse_move(text, position, notation))

    def annotate_move(self, move: MoveT, position: PositionT) -> MoveT:
        """``move`` with the claims its notation may carry filled in from the rules (e.g. an
        attack's outcome mark); ``convert --annotate-outcomes`` writes these. Default: as is."""
        return move

    def format_warnings(self, move: MoveT, position: PositionT,
                        notation: str | None = None) -> Sequence[tuple[str, str]]:
        """Warnings ``(code, message)`` about writing ``move`` in ``notation`` (``convert``)."""
        return ()

    def move_to_json(self, move: MoveT, position: PositionT) -> Any:
        """The move as JSON data; by default its text in the default notation."""
        return self.format_move(move, position)

    def move_from_json(self, data: Any, position: PositionT) -> MoveT:
        """Inverse of :meth:`move_to_json`; raises the same errors as :meth:`parse_move`."""
        if not isinstance(data, str):
            raise MoveSyntaxError(f"a {self.name} move in JSON is a string, not {type(data).__name__}")
        return self.parse_move(data, position)

    @property
    def has_json_moves(self) -> bool:
        """Whether the game writes moves in JSON as structured data, not only as text."""
        return type(self).move_to_json is not Game.move_to_json

    def describe_move(self, move: MoveT, position: PositionT) -> dict[str, Any]:
        """Extra facts about a legal move for ``moves`` listings (e.g. combat sums)."""
        return {}

    def result_text(self, outcome: Outcome) -> str:
        """The ``Result`` text of an outcome: ``results[winner]``, or ``1/2-1/2``."""
        return "1/2-1/2" if outcome.winner is None else self.results[outcome.winner]

    # ---- output --------------------------------------------------------------------------

    def render_text(self, position: PositionT, *, style: Style = Style.ASCII,
                    **marks: bool) -> str:
        """A text diagram of ``position``, ending with a status line (G9).

        ``marks`` are the game's :attr:`render_options` (``-`` written ``_``); an unknown one
        raises ``TypeError``, as an unknown keyword does.
        """
        return self.draw_text(position, Style(style), self._marks(marks))

    def render_svg(self, position: PositionT, *, last_move: MoveT | None = None,
                   **marks: bool) -> str:
        """An SVG picture of ``position`` with the text diagram in ``<desc>``; ``last_move``
        (played to reach it) is marked. ``marks`` as for :meth:`render_text`."""
        return self.draw_svg(position, last_move, self._marks(marks))

    def _marks(self, marks: Mapping[str, bool]) -> frozenset[str]:
        chosen = {name.replace("_", "-") for name, wanted in marks.items() if wanted}
        unknown = {name.replace("_", "-") for name in marks} - set(self.render_options)
        if unknown:
            raise TypeError(f"{self.id} has no render option(s) {', '.join(sorted(unknown))}")
        return frozenset(chosen)

    @abstractmethod
    def draw_text(self, position: PositionT, style: Style, marks: frozenset[str]) -> str:
        """The text diagram (``render_text`` has checked ``marks``, a subset of
        :attr:`render_options`)."""

    @abstractmethod
    def draw_svg(self, position: PositionT, last_move: MoveT | None,
                 marks: frozenset[str]) -> str:
        """The SVG picture (``render_svg`` has checked ``marks``)."""

    @abstractmethod
    def new_stats(self, rules: Rules) -> StatsCollector[PositionT, MoveT]:
        """A fresh statistics collector for one record."""

    # ---- data checks ---------------------------------------------------------------------

    def check_tables(self) -> list[str]:
        """Problems found in the game's tables, each naming the row (G7): the rule options and
        profiles, the diagnostic codes, then the game's own data (:meth:`check_data`)."""
        problems = []
        names = [option.name for option in self.options]
        for name in sorted({name for name in names if names.count(name) > 1}):
            problems.append(f"rule option {name} is defined twice")
        for option in self.options:
            if not option.spec:
                problems.append(f"rule option {option.name}: no rules section")
            try:
                option.value_of(option.default)
            except ValueError as error:
                problems.append(f"rule option {option.name}: bad default ({error})")
        if self.default_profile not in self.profiles:
            problems.append(f"default profile {self.default_profile} is not a profile")
        for profile, changes in self.profiles.items():
            for name, value in changes.items():
                changed = self.option_table.get(name)
                if changed is None:
                    problems.append(f"profile {profile}: unknown option {name}")
                    continue
                try:
                    changed.value_of(value)
                except ValueError:
                    problems.append(f"profile {profile}: option {name} has no value {value!r}")
        if self.options_type is not None:
            fields = {field.name for field in dataclasses.fields(self.options_type) if field.init}
            wanted = {option.field_name for option in self.options}
            problems += [f"rule option {name}: no field in {self.options_type.__name__}"
                         for name in sorted(wanted - fields)]
            problems += [f"{self.options_type.__name__}.{name}: no rule option"
                         for name in sorted(fields - wanted)]
        codes = [code.code for code in self.codes]
        for code in sorted({code for code in codes if codes.count(code) > 1}):
            problems.append(f"diagnostic code {code} is declared twice")
        return problems + self.check_data()

    def check_data(self) -> list[str]:
        """Problems in the game's own data tables (pieces, geometry), each naming the row."""
        return []


# --------------------------------------------------------------------------------------------
# Registry


ENTRY_POINT_GROUP = "notation_tools.games"
# The built-in games, so a source checkout without installed metadata still finds them.
_BUILTIN = {
    "elevation": "notation_tools.games.elevation:GAME",
    "gow": "notation_tools.games.gow:GAME",
    "maka": "notation_tools.games.maka:GAME",
    "shih": "notation_tools.games.shih:GAME",
    "shuriken": "notation_tools.games.shuriken:GAME",
}
_BUILTIN_IDS = {"elevation": "elevation", "game-of-war": "gow", "maka-dai-dai-shogi": "maka",
                "shih": "shih", "shuriken-2d": "shuriken"}
"""A built-in game's id (what a record's Variant tag says) → its entry in ``_BUILTIN``, so
that naming a game imports only that game."""


def _load(reference: str) -> Game[Any, Any]:
    module_name, _, attribute = reference.partition(":")
    module = __import__(module_name, fromlist=[attribute])
    game: Game[Any, Any] = getattr(module, attribute)
    return game


@functools.cache
def all_games() -> tuple[Game[Any, Any], ...]:
    """Every registered game, built-ins first, each once."""
    # Imported here: a record that names its game never asks for every game, and this
    # import costs more than a small file's whole replay.
    from importlib import metadata

    references = dict(_BUILTIN)
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        references.setdefault(entry.name, entry.value)
    games: dict[str, Game[Any, Any]] = {}
    for reference in references.values():
        game = _load(reference)
        games.setdefault(game.id, game)
    return tuple(games.values())


@functools.cache
def game_of_position(position_type: type[Position[Any]]) -> Game[Any, Any]:
    """The registered game whose package defines ``position_type`` (or a base class of it):
    every game package holds its ``rules.py`` and ``game.py`` side by side."""
    packages = {type(game).__module__.rpartition(".")[0]: game for game in all_games()}
    for cls in position_type.__mro__:
        game = packages.get(cls.__module__.rpartition(".")[0])
        if game is not None:
            return game
    raise UnknownGameError(f"no registered game has the position class {position_type.__name__}")


class UnknownGameError(LookupError):
    """No registered game has that id or alias."""


def get_game(name: str) -> Game[Any, Any]:
    """The game whose id or alias is ``name`` (case-insensitive).

    >>> get_game("Elevation").id
    'elevation'
    """
    wanted = name.strip().lower()
    if wanted in _BUILTIN_IDS:
        # A built-in id names its game whatever is installed (built-ins come first, and no
        # game's alias is another's id), so only that game's package is imported; the id
        # is checked against the game itself.
        game = _load(_BUILTIN[_BUILTIN_IDS[wanted]])
        if game.id == wanted:
            return game
    for game in all_games():
        if wanted == game.id or wanted in game.aliases:
            return game
    known = ", ".join(game.id for game in all_games())
    raise UnknownGameError(f"unknown game {name!r} (known: {known})")
