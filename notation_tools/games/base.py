"""The contract every game implements, the engine exceptions, rule options and the registry.

A game package (``notation_tools.games.<game>``) exposes one immutable :class:`Game` object,
built in its ``game.py`` from identity data and the package's own modules (``notation``,
``position``, ``render``, ``stats``: each checked by a protocol below), not wrapped method by
method. The toolkit reaches it only through this module: :func:`get_game` finds it by id or
alias (``notation_tools.games.get_game`` is the same, typed per game), and :func:`all_games`
lists the registered games. Games register through the entry-point group
``notation_tools.games``, so a third party can add one without touching this package.

What a game implements is short (the Development guide, ``docs/development.md``, walks
through it): a :class:`Position` subclass (``generate_legal_moves``, ``push``, ``pop``,
``copy``, ``outcome``), its four modules, and tables of data. Everything else has a default:
a :class:`Dialect` for other programs' record quirks, ``codes`` for its diagnostics,
``file_formats`` for its own file formats, hooks such as ``annotator`` and ``json_moves``.

This module does not read files, print, or know any game's rules.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar, cast

from notation_tools.codes import Code

if TYPE_CHECKING:  # the type only: file formats are an extra, not part of this contract
    from notation_tools.games.file_formats import FileFormat

Side = int
"""Index into ``Game.sides``: 0 is the side that moves first by default, 1 the other."""


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

    A position knows its game: :attr:`game` is set on the class when the game object is built
    (:class:`Game` ``position_type``), so the python-chess-style methods below (``fen``,
    ``push_text``, ``text``, ``svg``, ``str``, ``repr``) need no lookup. A position also
    carries ``notes``: ``(code, message)`` pairs about how it was set up
    (``W-SETUP-INCOMPLETE``), which replay reports as warnings (``W-``) or notes (``I-``).
    """

    __slots__ = ()

    turn: Side
    notes: tuple[tuple[str, str], ...] = ()
    # The class attribute cannot name the position type itself (a ClassVar holds no type
    # variable), so the game is typed for any position and move.
    game: ClassVar[Game[Any, Any]]
    """The :class:`Game` this position belongs to (set when the game object is built)."""

    @abstractmethod
    def generate_legal_moves(self, *, origin: Any = None, target: Any = None) -> Iterator[MoveT]:
        """The legal moves one by one, optionally only those from ``origin`` or to ``target``
        (squares in the game's own index). A filter leaves out the moves that name no such
        square (a placement has no origin, a pass or a swap no target); a filter a game cannot
        apply is ignored, giving every legal move. Hot paths (replay, perft, generation,
        notation) call this generator; :meth:`legal_moves` is the view for people."""

    def legal_moves(self, *, origin: Any = None, target: Any = None) -> LegalMoves[MoveT]:
        """The legal moves as a view, like python-chess's ``board.legal_moves``: iterate it,
        take its ``len``, test ``move in`` it or its truth. It reads the position each time it
        is asked, so it follows later pushes. Filters as for :meth:`generate_legal_moves`."""
        return LegalMoves(self, origin, target)

    @abstractmethod
    def push(self, move: MoveT) -> None:
        """Play ``move``. It does not check that the move is legal: it trusts that ``move``
        came from :meth:`generate_legal_moves` or the game's notation (``Game.parse_move``);
        :meth:`push_legal` and :meth:`push_text` check."""

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

    def is_legal(self, move: object) -> bool:
        """Whether ``move`` is legal here. Default: it is among :meth:`generate_legal_moves`;
        a game whose moves are not all listed there (Game of War lists a turn's actions, not
        its whole turns) overrides it."""
        return any(move == legal for legal in self.generate_legal_moves())

    def push_legal(self, move: MoveT) -> None:
        """Play ``move`` after checking that it is legal (:meth:`is_legal`); raises
        :class:`IllegalMoveError` (leaving the position as it was) when it is not."""
        if not self.is_legal(move):
            raise IllegalMoveError(f"{move!r} is not a legal move here")
        self.push(move)

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
        return self.game.format_move(move, self, notation)

    def svg(self, *, last_move: MoveT | None = None, **marks: bool) -> str:
        """An SVG picture of this position (:meth:`Game.render_svg`)."""
        return self.game.render_svg(self, last_move=last_move, **marks)

    def __str__(self) -> str:
        # print(position) shows the board, as python-chess's print(board) does.
        return self.game.render_text(self)

    def __repr__(self) -> str:
        # The game's package name and the position string: maka.Position('... b 1').
        module = type(self).__module__
        package = module.rpartition(".")[0].rpartition(".")[2] or module
        return f"{package}.{type(self).__name__}({self.fen()!r})"

    def _repr_svg_(self) -> str:
        # Jupyter shows a position as its picture.
        return self.svg()

    def unordered_moves(self) -> Iterator[MoveT]:
        """The legal moves in any order; perft uses it where it is cheaper than
        ``generate_legal_moves()``."""
        return self.generate_legal_moves()

    def count_legal_moves(self) -> int:
        """How many legal moves there are, without keeping them (``len(legal_moves())``
        asks this); perft's last ply counts with it, so a game may count without building
        moves."""
        return sum(1 for _ in self.unordered_moves())


