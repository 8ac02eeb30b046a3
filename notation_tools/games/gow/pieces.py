"""Data tables of the Game of War: the standard map, the unit types and the board geometry.

Everything here is computed once at import: square names, terrain, neighbour tables, the rays
used by lines of communication and fire, and the two-square move table. Unit codes are small
integers (type index 1..6 for North, plus 8 for South) so that the engine indexes tuples
instead of looking up objects. This module knows no rule beyond the tables of spec §2-§3; it
does not move units or compute communication.

>>> NAMES[SQUARE["B15"]], TERRAIN[SQUARE["F10"]] == PASS
('B15', True)
>>> UNITS[code_of("h")].name
'mounted artillery'
"""

from __future__ import annotations

import dataclasses

ROWS = 20
COLS = 25
SIZE = ROWS * COLS
ROW_LETTERS = "ABCDEFGHIJKLMNOPQRST"
MOVES_PER_TURN = 5
"""A side moves at most five units a turn (§4)."""
NORTH, SOUTH = 0, 1
SIDE_NAMES = ("North", "South")

# Terrain kinds (spec §2.2). Arsenals are kept apart (ARSENALS) because they can be destroyed.
PLAIN, MOUNTAIN, PASS, FORT = 0, 1, 2, 3
TERRAIN_NAMES = ("plain", "mountain", "pass", "fort")


def square_name(square: int) -> str:
    """``B15`` for index 39 (row letter + column number, spec §2)."""
    return ROW_LETTERS[square // COLS] + str(square % COLS + 1)


NAMES: tuple[str, ...] = tuple(square_name(s) for s in range(SIZE))
SQUARE: dict[str, int] = {name: index for index, name in enumerate(NAMES)}


def row_of(square: int) -> int:
    return square // COLS


def col_of(square: int) -> int:
    return square % COLS


def territory(square: int) -> int:
    """The side whose territory holds ``square`` (rows A-J North, K-T South, spec §2)."""
    return NORTH if square < 10 * COLS else SOUTH


# ---- the standard map (spec §2.1) ---------------------------------------------------------

# Arsenals in canonical (row-major) order, with their owners: the order of the position string.
ARSENALS: tuple[int, ...] = tuple(SQUARE[n] for n in ("B15", "D8", "T3", "T23"))
ARSENAL_OWNER: dict[int, int] = dict(zip(ARSENALS, (NORTH, NORTH, SOUTH, SOUTH)))
FORTS: tuple[int, ...] = tuple(SQUARE[n] for n in ("B8", "H21", "I13", "L15", "M3", "O23"))
PASSES: tuple[int, ...] = tuple(SQUARE[n] for n in ("F10", "O16"))
MOUNTAINS: tuple[int, ...] = tuple(SQUARE[n] for n in (
    "C10", "C11", "C12", "C13", "D10", "E10", "G10", "H10", "I10",     # North
    "N11", "N12", "N13", "N14", "N15", "N16", "P16", "Q16", "R16"))    # South

_terrain = [PLAIN] * SIZE
for _s in MOUNTAINS:
    _terrain[_s] = MOUNTAIN
for _s in PASSES:
    _terrain[_s] = PASS
for _s in FORTS:
    _terrain[_s] = FORT
TERRAIN: tuple[int, ...] = tuple(_terrain)

# ---- geometry ------------------------------------------------------------------------------

DIRECTIONS: tuple[tuple[int, int], ...] = (
    (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))


def _on_board(r: int, c: int) -> bool:
    return 0 <= r < ROWS and 0 <= c < COLS


def _neighbours(square: int) -> tuple[int, ...]:
    r, c = divmod(square, COLS)
    return tuple((r + dr) * COLS + c + dc for dr, dc in DIRECTIONS if _on_board(r + dr, c + dc))


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(s) for s in range(SIZE))
"""The (up to 8) adjacent squares of each square."""


def _ray(square: int, dr: int, dc: int) -> tuple[int, ...]:
    r, c = divmod(square, COLS)
    out = []
    r, c = r + dr, c + dc
    while _on_board(r, c) and TERRAIN[r * COLS + c] != MOUNTAIN:
        out.append(r * COLS + c)
        r, c = r + dr, c + dc
    return tuple(out)


RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ray(s, dr, dc) for dr, dc in DIRECTIONS) for s in range(SIZE))
"""For each square, the 8 rays: squares in that direction up to the edge, stopping before a
mountain (mountains stop both communication and fire, spec §2.2)."""

