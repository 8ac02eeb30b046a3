"""Maka-Dai-Dai Shogi: a deliberately simple second move generator (test-only reference).

Written directly from the movement tables of spec §3.2/§3.3 (transcribed below in the spec's
own symbols) and the rules of §6.3-§6.6/§6.12, by brute force over coordinates, with none of
the engine's tables. It confirms the engine per piece type (empty board and among blockers,
both colours, both profiles) and the published perft counts (§8.2, §14.3).
"""

from __future__ import annotations

import json
import pathlib
import random

import pytest

from notation_tools.games.maka import GAME
from notation_tools.analysis.perft import perft

SPEC_TABLE = """
K|1|1|1|1|1|1|1|1|E
P|1|·|·|·|·|·|·|·|+P
L|∞|·|·|·|·|·|·|·|G†
S|1|·|·|·|1|1|1|1|FSi
G|1|1|1|1|1|1|·|·|FGo
C|1|1|·|·|1|1|·|·|FCo
B|·|·|·|·|∞|∞|∞|∞|G†
R|∞|∞|∞|∞|·|·|·|·|G†
AB|1|1|1|1|·|·|·|·|FBo
DH|1|1|1|1|∞|∞|∞|∞|—
DK|∞|∞|∞|∞|1|1|1|1|—
BB|·|∞|·|·|1|1|1|1|FBe
FL|1|1|·|·|1|1|1|1|FLp
FK|∞|∞|∞|∞|∞|∞|∞|∞|—
BT|·|1|1|1|1|1|1|1|FT
Ky|J|J|J|J|1|1|1|1|GD
Ph|1|1|1|1|J|J|J|J|GBd
Ln|·|·|·|·|·|·|·|·|FF
RC|∞|∞|·|·|·|·|·|·|G†
SM|1|1|∞|∞|·|·|·|·|G†
VM|∞|∞|1|1|·|·|·|·|G†
BDe|·|1|1|1|3|3|·|·|G†
CSw|·|·|·|·|1|1|1|1|FC
Ca|·|·|·|·|H|H|H|H|G†
CC|·|1|1|1|1|1|·|·|WS
CS|1|1|·|·|·|·|1|1|FSe
DSp|·|·|·|1|1|1|1|·|BSp
EW|1|·|1|1|1|1|·|·|FW
DV|·|·|1|·|1|1|·|1|TK
FD|·|·|·|·|2|2|2|2|G†
Do|J|J|1|1|·|·|·|·|G†
DE|1|·|1|1|1|1|1|1|Pr
Ea|1|1|·|·|·|·|·|·|FEa
GB|1|1|·|·|·|·|·|·|FG
GG|3|3|3|3|1|1|·|·|G†
N|N|·|·|·|·|·|·|·|G†
HM|H|H|H|H|·|·|·|·|G†
OM|·|1|·|·|1|1|1|1|MW
I|1|·|·|·|1|1|·|·|FIr
LCh|∞|1|·|·|∞|·|·|∞|G†
RD|1|1|1|1|·|·|1|1|FDr
LD|3|3|3|3|3|3|3|3|G†
SF|·|·|∞|∞|1|1|1|1|G†
T|·|1|·|·|1|1|·|·|FTi
Wr|·|·|1|1|3|3|3|3|G†
RCh|∞|1|·|·|·|∞|∞|·|G†
SD|5|5|5|5|2|2|2|2|G†
St|·|·|·|·|1|1|·|·|FSt
VO|2|2|2|2|·|·|·|·|G†
OR|·|2|·|·|2|2|·|·|Bt
FF|3|3|3|3|3|3|3|3|Ln
Bt|∞|·|·|·|·|·|∞|∞|OR
BSp|∞|∞|∞|∞|∞|∞|∞|∞|DSp
E|·|·|·|·|·|·|·|·|K
FBe|·|·|∞|∞|∞J|∞J|∞|∞|BB
FBo|·|·|∞|∞|∞|∞|∞|∞|AB
FC|·|·|·|·|∞|∞|∞|∞|CSw
FCo|∞|∞|·|·|∞|∞|·|·|C
FDr|∞|1|·|·|∞|∞|1|1|RD
FEa|∞|∞|·|·|·|·|·|·|Ea
FG|∞|∞|·|·|·|·|·|·|GB
FGo|∞|∞|∞|∞|∞|∞|·|·|G (original Golds only)
FIr|∞|·|·|·|∞|∞|·|·|I
FLp|∞|∞|·|·|∞|∞|∞|∞|FL
FSe|∞|∞|·|·|·|·|∞|∞|CS
FSi|∞|·|·|·|∞|∞|∞|∞|S
FSt|·|·|·|·|∞|∞|·|·|St
FT|·|∞|∞|∞|∞|∞|∞|∞|BT
FTi|·|∞|·|·|∞|∞|·|·|T
FW|∞|∞|5|5|∞|∞|∞|∞|EW
GBd|∞|∞|2|2|3|3|3|3|Ph
GD|2|2|∞|∞|3|3|3|3|Ky
MW|1|∞|·|·|∞|∞|∞|∞|OM
Pr|1|1|1|1|1|1|1|1|DE
+P|1|1|1|1|1|1|·|·|P
TK|∞|∞|∞|∞|∞|∞|∞|∞|DV
WS|∞|1|·|·|∞|∞|∞|∞|CC
+G|1|1|1|1|1|1|·|·|the 20 types marked G†
"""
# Alternative moves of the modern profile (§6.12), in the same symbols.
MODERN = {"Do": "1J|1J|1|1|·|·|·|·", "FBe": "·|·|∞|∞|∞|∞|∞|∞", "FDr": "∞|∞|∞|∞|·|·|∞|∞",
          "FW": "∞|·|∞|∞|∞|∞|·|·"}