class LegalMoves(Generic[MoveT]):
    """The legal moves of a position as a sized, iterable, ``in``-testable view (what
    :meth:`Position.legal_moves` returns, after python-chess's ``LegalMoveGenerator``).

    Each question is asked of the position when it is put: ``len`` counts
    (:meth:`Position.count_legal_moves` when unfiltered), ``bool`` looks for a first move,
    ``in`` looks through the moves."""

    __slots__ = ("_position", "_origin", "_target")

    def __init__(self, position: Position[MoveT], origin: Any = None, target: Any = None) -> None:
        self._position = position
        self._origin = origin
        self._target = target

    def __iter__(self) -> Iterator[MoveT]:
        return self._position.generate_legal_moves(origin=self._origin, target=self._target)

    def __len__(self) -> int:
        if self._origin is None and self._target is None:
            return self._position.count_legal_moves()
        return sum(1 for _ in self)

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def __contains__(self, move: object) -> bool:
        if self._origin is None and self._target is None:
            return self._position.is_legal(move)
        return any(move == legal for legal in self)

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(self._position.text(move) for move in self)})>"


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


# Not frozen: one is made for every move text read (parse_move too), and a frozen
# dataclass's __init__ costs about twice a plain one's. Treat it as read-only.
@dataclasses.dataclass(slots=True)
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


_Pos = TypeVar("_Pos", bound=Position[Any])
_PosIn = TypeVar("_PosIn", bound=Position[Any], contravariant=True)
_Mv = TypeVar("_Mv")
_MvIn = TypeVar("_MvIn", contravariant=True)


class NotationModule(Protocol[_PosIn, _Mv]):
    """What a game's ``notation.py`` offers: its notations, its dialect, and the one place
    that turns a move text into a move (and back)."""

    @property
    def NOTATIONS(self) -> tuple[str, ...]:  # noqa: N802  (a module constant)
        """Move notations for ``convert --to``; the first is the default."""

    @property
    def DIALECT(self) -> Dialect:  # noqa: N802  (a module constant)
        """How other programs write the game's records (read by the replay driver only)."""

    def resolve_move(self, text: str, position: _PosIn,
                     notation: str | None = None) -> Resolution[_Mv]:
        """The legal move ``text`` names in ``position``, with its warnings and alternative
        readings. Accepts every notation of the game unless ``notation`` narrows it; raises
        :class:`MoveSyntaxError`, :class:`IllegalMoveError` or :class:`AmbiguousMoveError`
        (or a subclass carrying a game's own code). Does not change ``position``."""

    def format_move(self, move: _Mv, position: _PosIn, notation: str | None = None) -> str:
        """The text of ``move`` (legal in ``position``) in ``notation`` (default: the first)."""


class PositionModule(Protocol[_Pos]):
    """What a game's ``position.py`` offers: the start position and the position string."""

    def start_position(self, rules: Rules, *, fen: str | None = None,
                       first_player: Side | None = None) -> _Pos:
        """The position a record starts from: ``fen`` is the record's position string
        (``SetUp``/``FEN`` tags), ``first_player`` the ``FirstPlayer`` tag. Raises
        :class:`BadPositionError` or :class:`TagConflictError`."""

    def parse_position(self, text: str, rules: Rules) -> _Pos:
        """Parse the game's position string; raises :class:`BadPositionError`."""

    def format_position(self, position: _Pos) -> str:
        """The canonical position string: ``format_position(parse_position(s)) == s``."""


