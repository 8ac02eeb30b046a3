"""The Game protocol every game implements, the engine exceptions, rule options and the registry.

A game package (``notation_tools.games.<game>``) exposes one immutable :class:`Game` object.
The toolkit reaches it only through this module: :func:`get_game` finds it by id or alias, and
:func:`all_games` lists the registered games. Games register through the entry-point group
``notation_tools.games``, so a third party can add one without touching this package.

This module does not read files, print, or know any game's rules.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from importlib import metadata
from typing import Any, ClassVar, Protocol

Side = int
"""Index into :attr:`Game.sides`: 0 is the side that moves first by default, 1 the other."""


# --------------------------------------------------------------------------------------------
# Exceptions raised by engines (G3). Only analysis/replay.py turns them into diagnostics.


class EngineError(ValueError):
    """A move, position or rule text that a game rejects.

    ``message`` is a sentence for a person; ``rule`` names the spec section broken
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
    ``ValueError`` for a bad value. ``spec`` is the spec section that defines the option.
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
        if not text.isdigit() or (len(text) > 1 and text[0] == "0"):
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
    ``Rules`` tag text that means the same rules.
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
        return hash((self.game_id, self.profile, tuple(sorted(self.texts.items()))))

    def describe(self) -> str:
        """The canonical ``Rules`` text: the profile, then options that differ from it."""
        changed = [f"{name}={text}" for name, text in self.texts.items()
                   if self.profile_texts[name] != text]
        return "; ".join([self.profile, *changed])


# --------------------------------------------------------------------------------------------
# Positions, moves, statistics


class Position(Protocol):
    """What the toolkit asks of a game's position class (G1).

    ``push`` trusts that the move came from ``legal_moves()`` or ``Game.parse_move``. A
    position may also carry ``notes``: ``(code, message)`` pairs about how it was set up
    (``W-SETUP-INCOMPLETE``), which replay reports as warnings (``W-``) or notes (``I-``).
    """

    turn: Side

    def legal_moves(self) -> Iterator[Any]: ...

    def push(self, move: Any) -> None: ...

    def pop(self) -> Any: ...

    def copy(self) -> Position: ...

    def outcome(self) -> Outcome | None: ...


class StatsCollector(Protocol):
    """Gathers a game's own figures while a record is replayed.

    A collector may also define ``before_move(position, move)`` and ``after_move(position)``;
    replay then calls those around the push with the live position instead of ``add``, which
    saves copying the position at every ply.
    """

    def add(self, before: Position, move: Any, after: Position) -> None:
        """Note one ply. ``before`` is a copy taken before the move; ``after`` is live."""

    def summary(self, final: Position, outcome: Outcome | None) -> dict[str, Any]:
        """Flat figures for tables: str keys, scalar values (int, float, str, None).

        Must contain ``captures`` (int), the one figure every game shares.
        """


@dataclasses.dataclass(frozen=True)
class Resolution:
    """What a move text means in a position: the move, warnings ``(code, message, rule)``
    about how it was written, and ``alternatives``: other moves the text may equally mean,
    which only later moves can tell apart (the replay keeps the reading under which the rest
    of the record plays best, and reports :attr:`Game.fork_warning` when several do)."""

    move: Any
    warnings: Sequence[tuple[str, str, str | None]] = ()
    alternatives: Sequence[Any] = ()


@dataclasses.dataclass(frozen=True)
class ForeignRecord:
    """A game read from a game's own file format: tags (``SetUp``/``FEN`` for the start),
    turn tokens in the game's notation, notes ``(code, message)`` the reader made, and text
    for a comment after the last move."""

    tags: Mapping[str, str]
    tokens: tuple[str, ...] = ()
    notes: tuple[tuple[str, str], ...] = ()
    comment: str | None = None