FIRE_RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(ray[:4] for ray in rays if ray) for rays in RAYS)
"""The rays cut to 4 squares (the farthest reach of a charge column, spec §8.4), empty ones
dropped: what combat needs."""


def _two_steps(square: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    r, c = divmod(square, COLS)
    out = []
    near = set(NEIGHBOURS[square])
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            if max(abs(dr), abs(dc)) != 2 or not _on_board(r + dr, c + dc):
                continue
            dest = (r + dr) * COLS + c + dc
            if TERRAIN[dest] == MOUNTAIN:
                continue
            middle = tuple(m for m in NEIGHBOURS[dest]
                           if m in near and TERRAIN[m] != MOUNTAIN)
            if middle:
                out.append((dest, middle))
    return tuple(out)


STEPS1: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for n in NEIGHBOURS[s] if TERRAIN[n] != MOUNTAIN) for s in range(SIZE))
"""Adjacent squares that may be entered (not mountains)."""

STEPS2: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...] = tuple(
    _two_steps(s) for s in range(SIZE))
"""For each square, the squares at distance 2 that may be entered, each with the
intermediate squares (adjacent to both ends, not mountains) a two-square move may pass through
(spec §7.1)."""

MIDDLES: tuple[dict[int, tuple[int, ...]], ...] = tuple(dict(t) for t in STEPS2)