class RenderModule(Protocol[_PosIn, _MvIn]):
    """What a game's ``render.py`` offers: a text diagram and an SVG picture (G9)."""

    def text_diagram(self, position: _PosIn, *, style: Style = ...,
                     marks: frozenset[str] = ...) -> str:
        """The text diagram, ending with a status line; ``marks`` is a checked subset of
        :attr:`Game.render_options`."""

    def svg(self, position: _PosIn, *, last_move: _MvIn | None = ...,
            marks: frozenset[str] = ...) -> str:
        """An SVG picture with the text diagram in ``<desc>``; ``last_move`` is marked."""


class LegendRender(Protocol[_PosIn]):
    """What a game's ``render.py`` may offer besides :class:`RenderModule`: a standalone key
    of its drawing (:meth:`Game.legend_svg` asks for it when the module has one)."""

    def legend_svg(self, position: _PosIn) -> str:
        """An SVG key of the pieces, marks and colours the drawing of ``position`` uses;
        ``''`` when there is nothing to explain."""


class ManyMarksRender(Protocol[_PosIn, _MvIn]):
    """What a game's ``render.py`` may offer besides :class:`RenderModule`: the pictures of
    one position under several sets of marks at once, sharing what they have in common (the
    text diagram, the caption), each equal to what ``svg`` draws with those marks
    (:meth:`Game.render_svgs` asks for it when the module has one)."""

    def svgs(self, position: _PosIn, *, last_move: _MvIn | None = ...,
             mark_sets: Sequence[frozenset[str]] = ...) -> list[str]:
        """``[svg(position, last_move=last_move, marks=marks) for marks in mark_sets]``."""


class RunsRender(Protocol[_PosIn, _MvIn]):
    """What a game's ``render.py`` may offer besides :class:`ManyMarksRender`: its pictures
    as runs of whole lines, not joined (:meth:`Game.render_svg_runs` asks for it when the
    module has one)."""

    def svg_runs(self, position: _PosIn, *, last_move: _MvIn | None = ...,
                 mark_sets: Sequence[frozenset[str]] = ...) -> list[tuple[str, ...]]:
        """``svgs(...)``, each picture as runs whose concatenation is the picture."""


class StatsModule(Protocol[_Pos, _Mv]):
    """What a game's ``stats.py`` offers: the collector, its figures, per-move facts."""

    @property
    def FIGURES(self) -> Mapping[str, Figure]:  # noqa: N802  (a module constant)
        """How each numeric figure is summarized over records."""

    def Stats(self, rules: Rules) -> StatsCollector[_Pos, _Mv]:  # noqa: N802  (the class)
        """A fresh statistics collector for one record."""

    def describe_move(self, move: _Mv, position: _Pos) -> dict[str, Any]:
        """Extra facts about a legal move for ``moves`` listings (e.g. combat sums)."""


class JsonMoves(Protocol[_PosIn, _Mv]):
    """A game that writes moves in JSON as structured data (its ``notation.py``)."""

    # JSON data is any value json.loads gives.
    def move_to_json(self, move: _Mv, position: _PosIn) -> Any:
        """The move as JSON data."""

    def move_from_json(self, data: Any, position: _PosIn) -> _Mv:
        """Inverse of :meth:`move_to_json`; raises the errors of ``resolve_move``."""


# ---- position keys (docs/database.md, "The position index") -----------------------------

_MASK64 = (1 << 64) - 1


def mix64(value: int) -> int:
    """SplitMix64's finalizer: a fixed, well-spread 64-bit function of ``value`` (the same in
    every process and Python version, unlike ``hash``)."""
    value = (value + 0x9E3779B97F4A7C15) & _MASK64
    value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & _MASK64
    return value ^ (value >> 31)


def hash_text(text: str) -> int:
    """A fixed 64-bit number of a short text (a seed from a game's name)."""
    value = 0
    for byte in text.encode():
        value = mix64(value ^ byte)
    return value


def signed64(key: int) -> int:
    """An unsigned 64-bit key as the signed integer SQLite stores in an INTEGER column."""
    return key - (1 << 64) if key >= 1 << 63 else key