REL = [(0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1)]


def spec_rows():
    rows = {}
    for line in SPEC_TABLE.strip().splitlines():
        parts = line.split("|")
        rows[parts[0]] = parts[1:9]
    return rows


ROWS = spec_rows()
# The first 50 rows are the initial types; their last column is the promoted form (§3.2).
PROMOTABLE = {line.split("|")[0] for line in SPEC_TABLE.strip().splitlines()[:50]
              if line.split("|")[9] != "—"}
PROMOTED = set(list(ROWS)[50:])


def on(x, y):
    return 0 <= x < 19 and 0 <= y < 19


def ref_moves(board, x0, y0, profile):
    """Set of (to, frozenset(captures)) for the piece at (x0, y0); board: {(x, y): (side, abbr)}."""
    side, abbr = board[(x0, y0)]
    sign = 1 if side == 0 else -1
    modern = profile == "modern"
    entries = MODERN.get(abbr, "|".join(ROWS[abbr])).split("|") if modern else ROWS[abbr]
    out = set()

    def friend(p):
        return p in board and board[p][0] == side

    def enemy(p):
        return p in board and board[p][0] != side

    def add(p, caps=()):
        out.add((p, frozenset(caps)))

    def single(p):
        if on(*p) and not friend(p):
            add(p, [p] if enemy(p) else [])

    linear = modern and abbr in ("LD", "FF", "TK")
    if abbr in ("LD", "FF") and linear:
        entries = ["·"] * 8
    for i, entry in enumerate(entries):
        dx, dy = REL[i][0] * sign, REL[i][1] * sign
        if entry in ("1", "2", "3", "5", "∞", "∞J", "1J"):
            n = 99 if entry.startswith("∞") else int(entry[0])
            for k in range(1, n + 1):
                p = (x0 + dx * k, y0 + dy * k)
                if not on(*p) or friend(p):
                    break
                single(p)
                if enemy(p):
                    break
        if "J" in entry:
            single((x0 + 2 * dx, y0 + 2 * dy))
        if entry == "N":
            for side_step in (-1, 1):
                single((x0 + side_step, y0 + 2 * dy))
        if entry == "H":
            for k in range(1, 19):
                p = (x0 + dx * k, y0 + dy * k)
                if not on(*p) or friend(p):
                    break
                single(p)
                if enemy(p):
                    break
                for ex, ey in ((-dy, dx), (dy, -dx)):
                    for j in range(1, 19):
                        q = (p[0] + ex * j, p[1] + ey * j)
                        if not on(*q) or friend(q) or q == (x0, y0):
                            break
                        single(q)
                        if enemy(q):
                            break
    if abbr in ("Ln", "FF", "BSp"):
        for x in range(x0 - 2, x0 + 3):
            for y in range(y0 - 2, y0 + 3):
                if (x, y) != (x0, y0):
                    single((x, y))
        for ax in (-1, 0, 1):
            for ay in (-1, 0, 1):
                a = (x0 + ax, y0 + ay)
                if (ax, ay) == (0, 0) or not on(*a) or friend(a):
                    continue
                for bx in (-1, 0, 1):
                    for by in (-1, 0, 1):
                        b = (a[0] + bx, a[1] + by)
                        if (bx, by) == (0, 0) or not on(*b):
                            continue
                        caps = [a] if enemy(a) else []
                        if b == (x0, y0):
                            if caps or any(on(x0 + u, y0 + v) and (x0 + u, y0 + v) not in board
                                           for u in (-1, 0, 1) for v in (-1, 0, 1) if (u, v) != (0, 0)):
                                add(b, caps)
                            continue
                        if friend(b):
                            continue
                        add(b, caps + ([b] if enemy(b) else []))
    if linear:
        for dx, dy in REL:
            d = [(x0 + dx * k, y0 + dy * k) for k in (1, 2, 3)]
            for seq in ([d[0]], [d[0], (x0, y0)], [d[0], d[1]], [d[0], d[1], d[0]], d):
                if not all(on(*p) for p in seq):
                    continue
                caps, ok = [], True
                for p in seq:
                    if p == (x0, y0) or p in caps:
                        continue
                    if friend(p):
                        ok = False
                        break
                    if enemy(p):
                        caps.append(p)
                if ok:
                    add(seq[-1], caps)
            for p in d[1:]:
                single(p)
    if abbr == "E":
        for x in range(19):
            for y in range(19):
                if (x, y) != (x0, y0):
                    single((x, y))
    return out


