"""Maka-Dai-Dai Shogi data tables: the 78 piece types, board geometry and the option overrides.

Rules are data (G7): every piece type is one row of direction entries (rules §3.1-§3.3), read
by the one generic move generator in :mod:`notation_tools.games.maka.rules`. Rule options that
change a piece's move (§6.12, §6.5, §6.7) are rows of overrides keyed by option value.
:func:`compile_tables` turns the rows into per-colour lookup tables for one choice of options.
The numbers the rules give a meaning (board size, piece counts, ranges, limits) are named here.

This module does not generate moves or know whose turn it is.

>>> TYPE_BY_ABBR["Ky"].name
'Kylin'
>>> check_tables()
[]
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any

SIZE = 19
NSQ = SIZE * SIZE
RANKS = "abcdefghijklmnopqrs"
INF = SIZE  # an unlimited slide never runs further than the board
SIDE_NAMES = ("Black", "White")
"""Side 0 moves first (§1.3); a piece code's low bit is its side."""
PIECES_PER_SIDE = 96
"""Pieces each side starts with (§3)."""
GOLD_PROMOTING_TYPES = 20
"""Initial types that promote to a gold-promoted Gold (§3.4)."""
JUMP_DISTANCE = 2
"""A jump (``J``) lands on the 2nd square along its direction (§3.1)."""
LION_RANGE = 2
"""Lion power's range: Lion, Furious Fiend, Buddhist Spirit (§6.3)."""
TK_LION_RANGE = 3
"""The Teaching King's Lion range under ``teaching-king=2`` (§6.7)."""
LION_DOG_STEPS = 3
"""Steps of the linear Lion Dog along one line (§6.5)."""
REPETITION_LIMIT = 3
"""Occurrences a position may have under ``repetition=forbidden``; the next is illegal (§6.13)."""
MAX_TOKEN_LENGTH = 60
"""Longest move text the notation reader tries to parse (§9.1 tokens are far shorter)."""
LAST_RANK_STUCK = frozenset({"P", "L", "St", "I", "FSt", "FIr"})
"""Types with no move on the last rank (§6.14)."""
KNIGHT_STUCK_RANKS = 2
"""The Knight has no move on the last two ranks (§6.14)."""

# Absolute directions (dcol, drow); index i is also Black's piece-relative direction i (§2):
# F, B, L, R, FL, FR, BL, BR. White's relative direction i is absolute OPPOSITE[i] (180° turn).
DIRS = ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1))
DIR_NAMES = ("F", "B", "L", "R", "FL", "FR", "BL", "BR")
OPPOSITE = (1, 0, 3, 2, 7, 6, 5, 4)
PERPENDICULAR = ((2, 3), (2, 3), (0, 1), (0, 1), (5, 6), (4, 7), (4, 7), (5, 6))
ORTHOGONAL = (0, 1, 2, 3)
DIAGONAL = (4, 5, 6, 7)
NDIRS = len(DIRS)


def square_name(sq: int) -> str:
    """``10j`` for an index (§2: ``col = 19 - file``, ``row = rank``).

    >>> square_name(9 * 19 + 9)
    '10j'
    """
    row, col = divmod(sq, SIZE)
    return f"{SIZE - col}{RANKS[row]}"


def parse_square(text: str) -> int | None:
    """The index of a square name, or ``None`` if ``text`` is not a square.

    >>> parse_square("1a"), parse_square("19s"), parse_square("20a"), parse_square("01a")
    (18, 342, None, None)
    """
    if len(text) < 2 or not (text[:-1].isascii() and text[:-1].isdigit()) or text[0] == "0" \
            or text[-1] not in RANKS:
        return None
    file = int(text[:-1])
    if not 1 <= file <= SIZE:
        return None
    return RANKS.index(text[-1]) * SIZE + SIZE - file


Squares = tuple[int, ...]