class KeyTracker(Protocol[_PosIn]):
    """Follows one line of play: ``key`` is the key of the position last seen;
    ``before(position)`` is called before a move is pushed, ``after(position)`` after it and
    returns the new key, worked out from the old one and what the move changed.
    ``step(position)`` is ``after(position)`` then ``before(position)`` in one (the line goes
    on from it: what a replay does, once per ply); ``step(position, move)`` is the same, told
    the move pushed since (a hint: a tracker may look first at the cells that move names,
    and must give the same key and ``material_same`` with or without it)."""

    key: int
    material_same: bool
    """After ``after`` or ``step``: True when the move followed certainly left the material
    (:attr:`Game.material`) as it was; False when it may have changed (or is not known).
    The position index then counts the material again only when it may have changed."""

    def before(self, position: _PosIn) -> None: ...

    def after(self, position: _PosIn) -> int: ...

    def step(self, position: _PosIn, move: Any = None) -> int: ...


class PositionKeys(Protocol[_PosIn]):
    """A game's 64-bit position keys (unsigned): ``key`` computes one from scratch,
    ``tracker`` starts an incremental one at ``position``. Two positions the game's rules
    reference calls the same have the same key.

    A game whose engine keeps the key of every position it pushed a move from may also
    offer ``history(position, plies)``: the keys of the last ``plies`` moves' positions and
    of ``position`` (``plies + 1``, the first first), and ``(ply, material)`` at the first
    of them and wherever a move may have changed the material (:attr:`Game.material`), in
    order. The position index then reads a main line once at its end instead of following
    it move by move (Maka-Dai-Dai's engine keeps them)."""

    def key(self, position: _PosIn) -> int: ...

    def tracker(self, position: _PosIn) -> KeyTracker[Any]: ...


class StateKeys(Generic[PositionT]):
    """Zobrist keys over a position's state given as a few rows of small integers
    (``state(position)``: e.g. the board's cells, the heights, ``[side to move]``).

    The key is the XOR of one 64-bit value per (row, cell, value), each ``mix64`` of the three
    and the game's ``seed``: a fixed table, computed once per entry and kept. The tracker
    keeps a copy of the rows before a move and, after it, XORs out and in only the cells
    that changed. Rows keep their lengths from one position to the next.
    """

    def __init__(self, seed: int, state: Callable[[PositionT], tuple[Sequence[int], ...]], *,
                 material_row: int | None = None) -> None:
        self.seed = seed
        self.state = state
        self.material_row = material_row
        """The row whose values the game's material counts (its material is a function of
        that row's values taken as a multiset), or ``None``: the tracker then says the
        material is the same when the cells of that row that changed hold the same values."""
        self._table: dict[tuple[int, int, int], int] = {}
        self._byte_rows: list[dict[int, int]] = []
        """Per row of bytes: ``cell << 8 | value`` → its entry (an int key hashes faster
        than a tuple: the tracker looks up a few per move)."""
        self._whole_rows: dict[tuple[int, bytes], int] = {}
        """A whole row of bytes → its part of the key: every record starts from the same
        board, which is then keyed once, not once per record."""

    def entry(self, row: int, cell: int, value: int) -> int:
        """The key part of ``value`` in ``cell`` of ``row``."""
        found = self._table.get((row, cell, value))
        if found is None:
            found = mix64(self.seed ^ mix64((row << 48) ^ (cell << 24) ^ mix64(value)))
            if len(self._table) < 1 << 20:  # bounded: an odd counter must not grow it forever
                self._table[(row, cell, value)] = found
        return found

    def key(self, position: PositionT) -> int:
        key = 0
        entry = self.entry
        for row, values in enumerate(self.state(position)):
            whole = (row, bytes(values)) if isinstance(values, (bytes, bytearray)) else None
            part = self._whole_rows.get(whole) if whole is not None else None
            if part is None:
                part = 0
                for cell, value in enumerate(values):
                    part ^= entry(row, cell, value)
                if whole is not None and len(self._whole_rows) < 64:
                    self._whole_rows[whole] = part
            key ^= part
        return key

    def byte_entries(self, row: int) -> dict[int, int]:
        """The entries of row ``row`` (a row of bytes) met so far, by ``cell << 8 | value``."""
        while len(self._byte_rows) <= row:
            self._byte_rows.append({})
        return self._byte_rows[row]

    def tracker(self, position: PositionT) -> StateTracker[PositionT]:
        return StateTracker(self, position)