@dataclasses.dataclass(frozen=True)
class FileFormat:
    """A file format of one game beside the PGN container (a position string other programs
    write, or their saved-game files), for ``convert --to`` and for reading.

    ``sniff(head)`` says whether a file's first 8 KiB are in this format; ``read(text)`` turns
    the whole text into a :class:`ForeignRecord` (raising :class:`EngineError` for a file it
    cannot read); ``write(start, moves, tags, final)`` writes a replayed record: ``moves`` are
    the legal main-line moves played from ``start`` (not changed), ``final`` the position
    after them. A ``positional`` format holds one position: it writes ``final``.
    """

    name: str
    help: str
    sniff: Callable[[str], bool]
    read: Callable[[str], ForeignRecord]
    write: Callable[[Any, Sequence[Any], Mapping[str, str], Any], str]
    positional: bool = False


class Style(enum.Enum):
    ASCII = "ascii"
    UNICODE = "unicode"


class Game(ABC):
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
    profiles: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    """Profile name → option texts that differ from the option defaults."""
    default_profile: ClassVar[str]
    spec: ClassVar[str] = ""
    """File name of the game's spec under shared/specs."""
    move_number_code: ClassVar[tuple[str, str]] = ("E-NUMBER", "error")
    """The code and severity of a move number out of sequence (some specs make it a warning)."""
    draws_possible: ClassVar[bool] = True
    """Whether a draw can happen at all; when not, a ``1/2-1/2`` result is a mismatch."""
    file_formats: ClassVar[tuple[FileFormat, ...]] = ()
    """The game's own file formats (read when sniffed, written by ``convert --to NAME``)."""
    placeholder: ClassVar[str | None] = None
    """A token some writers put in the first player's slot when the other side starts."""

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

    @abstractmethod
    def start_position(self, rules: Rules, *, fen: str | None = None,
                       first_player: Side | None = None) -> Position:
        """The position a record starts from.

        ``fen`` is the record's position string (``SetUp``/``FEN`` tags), ``first_player`` the
        ``FirstPlayer`` tag. Raises :class:`BadPositionError` or :class:`TagConflictError`.
        """

    @abstractmethod
    def parse_position(self, text: str, rules: Rules) -> Position:
        """Parse the game's position string; raises :class:`BadPositionError`."""

    @abstractmethod
    def format_position(self, position: Position) -> str:
        """The canonical position string: ``format_position(parse_position(s)) == s``."""

    def first_move_number(self, position: Position) -> int:
        """The move number of the first move played from ``position`` (a set-up may say)."""
        return 1

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
    def parse_move(self, text: str, position: Position, notation: str | None = None) -> Any:
        """The legal move that ``text`` names in ``position``.

        Accepts every notation of the game unless ``notation`` narrows it. Raises
        :class:`MoveSyntaxError`, :class:`IllegalMoveError` or :class:`AmbiguousMoveError`
        (or a subclass carrying a game's own code). Does not change ``position``.
        """

    @abstractmethod
    def format_move(self, move: Any, position: Position, notation: str | None = None) -> str:
        """The text of ``move`` (legal in ``position``) in ``notation`` (default: the first)."""

    def resolve_move(self, text: str, position: Position,
                     notation: str | None = None) -> Resolution:
        """Like :meth:`parse_move`, with the warnings and alternative readings of the text."""
        return Resolution(self.parse_move(text, position, notation))

    def annotate_move(self, move: Any, position: Position) -> Any:
        """``move`` with the claims its notation may carry filled in from the rules (e.g. an
        attack's outcome mark); ``convert --annotate-outcomes`` writes these. Default: as is."""
        return move

    fork_warning: ClassVar[str] = "W-AMBIGUOUS"
    """The warning code when a text's alternative readings all play to the end."""

    def format_warnings(self, move: Any, position: Position,
                        notation: str | None = None) -> Sequence[tuple[str, str]]:
        """Warnings ``(code, message)`` about writing ``move`` in ``notation`` (``convert``)."""
        return ()

    def move_to_json(self, move: Any, position: Position) -> Any:
        """The move as JSON data; by default its text in the default notation."""
        return self.format_move(move, position)

    def move_from_json(self, data: Any, position: Position) -> Any:
        """Inverse of :meth:`move_to_json`; raises the same errors as :meth:`parse_move`."""
        if not isinstance(data, str):
            raise MoveSyntaxError(f"a {self.name} move in JSON is a string, not {type(data).__name__}")
        return self.parse_move(data, position)

    def random_move(self, position: Position, rng: Any) -> Any:
        """A uniformly chosen legal move (``rng`` is a ``random.Random``), or ``None`` if none.

        Games whose full move lists are too large to build override this.
        """
        moves = list(position.legal_moves())
        return rng.choice(moves) if moves else None

    def perft(self, position: Position, depth: int) -> int:
        """The number of legal move sequences of ``depth`` plies from ``position``.

        A position may offer ``unordered_moves()`` (the legal moves in any order, cheaper than
        ``legal_moves()``) and ``count_legal_moves()`` (the last ply counted without building
        moves); perft uses them when present.
        """
        if depth == 0:
            return 1
        moves = getattr(position, "unordered_moves", position.legal_moves)
        if depth == 1:
            count = getattr(position, "count_legal_moves", None)
            return count() if count is not None else sum(1 for _ in moves())
        total = 0
        for move in list(moves()):
            position.push(move)
            total += self.perft(position, depth - 1)
            position.pop()
        return total

    def sniff(self, move_texts: Sequence[str]) -> bool:
        """Whether untagged movetext (first tokens given) looks like this game's."""
        return False

    def preamble_length(self, move_texts: Sequence[str]) -> int:
        """How many leading words of untagged movetext are another program's title lines."""
        return 0

    ignored_words: ClassVar[frozenset[str]] = frozenset()
    """Words some writers put between moves that carry no move; skipped with W-IGNORED-WORD."""

    # ---- output --------------------------------------------------------------------------

    @abstractmethod
    def render_text(self, position: Position, *, style: Style = Style.ASCII,
                    **options: Any) -> str:
        """A text diagram of ``position``, ending with a status line (G9)."""

    @abstractmethod
    def render_svg(self, position: Position, *, last_move: Any = None, **options: Any) -> str:
        """An SVG picture of ``position`` with the text diagram in ``<desc>``."""

    render_options: ClassVar[Mapping[str, str]] = {}
    """Extra boolean keywords of ``render_text`` and ``render_svg`` (name → help), e.g. ``loops``.

    The CLI offers each as a ``show`` flag (``--loops``) and passes it, with ``-`` as ``_``, to
    whichever of the two renders."""

    @abstractmethod
    def new_stats(self, rules: Rules) -> StatsCollector:
        """A fresh statistics collector for one record."""

    def result_text(self, outcome: Outcome) -> str:
        return "1/2-1/2" if outcome.winner is None else self.results[outcome.winner]

    def describe_move(self, move: Any, position: Position) -> dict[str, Any]:
        """Extra facts about a legal move for ``moves`` listings (e.g. combat sums)."""
        return {}

    def check_tables(self) -> list[str]:
        """Problems found in the game's data tables, each naming the row (G7)."""
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


def _load(reference: str) -> Game:
    module_name, _, attribute = reference.partition(":")
    module = __import__(module_name, fromlist=[attribute])
    return getattr(module, attribute)


@functools.cache
def all_games() -> tuple[Game, ...]:
    """Every registered game, built-ins first, each once."""
    references = dict(_BUILTIN)
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        references.setdefault(entry.name, entry.value)
    games: dict[str, Game] = {}
    for reference in references.values():
        game = _load(reference)
        games.setdefault(game.id, game)
    return tuple(games.values())


class UnknownGameError(LookupError):
    """No registered game has that id or alias."""


def get_game(name: str) -> Game:
    """The game whose id or alias is ``name`` (case-insensitive).

    >>> get_game("Elevation").id
    'elevation'
    """
    wanted = name.strip().lower()
    for game in all_games():
        if wanted == game.id or wanted in game.aliases:
            return game
    known = ", ".join(game.id for game in all_games())
    raise UnknownGameError(f"unknown game {name!r} (known: {known})")