def engine_position(board, turn, rules):
    rows = []
    for y in range(19):
        cells, run = [], 0
        for x in range(19):
            if (x, y) in board:
                if run:
                    cells.append(str(run))
                    run = 0
                side, abbr = board[(x, y)]
                cells.append(("v" if side else "") + abbr)
            else:
                run += 1
        if run:
            cells.append(str(run))
        rows.append(",".join(cells))
    return GAME.parse_position("/".join(rows) + f" {'bw'[turn]} 1", GAME.parse_rules(rules))


def engine_moves(pos, x, y):
    sq = y * 19 + x
    return {((m.target % 19, m.target // 19), frozenset((c % 19, c // 19) for c in m.captures))
            for m in pos.legal_moves(origin=sq)}


def scene(abbr, side, blockers, seed):
    board = {(0, 18): (0, "K"), (18, 0): (1, "K"), (9, 9): (side, abbr)}
    if blockers:
        rng = random.Random(seed)
        for x in range(4, 15):
            for y in range(4, 15):
                if (x, y) != (9, 9) and rng.random() < 0.3:
                    board[(x, y)] = (rng.randrange(2), rng.choice(["P", "G", "+P"]))
    return board


@pytest.mark.parametrize("profile", ["tsa", "modern"])
@pytest.mark.parametrize("blockers", [False, True], ids=["empty", "blockers"])
@pytest.mark.parametrize("side", [0, 1], ids=["black", "white"])
@pytest.mark.parametrize("abbr", sorted(ROWS))
def test_piece_move_set_matches_spec_table(abbr, side, blockers, profile):
    """§3.2/§3.3/§6: each piece type's moves on 10j equal the spec table's, for both colours."""
    for seed in range(3 if blockers else 1):
        board = scene(abbr, side, blockers, hash((abbr, seed)) & 0xFFFF)
        pos = engine_position(board, side, f"{profile}; emperor-capture=any")
        expected = ref_moves(board, 9, 9, profile)
        assert engine_moves(pos, 9, 9) == expected, (abbr, side, seed)
        if not blockers:
            assert expected  # every type can move on an empty board


def ref_all(board, turn, profile):
    moves = []
    for (x, y), (side, _) in sorted(board.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if side == turn:
            moves.extend(((x, y), to, caps) for to, caps in ref_moves(board, x, y, profile))
    return moves


def ref_perft(board, turn, depth, profile):
    if depth == 0:
        return 1
    moves = ref_all(board, turn, profile)
    if depth == 1:
        # modern: a promotable capture of unpromoted pieces may promote or not (§8.2)
        return sum(2 if profile == "modern" and caps and board[origin][1] in PROMOTABLE
                   and not any(board[c][1] in PROMOTED for c in caps) else 1
                   for origin, _, caps in moves)
    total = 0
    for origin, to, caps in moves:
        assert not caps  # no capture is possible within three plies of the start
        after = dict(board)
        piece = after.pop(origin)
        after[to] = piece
        total += ref_perft(after, 1 - turn, depth - 1, profile)
    return total


def initial_board():
    pos = GAME.start_position(GAME.parse_rules(None))
    from notation_tools.games.maka.pieces import TYPE_OF_ID
    return {(sq % 19, sq // 19): (code & 1, TYPE_OF_ID[code >> 1].abbr)
            for sq, code in enumerate(pos.board) if code}


PERFT = json.loads((pathlib.Path(__file__).parents[2] / "data" / "maka" / "perft.json").read_text())


@pytest.mark.parametrize("profile", ["tsa", "modern"])
@pytest.mark.parametrize("depth", [1, 2])
def test_perft_initial_confirmed_by_reference(profile, depth):
    """§8.2/§14.3: engine perft = reference perft = published number."""
    pos = GAME.start_position(GAME.parse_rules(profile))
    expected = PERFT["counts"][profile][str(depth)]
    assert perft(pos, depth) == expected
    assert ref_perft(initial_board(), 0, depth, profile) == expected


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["tsa", "modern"])
def test_perft_3_initial_confirmed_by_reference(profile):
    """§8.2/§14.3 depth 3 (slow)."""
    pos = GAME.start_position(GAME.parse_rules(profile))
    expected = PERFT["counts"][profile]["3"]
    assert perft(pos, 3) == expected
    assert ref_perft(initial_board(), 0, 3, profile) == expected


@pytest.mark.parametrize("profile", ["tsa", "modern"])
@pytest.mark.parametrize("seed", range(6))
def test_attack_map_matches_reference(profile, seed):
    """§6.6 "Attack": the engine's attack test equals "some piece has a capturing move there"
    by the reference generator, on crowded random boards (Emperors excluded: they defend by
    option)."""
    rng = random.Random(seed)
    names = [a for a in ROWS if a != "E"]
    board = {}
    for _ in range(70):
        board[(rng.randrange(19), rng.randrange(19))] = (rng.randrange(2), rng.choice(names))
    board[(0, 18)] = (0, "K")
    board[(18, 0)] = (1, "K")
    for _ in range(40):
        q = (rng.randrange(19), rng.randrange(19))
        side = rng.randrange(2)
        trial = dict(board)
        trial[q] = (1 - side, "P")
        pos = engine_position(trial, side, profile)
        sq = q[1] * 19 + q[0]
        expected = any(q in {to for to, _ in ref_moves(trial, x, y, profile)}
                       for (x, y), (s, _) in trial.items() if s == side and (x, y) != q)
        assert (pos.attacker(sq, side) is not None) == expected, (q, side)
