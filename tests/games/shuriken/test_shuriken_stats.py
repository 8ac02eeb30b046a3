"""Shuriken 2D statistics (§9) and the per-move figures."""

from __future__ import annotations

import pathlib
import random
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from shuriken_vectors import S2  # noqa: E402

from notation_tools.games.shuriken import GAME  # noqa: E402
from notation_tools.games.shuriken.moves import SWAP  # noqa: E402
from notation_tools.games.shuriken.pieces import (  # noqa: E402
    CELL_NAME, EMPTY_AT_START, ZONE, ZONES, rotate, transpose)
from notation_tools.analysis.generate import random_move


def collect(tokens: list[str], *, rules_text: str | None = None, fen: str | None = None):
    rules = GAME.parse_rules(rules_text)
    position = GAME.start_position(rules, fen=fen)
    stats = GAME.new_stats(rules)
    for token in tokens:
        move = GAME.parse_move(token, position)
        before = position.copy()
        position.push(move)
        stats.add(before, move, position)
    return stats, stats.summary(position, position.outcome()), position


def test_s9_winning_record_from_s2():
    """§9 on §12 S2: the set-up loop counts at ply 0, B12 forms {W3} and wins at ply 1."""
    stats, summary, _ = collect(["B12"], fen=S2)
    assert summary["captures"] == 0
    assert summary["plies"] == 1
    assert summary["winner"] == "Black" and summary["winning_ply"] == 1
    assert summary["black_first_loop_ply"] == 0
    assert summary["black_rank2_ply"] == 1
    assert summary["black_loops_formed"] == "single{W1}@0 single{W3}@1"
    assert summary["black_loops"] == "single{W1} single{W3}"
    assert summary["black_rank"] == 2 and summary["white_rank"] == 0
    assert summary["black_single_loops"] == 2 and summary["black_double_loops"] == 0
    assert summary["white_first_loop_ply"] is None
    assert summary["black_placements"] == 1 and summary["white_placements"] == 0
    assert summary["fill_ratio"] == round(summary["black_stones"] / 319, 4)
    assert summary["black_largest_group"] == 20   # D1-D4 C5 B6-B18 C18 C19: the {W3} chain
    assert stats.per_move == [{"ply": 1, "side": 0, "cell": "B12", "rank": 2,
                               "new_loops": "single{W3}"}]


def test_s9_summary_is_flat_and_scalar():
    """§9 / StatsCollector: str keys, scalar values, `captures` present."""
    rng = random.Random(11)
    position = GAME.start_position(GAME.parse_rules(None))
    tokens = []
    while position.outcome() is None:
        move = random_move(GAME, position, rng)
        tokens.append(GAME.format_move(move, position))
        position.push(move)
    stats, summary, final = collect(tokens)
    assert all(isinstance(k, str) for k in summary)
    assert all(v is None or isinstance(v, (int, float, str)) for v in summary.values())
    winner = final.outcome().winner
    prefix = ("black", "white")[winner]
    assert summary["winner"] == ("Black", "White")[winner]
    assert summary["winning_ply"] == len(tokens) == summary["plies"]
    assert summary[f"{prefix}_rank2_ply"] == len(tokens)
    assert summary[f"{prefix}_first_loop_ply"] <= summary[f"{prefix}_rank2_ply"]
    assert summary["black_placements"] + summary["white_placements"] == len(tokens)
    assert summary["black_stones"] + summary["white_stones"] == len(tokens)
    assert summary["fill_ratio"] == round(len(tokens) / 319, 4)
    assert len(stats.per_move) == len(tokens)
    formed = [loop for entry in stats.per_move if entry["side"] == winner
              for loop in entry["new_loops"].split()]
    assert sorted(formed) == sorted(summary[f"{prefix}_loops"].split())
    kinds = sum(summary[f"{prefix}_{kind}_loops"] for kind in ("single", "double", "triple"))
    assert kinds == len(summary[f"{prefix}_loops"].split())


def test_s9_swap_counts():
    """§6, §9: a swap is White's turn; afterwards Black has no stone and White one."""
    stats, summary, _ = collect(["K10", "swap"], rules_text="swap=yes")
    assert summary["swaps"] == 1
    assert summary["black_placements"] == 1 and summary["white_placements"] == 1
    assert summary["black_stones"] == 0 and summary["white_stones"] == 1
    assert stats.per_move[1]["cell"] == "J11"
    assert summary["winner"] is None and summary["winning_ply"] is None