def distance(a: int, b: int) -> int:
    """Chebyshev distance (spec §2)."""
    return max(abs(a // COLS - b // COLS), abs(a % COLS - b % COLS))


# ---- units (spec §3) -----------------------------------------------------------------------

@dataclasses.dataclass(frozen=True, slots=True)
class UnitType:
    """One row of the unit table of spec §3."""

    letter: str          # North letter; South is the lower case
    name: str
    speed: int
    attack: int          # 0 for relays (they cannot attack)
    defence: tuple[int, int, int]   # plain / pass / fort (indexed by terrain kind - 0 PLAIN)
    range: int           # for relays: the default support range (option relay-range)
    fighting: bool
    kfen: str            # pykrieg's letter
    ebarjou: str         # ebarjou's type name
    pykrieg_name: str    # pykrieg's unit_type in .kfen JSON


# Index = unit type number (1..6); the code of a unit is type + 8 * side.
INFANTRY, CAVALRY, ARTILLERY, HORSE_ARTILLERY, RELAY, MOUNTED_RELAY = 1, 2, 3, 4, 5, 6
UNIT_TYPES: tuple[UnitType | None, ...] = (
    None,
    UnitType("I", "infantry", 1, 4, (6, 8, 10), 2, True, "I", "I", "INFANTRY"),
    UnitType("C", "cavalry", 2, 4, (5, 5, 5), 2, True, "C", "C", "CAVALRY"),
    UnitType("A", "foot artillery", 1, 5, (8, 10, 12), 3, True, "K", "A", "CANNON"),
    UnitType("H", "mounted artillery", 2, 5, (8, 10, 12), 3, True, "W", "AC", "SWIFT_CANNON"),
    UnitType("R", "relay", 1, 0, (1, 1, 1), 2, False, "R", "R", "RELAY"),
    UnitType("M", "mounted relay", 2, 0, (1, 1, 1), 2, False, "X", "RC", "SWIFT_RELAY"),
)
ROSTER: dict[int, int] = {INFANTRY: 9, CAVALRY: 4, ARTILLERY: 1, HORSE_ARTILLERY: 1,
                          RELAY: 1, MOUNTED_RELAY: 1}
"""Units per side (spec §3)."""
CHARGE = 7
"""Attack of a charging cavalry (spec §8.4)."""
CHARGE_REACH = 4


def code(side: int, kind: int) -> int:
    return kind + 8 * side


def code_of(letter: str) -> int:
    """The unit code of a position-string letter (``I``..``M`` North, ``i``..``m`` South)."""
    return LETTER_CODE[letter]


LETTER_CODE: dict[str, int] = {}
for _k in range(1, 7):
    _t = UNIT_TYPES[_k]
    assert _t is not None
    LETTER_CODE[_t.letter] = code(NORTH, _k)
    LETTER_CODE[_t.letter.lower()] = code(SOUTH, _k)
CODE_LETTER: dict[int, str] = {v: k for k, v in LETTER_CODE.items()}

# Per-code tables (index 0..15): what the engine reads in its inner loops.
UNITS: tuple[UnitType | None, ...] = tuple(
    UNIT_TYPES[c & 7] if (c & 7) in range(1, 7) else None for c in range(16))
SIDE_OF: tuple[int, ...] = tuple(c >> 3 for c in range(16))
KIND_OF: tuple[int, ...] = tuple(c & 7 for c in range(16))
IS_FIGHTING: tuple[bool, ...] = tuple(u is not None and u.fighting for u in UNITS)
IS_RELAY: tuple[bool, ...] = tuple(u is not None and not u.fighting for u in UNITS)
SPEED: tuple[int, ...] = tuple(u.speed if u else 0 for u in UNITS)
ATTACK: tuple[int, ...] = tuple(u.attack if u else 0 for u in UNITS)
RANGE: tuple[int, ...] = tuple(u.range if u else 0 for u in UNITS)
DEFENCE: tuple[tuple[int, ...], ...] = tuple(
    (u.defence[0], 0, u.defence[1], u.defence[2]) if u else (0, 0, 0, 0) for u in UNITS)
"""DEFENCE[code][terrain kind]: the unit's defence factor on that terrain (spec §3)."""

FIGHTING_CODES = (frozenset(code(NORTH, k) for k in range(1, 5)),
                  frozenset(code(SOUTH, k) for k in range(1, 5)))
RELAY_CODES = (frozenset((code(NORTH, RELAY), code(NORTH, MOUNTED_RELAY))),
               frozenset((code(SOUTH, RELAY), code(SOUTH, MOUNTED_RELAY))))


def unit_name(unit_code: int) -> str:
    """``North infantry`` for a unit code."""
    return f"{SIDE_NAMES[SIDE_OF[unit_code]]} {kind_name(unit_code)}"


def kind_name(unit_code: int) -> str:
    """``infantry`` for a unit code (of either side; not 0)."""
    unit = UNITS[unit_code]
    assert unit is not None
    return unit.name


def check_tables() -> list[str]:
    """Problems in the tables above, each naming the row (spec §2.1 self-checks, §3)."""
    problems: list[str] = []
    for side, rows in ((NORTH, range(0, 10)), (SOUTH, range(10, 20))):
        def mine(squares: tuple[int, ...], rows: range = rows) -> list[int]:
            return [s for s in squares if row_of(s) in rows]
        counts = {"mountains": (len(mine(MOUNTAINS)), 9), "passes": (len(mine(PASSES)), 1),
                  "forts": (len(mine(FORTS)), 3), "arsenals": (len(mine(ARSENALS)), 2)}
        for what, (got, want) in counts.items():
            if got != want:
                problems.append(f"map: {SIDE_NAMES[side]} has {got} {what}, expected {want}")
    for owner_square, fort in (("D8", "B8"), ("B15", "H21"), ("D8", "I13"), ("T3", "M3"),
                               ("T23", "L15"), ("T23", "O23")):
        a, f = SQUARE[owner_square], SQUARE[fort]
        if not any(f in ray for ray in RAYS[a]):
            problems.append(f"map: fort {fort} is not on a mountain-free line to {owner_square}")
    for s, owner in ARSENAL_OWNER.items():
        if territory(s) != owner:
            problems.append(f"map: arsenal {NAMES[s]} lies outside its owner's territory")
    column10 = sum(1 for s in MOUNTAINS if territory(s) == NORTH and col_of(s) == 9)
    row_n = sum(1 for s in MOUNTAINS if territory(s) == SOUTH and row_of(s) == 13)
    if column10 != 6 or row_n != 6:
        problems.append("map: mountain ranges do not run as Debord describes (6 in column 10, 6 in row N)")
    letters = set()
    for kind in range(1, 7):
        unit = UNIT_TYPES[kind]
        if unit is None:
            problems.append(f"unit type {kind}: missing")
            continue
        if unit.fighting != (unit.attack > 0):
            problems.append(f"unit {unit.name}: fighting units attack, relays do not")
        if unit.speed not in (1, 2):
            problems.append(f"unit {unit.name}: speed {unit.speed} is not 1 or 2")
        if unit.letter in letters:
            problems.append(f"unit {unit.name}: letter {unit.letter} used twice")
        letters.add(unit.letter)
        if kind not in ROSTER:
            problems.append(f"unit {unit.name}: not in the roster")
    if sum(ROSTER.values()) != 17:
        problems.append("roster: a side has 17 units")
    return problems