class StateTracker(Generic[PositionT]):
    """The incremental key of :class:`StateKeys` along one line."""

    __slots__ = ("keys", "key", "_rows", "material_same")

    def __init__(self, keys: StateKeys[PositionT], position: PositionT) -> None:
        self.keys = keys
        self.key = keys.key(position)
        self._rows: list[Sequence[int]] = []
        self.material_same = False

    def before(self, position: PositionT) -> None:
        self._rows = [bytes(values) if isinstance(values, (bytes, bytearray)) else values[:]
                      for values in self.keys.state(position)]

    def after(self, position: PositionT) -> int:
        return self._changed(position, keep=False)

    def step(self, position: PositionT, move: Any = None) -> int:
        return self._changed(position, keep=True)

    def _changed(self, position: PositionT, keep: bool) -> int:
        """The key of ``position`` from the rows kept and the cells that changed; with
        ``keep``, its rows are kept for the next move (what ``before`` would keep)."""
        keys = self.keys
        key, entry = self.key, keys.entry
        material_row = keys.material_row
        self.material_same = material_row is not None
        rows: list[Sequence[int]] = []
        for row, (old, new) in enumerate(zip(self._rows, keys.state(position))):
            if len(old) != len(new):
                self.key = keys.key(position)
                self.material_same = False
                if keep:
                    self.before(position)
                return self.key
            cells: list[int] | None = [] if row == material_row else None
            if isinstance(old, bytes):
                now = bytes(new)
                if old != now:
                    key = bytes_row_changes(key, row, old, now, keys, cells)
                rows.append(now)
            elif old == new:
                rows.append(old)
            else:
                rows.append(new[:])
                # Slices compare in C: only a block that differs is walked cell by cell.
                for start in range(0, len(new), _BLOCK):
                    if old[start:start + _BLOCK] != new[start:start + _BLOCK]:
                        for cell in range(start, min(start + _BLOCK, len(new))):
                            if old[cell] != new[cell]:
                                key ^= entry(row, cell, old[cell]) ^ entry(row, cell, new[cell])
                                if cells is not None:
                                    cells.append(cell)
            if cells:  # the same values moved about, or some came or went
                self.material_same = sorted(map(old.__getitem__, cells)) == \
                    sorted(map(new.__getitem__, cells))
        self.key = key
        if keep:
            self._rows = rows
        return key


def bytes_row_changes(key: int, row: int, old: bytes, new: bytes, keys: StateKeys[Any],
                   cells: list[int] | None = None) -> int:
    """``key`` with the cells of a row of bytes that changed swapped: the two rows XORed as
    numbers, each byte of that then made 0 or 1, and the 1s found by ``bytes.find``, so only
    the changed bytes are visited, each in one step (a board of 500 cells where a turn moves a
    few units costs a few steps, not 500). The cells that changed are added to ``cells``."""
    size = len(old)
    changed = (int.from_bytes(old, "little") ^ int.from_bytes(new, "little")).to_bytes(
        size, "little").translate(_NONZERO)
    entries = keys.byte_entries(row)
    get = entries.get
    cell = changed.find(1)
    while cell >= 0:
        if cells is not None:
            cells.append(cell)
        for value in (old[cell], new[cell]):
            found = get(cell << 8 | value)
            if found is None:
                found = entries[cell << 8 | value] = keys.entry(row, cell, value)
            key ^= found
        cell = changed.find(1, cell + 1)
    return key


_NONZERO = bytes([0] + [1] * 255)
"""``bytes.translate`` table: 0 stays 0, any other byte becomes 1."""


_BLOCK = 32
"""Cells compared at once by :class:`StateTracker` before it looks for the ones that changed."""


def _string_state(position: Any) -> tuple[Sequence[int], ...]:
    """A game without keys of its own: its position string, as bytes."""
    return (position.game.format_position(position).encode(),)