def test_s9_empty_record():
    stats = GAME.new_stats(GAME.parse_rules(None))
    position = GAME.start_position(GAME.parse_rules(None))
    summary = stats.summary(position, None)
    assert summary["plies"] == 0 and summary["fill_ratio"] == 0.0
    assert summary["black_largest_group"] == 0


def test_s9_describe_move():
    """§9 per-move hook: rank after the move and the loops it forms; position unchanged."""
    position = GAME.start_position(GAME.parse_rules(None), fen=S2)
    move = GAME.parse_move("B12", position)
    assert GAME.describe_move(move, position) == {"rank": 2, "new_loops": "single{W3}",
                                                  "wins": True}
    assert position.ply == 0 and position.winner is None
    assert GAME.describe_move(GAME.parse_move("S19", position), position) == {
        "rank": 1, "new_loops": "", "wins": False}


def test_issue_stones_per_region():
    """Issue: stones per region (nearest window W1/W2/W3 or between) add up to the stones."""
    rng = random.Random(4)
    position = GAME.start_position(GAME.parse_rules(None))
    tokens = []
    for _ in range(80):
        move = random_move(GAME, position, rng)
        tokens.append(GAME.format_move(move, position))
        position.push(move)
    _, summary, _ = collect(tokens)
    for prefix in ("black", "white"):
        zones = [summary[f"{prefix}_stones_{zone}"] for zone in ("w1", "w2", "w3", "between")]
        assert sum(zones) == summary[f"{prefix}_stones"] == 40
    _, summary, _ = collect(["N3", "F17", "A1", "J10"])
    assert (summary["black_stones_w1"], summary["black_stones_w3"]) == (1, 1)
    assert (summary["white_stones_w2"], summary["white_stones_between"]) == (1, 1)


def test_regions_are_symmetric():
    """The regions respect §1.6: rotation and transpose swap W1 and W2 and keep the rest."""
    swap = {"W1": "W2", "W2": "W1"}
    for cell, zone in ZONE.items():
        assert ZONE[rotate(cell)] == swap.get(zone, zone)
        assert ZONE[transpose(cell)] == swap.get(zone, zone)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), swap=st.booleans(), length=st.integers(0, 320))
def test_collector_matches_the_figures_found_ply_by_ply(seed, swap, length):
    """The collector notes only the plies that leave the mover a loop and counts the stones
    and groups from the board's labels: the same figures as working each ply out in full."""
    rules = GAME.parse_rules("swap=yes" if swap else None)
    position = GAME.start_position(rules)
    stats = GAME.new_stats(rules)
    rng = random.Random(seed)
    known: list[set[str]] = [set(), set()]
    expected, first_loop, placements = [], [None, None], [0, 0]
    while position.outcome() is None and position.ply < length:
        move = SWAP if position.can_swap() else random_move(GAME, position, rng)
        side = position.turn
        cell = (transpose(position.moves[0].target) if move is SWAP else move.target)
        stats.before_move(position, move)
        position.push(move)
        stats.after_move(position)
        new = [loop for loop in position.loops(side) if loop not in known[side]]
        known[side].update(new)
        rank = position.rank(side)
        if rank and first_loop[side] is None:
            first_loop[side] = position.ply
        placements[side] += 1
        expected.append({"ply": position.ply, "side": side, "cell": CELL_NAME[cell],
                         "rank": rank, "new_loops": " ".join(new)})
    assert stats.per_move == expected
    summary = stats.summary(position, position.outcome())
    board = position.board
    for side, prefix in enumerate(("black", "white")):
        assert summary[f"{prefix}_first_loop_ply"] == first_loop[side]
        assert summary[f"{prefix}_placements"] == placements[side]
        assert summary[f"{prefix}_largest_group"] == max(
            (len(set(EMPTY_AT_START).intersection(group)) for group in position.groups(side)),
            default=0)
        for zone in ZONES:
            assert summary[f"{prefix}_stones_{zone.lower()}"] == sum(
                1 for cell in EMPTY_AT_START if board[cell] == side + 1 and ZONE[cell] == zone)
    assert summary["swaps"] == sum(1 for move in position.moves if move is SWAP)