def _build_geometry() -> tuple[tuple[tuple[Squares, ...], ...], tuple[Squares, ...],
                               tuple[Squares, ...], tuple[Squares, ...]]:
    rays = []
    neighbours = []
    zone: dict[int, list[tuple[int, ...]]] = {2: [], 3: []}
    for sq in range(NSQ):
        row, col = divmod(sq, SIZE)
        per_dir = []
        for dcol, drow in DIRS:
            ray = []
            c, r = col + dcol, row + drow
            while 0 <= c < SIZE and 0 <= r < SIZE:
                ray.append(r * SIZE + c)
                c, r = c + dcol, r + drow
            per_dir.append(tuple(ray))
        rays.append(tuple(per_dir))
        near = []
        for reach in (2, 3):
            zone[reach].append(tuple(
                r * SIZE + c for r in range(row - reach, row + reach + 1)
                for c in range(col - reach, col + reach + 1)
                if 0 <= r < SIZE and 0 <= c < SIZE and (r, c) != (row, col)))
        near = [s for s in zone[2][sq] if max(abs(s // SIZE - row), abs(s % SIZE - col)) == 1]
        neighbours.append(tuple(near))
    return tuple(rays), tuple(neighbours), tuple(zone[2]), tuple(zone[3])


RAYS, NEIGHBOURS, ZONE2, ZONE3 = _build_geometry()
ROW = tuple(sq // SIZE for sq in range(NSQ))
COL = tuple(sq % SIZE for sq in range(NSQ))


def distance(a: int, b: int) -> int:
    """King distance (Chebyshev) between two squares (§6.3)."""
    return max(abs(ROW[a] - ROW[b]), abs(COL[a] - COL[b]))


@functools.cache
def distances_from() -> tuple[bytes, ...]:
    """Per square a, :func:`distance` from a to every square (``distances_from()[a][b]``):
    for reading many moves' lengths at once. Made on first use (130 kB)."""
    # the row of a is a run of 19-square blocks, one per row of b, each fixed by how many
    # rows lie between and by a's column
    blocks = [[bytes(max(rows, abs(col - c)) for c in range(SIZE)) for col in range(SIZE)]
              for rows in range(SIZE)]
    return tuple(b"".join(blocks[abs(ROW[a] - row)][COL[a]] for row in range(SIZE))
                 for a in range(NSQ))


# --------------------------------------------------------------------------------------------
# Piece types (§3.2, §3.3). Direction entries: "." none, "1" "2" "3" "5" limited slide,
# "I" unlimited slide, "J" jump to the 2nd square, "IJ"/"1J" slide plus jump, "N" shogi knight,
# "H" hook move. Columns are F B L R FL FR BL BR, as seen by the piece's owner.


@dataclasses.dataclass(frozen=True, slots=True)
class PieceType:
    """One row of the piece table.

    ``power``: ``""`` none, ``lion`` (§6.3), ``ff`` Furious Fiend, ``bsp`` Buddhist Spirit,
    ``tk`` Teaching King (§6.7), ``ld`` Lion Dog (§6.5), ``emperor`` (§6.6).
    ``promotes``: the abbreviation of the promoted type, ``+G`` for a gold-promoted Gold.
    """

    abbr: str
    name: str
    moves: str
    promotes: str | None = None
    power: str = ""
    royal: bool = False
    count: int = 0

    @property
    def designation(self) -> str:
        """The designation written in moves (both Golds are ``G``, §3.4)."""
        return "G" if self.abbr == "+G" else self.abbr

    @property
    def entries(self) -> tuple[str, ...]:
        return tuple(self.moves.split())


GP = "+G"
INITIAL_TYPES = (
    PieceType("K", "King", "1 1 1 1 1 1 1 1", "E", royal=True, count=1),
    PieceType("P", "Pawn", "1 . . . . . . .", "+P", count=19),
    PieceType("L", "Lance", "I . . . . . . .", GP, count=2),
    PieceType("S", "Silver General", "1 . . . 1 1 1 1", "FSi", count=2),
    PieceType("G", "Gold General", "1 1 1 1 1 1 . .", "FGo", count=2),
    PieceType("C", "Copper General", "1 1 . . 1 1 . .", "FCo", count=2),
    PieceType("B", "Bishop", ". . . . I I I I", GP, count=2),
    PieceType("R", "Rook", "I I I I . . . .", GP, count=2),
    PieceType("AB", "Angry Boar", "1 1 1 1 . . . .", "FBo", count=2),
    PieceType("DH", "Dragon Horse", "1 1 1 1 I I I I", None, count=2),
    PieceType("DK", "Dragon King", "I I I I 1 1 1 1", None, count=2),
    PieceType("BB", "Blind Bear", ". I . . 1 1 1 1", "FBe", count=2),
    PieceType("FL", "Ferocious Leopard", "1 1 . . 1 1 1 1", "FLp", count=2),
    PieceType("FK", "Free King", "I I I I I I I I", None, count=1),
    PieceType("BT", "Blind Tiger", ". 1 1 1 1 1 1 1", "FT", count=2),
    PieceType("Ky", "Kylin", "J J J J 1 1 1 1", "GD", count=1),
    PieceType("Ph", "Phoenix", "1 1 1 1 J J J J", "GBd", count=1),
    PieceType("Ln", "Lion", ". . . . . . . .", "FF", power="lion", count=1),
    PieceType("RC", "Reverse Chariot", "I I . . . . . .", GP, count=2),
    PieceType("SM", "Side Mover", "1 1 I I . . . .", GP, count=2),
    PieceType("VM", "Vertical Mover", "I I 1 1 . . . .", GP, count=2),
    PieceType("BDe", "Buddhist Devil", ". 1 1 1 3 3 . .", GP, count=1),
    PieceType("CSw", "Cat Sword", ". . . . 1 1 1 1", "FC", count=2),
    PieceType("Ca", "Capricorn", ". . . . H H H H", GP, count=1),
    PieceType("CC", "Chinese Cock", ". 1 1 1 1 1 . .", "WS", count=1),
    PieceType("CS", "Coiled Serpent", "1 1 . . . . 1 1", "FSe", count=1),
    PieceType("DSp", "Dark Spirit", ". . . 1 1 1 1 .", "BSp", count=1),
    PieceType("EW", "Evil Wolf", "1 . 1 1 1 1 . .", "FW", count=2),
    PieceType("DV", "Deva", ". . 1 . 1 1 . 1", "TK", count=1),
    PieceType("FD", "Flying Dragon", ". . . . 2 2 2 2", GP, count=2),
    PieceType("Do", "Donkey", "J J 1 1 . . . .", GP, count=2),
    PieceType("DE", "Drunk Elephant", "1 . 1 1 1 1 1 1", "Pr", count=1),
    PieceType("Ea", "Earth General", "1 1 . . . . . .", "FEa", count=2),
    PieceType("GB", "Go-Between", "1 1 . . . . . .", "FG", count=2),
    PieceType("GG", "Guardian of the Gods", "3 3 3 3 1 1 . .", GP, count=1),
    PieceType("N", "Knight", "N . . . . . . .", GP, count=2),
    PieceType("HM", "Hook Mover", "H H H H . . . .", GP, count=1),
    PieceType("OM", "Old Monkey", ". 1 . . 1 1 1 1", "MW", count=1),
    PieceType("I", "Iron General", "1 . . . 1 1 . .", "FIr", count=2),
    PieceType("LCh", "Left Chariot", "I 1 . . I . . I", GP, count=1),
    PieceType("RD", "Reclining Dragon", "1 1 1 1 . . 1 1", "FDr", count=1),
    PieceType("LD", "Lion Dog", "3 3 3 3 3 3 3 3", GP, power="ld", count=1),
    PieceType("SF", "Side Flyer", ". . I I 1 1 1 1", GP, count=2),
    PieceType("T", "Tile General", ". 1 . . 1 1 . .", "FTi", count=2),
    PieceType("Wr", "Wrestler", ". . 1 1 3 3 3 3", GP, count=1),
    PieceType("RCh", "Right Chariot", "I 1 . . . I I .", GP, count=1),
    PieceType("SD", "She-Devil", "5 5 5 5 2 2 2 2", GP, count=1),
    PieceType("St", "Stone General", ". . . . 1 1 . .", "FSt", count=2),
    PieceType("VO", "Violent Ox", "2 2 2 2 . . . .", GP, count=2),
    PieceType("OR", "Old Rat", ". 2 . . 2 2 . .", "Bt", count=2),
)
PROMOTED_TYPES = (
    PieceType("FF", "Furious Fiend", "3 3 3 3 3 3 3 3", power="ff"),
    PieceType("Bt", "Bat", "I . . . . . I I"),
    PieceType("BSp", "Buddhist Spirit", "I I I I I I I I", power="bsp"),
    PieceType("E", "Emperor", ". . . . . . . .", power="emperor", royal=True),
    PieceType("FBe", "Free Bear", ". . I I IJ IJ I I"),
    PieceType("FBo", "Free Boar", ". . I I I I I I"),
    PieceType("FC", "Free Cat", ". . . . I I I I"),
    PieceType("FCo", "Free Copper", "I I . . I I . ."),
    PieceType("FDr", "Free Dragon", "I 1 . . I I 1 1"),
    PieceType("FEa", "Free Earth", "I I . . . . . ."),
    PieceType("FG", "Free Goer", "I I . . . . . ."),
    PieceType("FGo", "Free Gold", "I I I I I I . ."),
    PieceType("FIr", "Free Iron", "I . . . I I . ."),
    PieceType("FLp", "Free Leopard", "I I . . I I I I"),
    PieceType("FSe", "Free Serpent", "I I . . . . I I"),
    PieceType("FSi", "Free Silver", "I . . . I I I I"),
    PieceType("FSt", "Free Stone", ". . . . I I . ."),
    PieceType("FT", "Free Tiger", ". I I I I I I I"),
    PieceType("FTi", "Free Tile", ". I . . I I . ."),
    PieceType("FW", "Free Wolf", "I I 5 5 I I I I"),
    PieceType("GBd", "Golden Bird", "I I 2 2 3 3 3 3"),
    PieceType("GD", "Great Dragon", "2 2 I I 3 3 3 3"),
    PieceType("MW", "Mountain Witch", "1 I . . I I I I"),
    PieceType("Pr", "Prince", "1 1 1 1 1 1 1 1", royal=True),
    PieceType("+P", "Tokin", "1 1 1 1 1 1 . ."),
    PieceType("TK", "Teaching King", "I I I I I I I I", power="tk"),
    PieceType("WS", "Wizard Stork", "I 1 . . I I I I"),
    PieceType(GP, "promoted Gold", "1 1 1 1 1 1 . ."),
)
TYPES = INITIAL_TYPES + PROMOTED_TYPES
# Type ids start at 1 so that a board cell (type_id * 2 + side) is never 0, the empty square.
TYPE_ID = {t.abbr: i + 1 for i, t in enumerate(TYPES)}
TYPE_BY_ABBR = {t.abbr: t for t in TYPES}
NTYPES = len(TYPES)
TYPE_OF_ID = (None, *TYPES)
ABBR_OF_ID: tuple[str, ...] = ("", *(t.abbr for t in TYPES))
"""The abbreviation of each type id (``TYPE_OF_ID[i].abbr``; none for 0)."""
NCODES = 2 * (NTYPES + 1)
PROMOTED_IDS = frozenset(TYPE_ID[t.abbr] for t in PROMOTED_TYPES)
ROYAL_IDS = frozenset(TYPE_ID[a] for a in ("K", "E", "Pr"))
GOLD_ID, GP_ID, FGO_ID = TYPE_ID["G"], TYPE_ID[GP], TYPE_ID["FGo"]
KING_ID, EMPEROR_ID, PRINCE_ID = TYPE_ID["K"], TYPE_ID["E"], TYPE_ID["Pr"]
DE_ID, TK_ID, BSP_ID = TYPE_ID["DE"], TYPE_ID["TK"], TYPE_ID["BSp"]
DV_ID, DSP_ID = TYPE_ID["DV"], TYPE_ID["DSp"]

# The `+<original>` input aliases (§3.4): every promotable initial type.
ALIASES = {f"+{t.abbr}": t.promotes for t in INITIAL_TYPES if t.promotes and t.abbr != "P"}
NEVER_PROMOTES = frozenset(t.abbr for t in INITIAL_TYPES if t.promotes is None)
LOOK_ALIKES = (("BT", "Bt"), ("CS", "CSw"), ("FD", "FDr"), ("GB", "GBd"), ("FG", "FGo"),
               ("FC", "FCo"), ("FT", "FTi"), ("FL", "FLp"), ("St", "FSt"))

# Alternative moves chosen by rule options (§6.12): option -> value -> {abbr: entries}.
ALTERNATIVE_MOVES: dict[str, dict[str, dict[str, str]]] = {
    "donkey-step": {"sideways": {}, "orthogonal": {"Do": "1J 1J 1 1 . . . ."}},
    "free-bear-jump": {"yes": {}, "no": {"FBe": ". . I I I I I I"}},
    "free-dragon": {"fq-bk": {}, "r-bb": {"FDr": "I I I I . . I I"}},
    "free-wolf": {"bvr-sr5": {}, "frlr-fb": {"FW": "I . I I I I . ."}},
    "deva-dark-spirit": {
        "ssz": {},
        "sz": {"DV": ". . 1 . 1 1 1 .", "DSp": ". . . 1 1 1 . 1"},
        "srz": {"DV": "1 1 1 1 1 . 1 .", "DSp": "1 1 1 1 . 1 . 1"},
    },
    "srz-pieces": {
        "off": {},
        "on": {"CS": "1 . . . . . 1 1", "RD": "1 . . . 1 1 1 1", "OM": "1 . . . 1 1 1 1",
               "CC": ". 1 . . 1 1 1 1", "BB": "1 1 1 1 1 1 1 1", "FBo": "I . . . I I . .",
               "MW": ". . . . I I I I", "Wr": "1 1 1 1 3 3 3 3", "SD": ". . . . 2 2 2 2",
               "SF": ". . I I 1 1 . ."},
    },
}

_ENTRY_VALUES = {".", "1", "2", "3", "5", "I", "J", "IJ", "1J", "N", "H"}


def check_tables() -> list[str]:
    """Problems in the piece tables, each naming the row (G7); ``[]`` when consistent.

    >>> check_tables()
    []
    """
    problems = []
    seen = set()
    for t in TYPES:
        if t.abbr in seen:
            problems.append(f"{t.abbr}: duplicate abbreviation")
        seen.add(t.abbr)
        entries = t.entries
        if len(entries) != NDIRS:
            problems.append(f"{t.abbr}: {len(entries)} direction entries, expected {NDIRS}")
        for index, entry in enumerate(entries):
            if entry not in _ENTRY_VALUES:
                problems.append(f"{t.abbr}: unknown entry {entry!r} in column {DIR_NAMES[index]}")
            if entry == "N" and index != 0:
                problems.append(f"{t.abbr}: a knight entry outside the F column")
        if t.promotes is not None and t.promotes not in TYPE_BY_ABBR:
            problems.append(f"{t.abbr}: promotes to unknown type {t.promotes!r}")
        if t.promotes is not None and TYPE_BY_ABBR[t.promotes].promotes is not None:
            problems.append(f"{t.abbr}: promotes to {t.promotes}, which promotes again")
        if t in PROMOTED_TYPES and t.promotes is not None:
            problems.append(f"{t.abbr}: a promoted type promotes (§3.3)")
        if t.designation[0] not in "+ABCDEFGHIJKLMNOPQRSTUVWXYZ" or "x" in t.designation:
            problems.append(f"{t.abbr}: designation breaks the §9.1 letter rule")
    if sum(t.count for t in INITIAL_TYPES) != PIECES_PER_SIDE:
        problems.append(f"initial counts add up to {sum(t.count for t in INITIAL_TYPES)}, "
                        f"not {PIECES_PER_SIDE}")
    targets = {t.promotes for t in INITIAL_TYPES if t.promotes}
    for t in PROMOTED_TYPES:
        if t.abbr not in targets:
            problems.append(f"{t.abbr}: no initial type promotes to it")
    gold_promoted = sorted(t.abbr for t in INITIAL_TYPES if t.promotes == GP)
    if len(gold_promoted) != GOLD_PROMOTING_TYPES:
        problems.append(f"{len(gold_promoted)} types promote to +G, the rules list "
                        f"{GOLD_PROMOTING_TYPES} (§3.4)")
    for option, values in ALTERNATIVE_MOVES.items():
        for value, rows in values.items():
            for abbr, moves in rows.items():
                if abbr not in TYPE_BY_ABBR:
                    problems.append(f"option {option}={value}: unknown piece {abbr!r}")
                parts = moves.split()
                if len(parts) != NDIRS or any(p not in _ENTRY_VALUES for p in parts):
                    problems.append(f"option {option}={value}: bad entries for {abbr}")
    return problems


# --------------------------------------------------------------------------------------------
# Compiled tables for one set of rules


@dataclasses.dataclass(frozen=True, slots=True)
class Tables:
    """Per piece code (``type_id * 2 + side``) lookup tables for one set of rules.

    ``slides[code]``: ``((absdir, reach), ...)``; ``jumps[code]``: absdirs of 2nd-square jumps;
    ``reach[code][absdir]`` and ``jump[code][absdir]`` serve attack tests; ``knight``, ``hook``
    (``None``, ``ORTHOGONAL`` or ``DIAGONAL``), ``lion`` (0 or the Lion range), ``ldog``
    (linear Lion Dog move), ``emperor`` and ``promotes`` (type id or 0) are per code.
    """

    slides: tuple[tuple[tuple[int, int], ...], ...]
    jumps: tuple[tuple[int, ...], ...]
    reach: tuple[tuple[int, ...], ...]
    jump: tuple[tuple[bool, ...], ...]
    knight: tuple[bool, ...]
    hook: tuple[tuple[int, ...] | None, ...]
    lion: tuple[int, ...]
    ldog: tuple[bool, ...]
    emperor: tuple[bool, ...]
    promotes: tuple[int, ...]
    multi_leg: tuple[int, ...]
    special: tuple[tuple[int, ...], ...]
    """Per side, the codes whose attacks need a piece-by-piece test (Lion, Lion Dog, hook)."""
    hooks: tuple[tuple[int, ...], ...]
    """Per side, the codes of hook movers (§6.4)."""
    sources: dict[int, tuple[frozenset[int], ...] | None] = dataclasses.field(
        default_factory=dict, compare=False)
    """Filled lazily by :func:`possible_origins`."""


def _entries_for(t: PieceType, choices: Mapping[str, str]) -> tuple[str, ...]:
    entries = t.entries
    for option, values in ALTERNATIVE_MOVES.items():
        row = values.get(choices.get(option, ""), {})
        if t.abbr in row:
            entries = tuple(row[t.abbr].split())
    return entries


@functools.lru_cache(maxsize=64)
def compile_tables(choice_items: tuple[tuple[str, str], ...]) -> Tables:
    """Build :class:`Tables` from ``(option, value)`` pairs (the rules' texts, sorted)."""
    choices = dict(choice_items)
    linear = choices.get("lion-dog") == "linear"
    tk_version = choices.get("teaching-king", "1")
    slides: list[Any] = [()] * NCODES
    jumps: list[Any] = [()] * NCODES
    reach: list[Any] = [(0,) * NDIRS] * NCODES
    jump: list[Any] = [(False,) * NDIRS] * NCODES
    knight = [False] * NCODES
    hook: list[Any] = [None] * NCODES
    lion = [0] * NCODES
    ldog = [False] * NCODES
    emperor = [False] * NCODES
    promotes = [0] * NCODES
    multi_leg = [0] * NCODES
    for t in TYPES:
        tid = TYPE_ID[t.abbr]
        entries = _entries_for(t, choices)
        power = t.power
        lion_range = 0
        linear_dog = False
        if power in ("lion", "ff", "bsp"):
            lion_range = LION_RANGE
        if power == "tk" and tk_version == "2":
            lion_range = TK_LION_RANGE
        if linear and power in ("ld", "ff") or (linear and power == "tk" and tk_version == "1"):
            linear_dog = True
            if power in ("ld", "ff"):
                entries = (".",) * NDIRS  # the linear move contains the Q3 slide (§6.5)
        for side in (0, 1):
            code = tid * 2 + side
            s_list, j_list = [], []
            r_row, j_row = [0] * NDIRS, [False] * NDIRS
            for rel, entry in enumerate(entries):
                absdir = rel if side == 0 else OPPOSITE[rel]
                if entry == "H":
                    hook[code] = ORTHOGONAL if rel < 4 else DIAGONAL
                    continue
                if entry == "N":
                    knight[code] = True
                    continue
                run = {"I": INF, "IJ": INF, "1J": 1}.get(entry, int(entry) if entry.isdigit() else 0)
                if run:
                    s_list.append((absdir, run))
                    r_row[absdir] = run
                if "J" in entry:
                    j_list.append(absdir)
                    j_row[absdir] = True
            slides[code] = tuple(s_list)
            jumps[code] = tuple(j_list)
            reach[code] = tuple(r_row)
            jump[code] = tuple(j_row)
            lion[code] = lion_range
            ldog[code] = linear_dog
            emperor[code] = power == "emperor"
            promotes[code] = TYPE_ID[t.promotes] if t.promotes else 0
            multi_leg[code] = max(lion_range, LION_DOG_STEPS if linear_dog else 0,
                                  LION_RANGE if power == "ff" else 0)
    special = tuple(tuple(c for c in range(side, NCODES, 2)
                          if lion[c] or ldog[c] or hook[c] is not None) for side in (0, 1))
    hooks = tuple(tuple(c for c in range(side, NCODES, 2) if hook[c] is not None)
                  for side in (0, 1))
    return Tables(tuple(slides), tuple(jumps), tuple(reach), tuple(jump), tuple(knight),
                  tuple(hook), tuple(lion), tuple(ldog), tuple(emperor), tuple(promotes),
                  tuple(multi_leg), special, hooks)


# Knight: Black jumps to (±1, -2), White to (±1, +2) (§3.1 `N`, F column only).
KNIGHT_TARGETS = tuple(
    tuple(tuple(r * SIZE + c for c, r in ((COL[sq] - 1, ROW[sq] + drow), (COL[sq] + 1, ROW[sq] + drow))
                if 0 <= c < SIZE and 0 <= r < SIZE) for sq in range(NSQ))
    for drow in (-2, 2))
# Squares from which a knight of each side reaches a square (reverse of KNIGHT_TARGETS).
KNIGHT_SOURCES = tuple(
    tuple(tuple(r * SIZE + c for c, r in ((COL[sq] - 1, ROW[sq] - drow), (COL[sq] + 1, ROW[sq] - drow))
                if 0 <= c < SIZE and 0 <= r < SIZE) for sq in range(NSQ))
    for drow in (-2, 2))


def possible_origins(t: Tables, code: int) -> tuple[frozenset[int], ...] | None:
    """For an ordinary piece code, per target square the squares from which that piece reaches
    the target on an empty board (a necessary condition for a move); ``None`` for pieces that
    may reach anything (Lion powers, Lion Dog, hook movers, Emperor). Cached in ``t``."""
    if code in t.sources:
        return t.sources[code]
    if t.emperor[code] or t.lion[code] or t.ldog[code] or t.hook[code] is not None:
        t.sources[code] = None
        return None
    # Read backwards from each target: a square ``run`` steps along direction d reaches the
    # target exactly when the target lies ``run`` steps along the opposite direction from it.
    slides = [(OPPOSITE[d], run) for d, run in t.slides[code]]
    jumps = [OPPOSITE[d] for d in t.jumps[code]]
    knights = KNIGHT_SOURCES[code & 1] if t.knight[code] else None
    origins = []
    for target in range(NSQ):
        rays = RAYS[target]
        found: set[int] = set()
        for e, run in slides:
            found.update(rays[e][:run])
        for e in jumps:
            if len(rays[e]) > 1:
                found.add(rays[e][1])
        if knights is not None:
            found.update(knights[target])
        origins.append(frozenset(found))
    result = tuple(origins)
    t.sources[code] = result
    return result


def piece_name(code: int) -> str:
    """The full name of a board piece code, side first (``Black King``, ``White Free
    Bear``): what a drawing shows on hover and in its key."""
    piece_type = TYPE_OF_ID[code >> 1]
    assert piece_type is not None
    return f"{SIDE_NAMES[code & 1]} {piece_type.name}"