@dataclasses.dataclass(frozen=True, eq=False, kw_only=True)
class Game(Generic[PositionT, MoveT]):
    """A game: identity and rule options, plus the game's own modules; immutable and shared.

    Each ``game.py`` builds one. Required: ``id``, ``name``, ``sides``, ``default_profile``,
    ``position_type`` (the ``Position`` class, which gets this object as its ``game``), and
    the modules ``notation``, ``positions``, ``render``, ``stats`` (see their protocols).
    Everything else is optional with a default; the methods below are the toolkit's one way
    to ask a game anything, built on those modules.
    """

    id: str
    name: str
    sides: tuple[str, str]
    default_profile: str
    position_type: type[PositionT]
    notation: NotationModule[PositionT, MoveT]
    positions: PositionModule[PositionT]
    render: RenderModule[PositionT, MoveT]
    stats: StatsModule[PositionT, MoveT]

    # ---- optional ------------------------------------------------------------------------
    aliases: tuple[str, ...] = ()
    results: tuple[str, str] = ("1-0", "0-1")
    """``results[side]`` is the result text when ``side`` wins."""
    options: tuple[RuleOption, ...] = ()
    # The Options dataclass of any game: its fields are the game's own.
    options_type: type[Any] | None = None
    """The game's ``Options`` dataclass, which the engine reads through :func:`options_of`:
    one field per option (``check_tables`` checks that they match)."""
    profiles: Mapping[str, Mapping[str, str]] = dataclasses.field(default_factory=dict)
    """Profile name → option texts that differ from the option defaults."""
    rules_doc: str = ""
    """The game's rules reference in the documentation (``docs/rules/<game>.md``): every
    section a diagnostic or option cites is a heading there."""
    codes: tuple[Code, ...] = ()
    """The game's own diagnostic codes (the shared ones are :data:`notation_tools.codes.SHARED_CODES`)."""
    draws_possible: bool = True
    """Whether a draw can happen at all; when not, a ``1/2-1/2`` result is a mismatch."""
    file_formats: tuple[FileFormat, ...] = ()
    """The game's own file formats (read when sniffed, written by ``convert --to NAME``)."""
    sampler: Sampler[PositionT, MoveT] | None = None
    """The game's own random-move policy, when a uniform choice over the legal moves will
    not do (``analysis.generate.random_move`` uses it)."""
    render_options: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Extra marks the two drawings offer (name → help), e.g. ``loops``: the CLI offers each as
    a ``show`` flag (``--loops``)."""
    rules_check: Callable[[Rules], None] | None = None
    """Rejects inconsistent option combinations with :class:`BadRulesError`."""
    data_checks: tuple[Callable[[], list[str]], ...] = ()
    """Checks of the game's own data tables (pieces, geometry): each gives problems naming
    the row."""
    first_player_error: tuple[str, str | None] = ("E-BAD-TAG", None)
    """The code and rules section of an unknown ``FirstPlayer`` side."""
    annotator: Callable[[MoveT, PositionT], MoveT] | None = None
    """Fills in the claims a move's notation may carry (:meth:`annotate_move`)."""
    json_moves: JsonMoves[PositionT, MoveT] | None = None
    """Moves in JSON as structured data (default: their text in the default notation)."""
    format_checker: Callable[[MoveT, PositionT, str | None], Sequence[tuple[str, str]]] \
        | None = None
    """Warnings about writing a move in a notation (:meth:`format_warnings`)."""
    keys: PositionKeys[PositionT] | None = None
    """The game's position keys (its ``keys.py``); default: keys over the position string."""
    occupants: Callable[[PositionT], Iterable[tuple[str, int, str]]] | None = None
    """(square name, side, piece name) of every piece on the board, for pattern search (its
    ``keys.py``); ``None``: the game offers no pattern search."""
    material: Callable[[PositionT], Mapping[tuple[int, str], int]] | None = None
    """(side, piece name) → how many are on the board, for pattern search (its ``keys.py``)."""
    square_names: tuple[str, ...] = ()
    """Every square's name (its ``keys.py``), for pattern search."""

    def __post_init__(self) -> None:
        # The first game built for a position class is its game: a variant made later with
        # dataclasses.replace (e.g. a test's) does not take the class over.
        if "game" not in vars(self.position_type):
            self.position_type.game = self

    @property
    def notations(self) -> tuple[str, ...]:
        """Move notations for ``convert --to``; the first is the default."""
        return self.notation.NOTATIONS

    @property
    def dialect(self) -> Dialect:
        """How other programs write this game's records (read by the replay driver only)."""
        return self.notation.DIALECT

    @property
    def figures(self) -> Mapping[str, Figure]:
        """How each numeric figure of the game's statistics is summarized over records (the
        ``FIGURES`` of its ``stats.py``)."""
        return self.stats.FIGURES

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
        if self.rules_check is not None:
            self.rules_check(rules)

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

    def start_position(self, rules: Rules, *, fen: str | None = None,
                       first_player: Side | None = None) -> PositionT:
        """The position a record starts from.

        ``fen`` is the record's position string (``SetUp``/``FEN`` tags), ``first_player`` the
        ``FirstPlayer`` tag. Raises :class:`BadPositionError` or :class:`TagConflictError`.
        """
        return self.positions.start_position(rules, fen=fen, first_player=first_player)

    def parse_position(self, text: str, rules: Rules) -> PositionT:
        """Parse the game's position string; raises :class:`BadPositionError`."""
        return self.positions.parse_position(text, rules)

    def format_position(self, position: PositionT) -> str:
        """The canonical position string: ``format_position(parse_position(s)) == s``."""
        return self.positions.format_position(position)

    def parse_side(self, text: str) -> Side:
        """A side from a ``FirstPlayer`` tag value (case-insensitive name or initial)."""
        wanted = text.strip().lower()
        for index, name in enumerate(self.sides):
            if wanted in (name.lower(), name[0].lower()):
                return index
        code, rule = self.first_player_error
        raise TagConflictError(f"unknown side {text!r} (sides: {', '.join(self.sides)})",
                               code=code, rule=rule)

    # ---- moves ---------------------------------------------------------------------------

    def resolve_move(self, text: str, position: PositionT,
                     notation: str | None = None) -> Resolution[MoveT]:
        """The legal move that ``text`` names in ``position``, with the warnings and
        alternative readings of the text (the game's ``notation.resolve_move``).

        Accepts every notation of the game unless ``notation`` narrows it. Raises
        :class:`MoveSyntaxError`, :class:`IllegalMoveError` or :class:`AmbiguousMoveError`
        (or a subclass carrying a game's own code). Does not change ``position``.
        """
        return self.notation.resolve_move(text, position, notation)

    def parse_move(self, text: str, position: PositionT, notation: str | None = None) -> MoveT:
        """The legal move that ``text`` names in ``position`` (:meth:`resolve_move`'s move)."""
        return self.notation.resolve_move(text, position, notation).move

    def format_move(self, move: MoveT, position: PositionT, notation: str | None = None) -> str:
        """The text of ``move`` (legal in ``position``) in ``notation`` (default: the first)."""
        return self.notation.format_move(move, position, notation)

    def annotate_move(self, move: MoveT, position: PositionT) -> MoveT:
        """``move`` with the claims its notation may carry filled in from the rules (e.g. an
        attack's outcome mark); ``convert --annotate-outcomes`` writes these. Default: as is."""
        return move if self.annotator is None else self.annotator(move, position)

    def format_warnings(self, move: MoveT, position: PositionT,
                        notation: str | None = None) -> Sequence[tuple[str, str]]:
        """Warnings ``(code, message)`` about writing ``move`` in ``notation`` (``convert``)."""
        if self.format_checker is None:
            return ()
        return self.format_checker(move, position, notation)

    # JSON data is any value json.loads gives.
    def move_to_json(self, move: MoveT, position: PositionT) -> Any:
        """The move as JSON data; by default its text in the default notation."""
        if self.json_moves is None:
            return self.format_move(move, position)
        return self.json_moves.move_to_json(move, position)

    def move_from_json(self, data: Any, position: PositionT) -> MoveT:
        """Inverse of :meth:`move_to_json`; raises the same errors as :meth:`parse_move`."""
        if self.json_moves is not None:
            return self.json_moves.move_from_json(data, position)
        if not isinstance(data, str):
            raise MoveSyntaxError(f"a {self.name} move in JSON is a string, not {type(data).__name__}")
        return self.parse_move(data, position)

    @property
    def has_json_moves(self) -> bool:
        """Whether the game writes moves in JSON as structured data, not only as text."""
        return self.json_moves is not None

    def describe_move(self, move: MoveT, position: PositionT) -> dict[str, Any]:
        """Extra facts about a legal move for ``moves`` listings (e.g. combat sums)."""
        return self.stats.describe_move(move, position)

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
        return self.render.text_diagram(position, style=Style(style), marks=self._marks(marks))

    def render_svg(self, position: PositionT, *, last_move: MoveT | None = None,
                   **marks: bool) -> str:
        """An SVG picture of ``position`` with the text diagram in ``<desc>``; ``last_move``
        (played to reach it) is marked. ``marks`` as for :meth:`render_text`."""
        return self.render.svg(position, last_move=last_move, marks=self._marks(marks))

    def render_svgs(self, position: PositionT, mark_sets: Sequence[Iterable[str]], *,
                    last_move: MoveT | None = None) -> list[str]:
        """:meth:`render_svg` of ``position`` once for each set of marks in ``mark_sets``
        (each an iterable of option names, ``()`` for none), in that order. A viewer draws
        every position under every combination of options; a game whose render module offers
        ``svgs`` (:class:`ManyMarksRender`) draws what the pictures share once."""
        sets = self._mark_sets(mark_sets)
        if hasattr(self.render, "svgs"):
            return cast("ManyMarksRender[PositionT, MoveT]", self.render).svgs(
                position, last_move=last_move, mark_sets=sets)
        return [self.render.svg(position, last_move=last_move, marks=marks) for marks in sets]

    def render_svg_runs(self, position: PositionT, mark_sets: Sequence[Iterable[str]], *,
                        last_move: MoveT | None = None) -> list[tuple[str, ...]]:
        """:meth:`render_svgs`, each picture as runs of whole lines whose concatenation is
        the picture (the ``parts`` of the ``SvgText`` a game's renderer writes; the whole
        text as one run when the picture keeps none): for a viewer that cuts the pictures
        into lines, and which a game's ``svg_runs`` (:class:`RunsRender`) spares joining
        them."""
        if hasattr(self.render, "svg_runs"):
            sets = self._mark_sets(mark_sets)
            return cast("RunsRender[PositionT, MoveT]", self.render).svg_runs(
                position, last_move=last_move, mark_sets=sets)
        return [getattr(drawing, "parts", None) or (drawing,)
                for drawing in self.render_svgs(position, mark_sets, last_move=last_move)]

    def legend_svg(self, position: PositionT) -> str:
        """A standalone SVG key of what the drawing of ``position`` shows (piece names,
        colours, marks): the render module's ``legend_svg`` (:class:`LegendRender`), ``''``
        when it has none."""
        if not hasattr(self.render, "legend_svg"):
            return ""
        return cast("LegendRender[PositionT]", self.render).legend_svg(position)

    def _mark_sets(self, mark_sets: Sequence[Iterable[str]]) -> list[frozenset[str]]:
        """Each set of option names in ``mark_sets`` checked (:meth:`_marks`), kept by the
        sets asked for: a viewer asks for the same sets at every position."""
        asked = tuple(map(tuple, mark_sets))
        kept = self._checked_mark_sets
        sets = kept.get(asked)
        if sets is None:
            sets = kept[asked] = [self._marks(dict.fromkeys(names, True)) for names in asked]
        return list(sets)

    @functools.cached_property
    def _checked_mark_sets(self) -> dict[tuple[tuple[str, ...], ...], list[frozenset[str]]]:
        """:meth:`_mark_sets`'s answers, by the sets asked for."""
        return {}

    def _marks(self, marks: Mapping[str, bool]) -> frozenset[str]:
        chosen = {name.replace("_", "-") for name, wanted in marks.items() if wanted}
        unknown = {name.replace("_", "-") for name in marks} - set(self.render_options)
        if unknown:
            raise TypeError(f"{self.id} has no render option(s) {', '.join(sorted(unknown))}")
        return frozenset(chosen)

    @functools.cached_property
    def position_keys(self) -> PositionKeys[PositionT]:
        """The game's :class:`PositionKeys` (``keys``, or keys over the position string)."""
        return self.keys if self.keys is not None else StateKeys(mix64(hash_text(self.id)),
                                                                 _string_state)

    def position_key(self, position: PositionT) -> int:
        """The position's 64-bit key, signed (as SQLite stores it): equal for the positions
        the game's rules reference calls the same, whatever the moves that led there."""
        return signed64(self.position_keys.key(position))

    def key_tracker(self, position: PositionT) -> KeyTracker[PositionT]:
        """An incremental key that starts at ``position`` (unsigned; see :func:`signed64`)."""
        return self.position_keys.tracker(position)

    def new_stats(self, rules: Rules) -> StatsCollector[PositionT, MoveT]:
        """A fresh statistics collector for one record."""
        return self.stats.Stats(rules)

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
        return [problem for check in self.data_checks for problem in check()]


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
