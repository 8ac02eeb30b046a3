"""The incremental answer to "is this royal attacked?" (``Position.may_attack_anew``, issue #14)
never says no where the full attack test (``self_check_by``) says yes, and the statistics
built on it count the same self-checks as the full test run after every move."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation_tools.analysis.generate import random_move
from notation_tools.games.maka import GAME
from notation_tools.games.maka.pieces import (EMPEROR_ID, GP_ID, NSQ, ROYAL_IDS, TYPE_ID, TYPES,
                                              distance, distances_from)
from notation_tools.games.maka.rules import Position
from notation_tools.games.maka.stats import _immobile
from tests.games.maka.test_maka_properties import random_rules


def random_board(rng: random.Random, rules) -> Position:
    """Kings and a random crowd (dense or sparse, so that lines open and close), with hook
    movers, Lion-type pieces and jumpers among them; now and then an Emperor or a Prince."""
    board = [0] * NSQ
    count = rng.choice([12, 24, 40, 70])
    squares = rng.sample(range(NSQ), count)
    board[squares[0]] = TYPE_ID["K"] * 2
    board[squares[1]] = TYPE_ID["K"] * 2 + 1
    special = ["HM", "Ca", "Ln", "LD", "FF", "TK", "BSp", "N", "Ky", "Ph", "FBe", "Do"]
    ordinary = [t.abbr for t in TYPES if t.abbr not in ("K", "E", "Pr")]
    for sq in squares[2:]:
        kind = rng.choice(special) if rng.random() < 0.3 else rng.choice(ordinary)
        board[sq] = TYPE_ID[kind] * 2 + rng.randrange(2)
    if rng.random() < 0.2:
        board[squares[-1]] = TYPE_ID[rng.choice(["E", "Pr"])] * 2 + rng.randrange(2)
    return Position(board, rng.randrange(2), 1, rules)


def royal_changed(pos: Position, move) -> bool:
    """Whether ``move`` (about to be played) moves, makes or takes a royal."""
    board = pos.board
    return (board[move.origin] >> 1 in ROYAL_IDS or move.becomes in ROYAL_IDS
            or any(board[c] >> 1 in ROYAL_IDS for c in move.captures))


def compare_along(pos: Position, rng: random.Random, plies: int) -> tuple[int, int]:
    """Play up to ``plies`` random moves; at each, judge every side whose one royal was not
    attacked one or two plies before. Returns (judged, answered without the full test)."""
    judged = quick = 0
    known: list[list[tuple[int, bytes, int]]] = [[], []]
    for _ in range(plies):
        move = random_move(GAME, pos, rng)
        if move is None:
            break
        if royal_changed(pos, move):
            known = [[], []]
        pos.push(move)
        depth = len(pos.stack)
        for side in (0, 1):
            full = pos.self_check_by(side)
            for q, watch, since in known[side]:
                if depth - since > 2:
                    continue
                judged += 1
                if not pos.may_attack_anew(q, 1 - side, depth - since, watch):
                    quick += 1
                    assert full is None, (str(move), side, q)
            royals = pos.royals(side)
            if full is None and len(royals) == 1:
                known[side].append((royals[0], pos.attack_watch(royals[0], 1 - side), depth))
            known[side] = [entry for entry in known[side] if depth - entry[2] < 2]
    return judged, quick


def compare_kept(pos: Position, rng: random.Random, plies: int) -> tuple[int, int]:
    """Like :func:`compare_along`, but as the statistics use it: a side's watch, made after a
    move of its that left its one royal unattacked, is kept from move to move of that side
    for as long as the quick answer is no, so what the watch learns as lines open must stay
    true. Returns (judged, answered without the full test)."""
    judged = quick = 0
    kept: list[tuple[int, bytearray] | None] = [None, None]
    for _ in range(plies):
        move = random_move(GAME, pos, rng)
        if move is None:
            break
        if royal_changed(pos, move):
            kept = [None, None]
        mover = pos.turn
        pos.push(move)
        full = pos.self_check_by(mover)
        entry = kept[mover]
        if entry is not None and len(pos.stack) >= 2:
            judged += 1
            if not pos.may_attack_anew(entry[0], 1 - mover, 2, entry[1]):
                quick += 1
                assert full is None, (str(move), mover, entry[0])
                continue
        royals = pos.royals(mover)
        kept[mover] = (royals[0], pos.attack_watch(royals[0], 1 - mover)) \
            if full is None and len(royals) == 1 else None
    return judged, quick


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_a_kept_watch_misses_no_new_attack(seed):
    rng = random.Random(seed)
    rules = GAME.parse_rules(random_rules(rng))
    if rng.random() < 0.5:
        compare_kept(random_board(rng, rules), rng, 60)
    else:
        compare_kept(GAME.start_position(rules), rng, 200)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_no_new_attack_is_missed_on_random_boards(seed):
    rng = random.Random(seed)
    pos = random_board(rng, GAME.parse_rules(random_rules(rng)))
    compare_along(pos, rng, 30)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_no_new_attack_is_missed_in_random_games(seed):
    rng = random.Random(seed)
    pos = GAME.start_position(GAME.parse_rules(random_rules(rng)))
    compare_along(pos, rng, 150)


def test_the_quick_answer_is_given_often_and_not_always():
    rng = random.Random(14)
    judged = quick = 0
    for _ in range(30):
        pos = random_board(rng, GAME.parse_rules(random_rules(rng)))
        counts = compare_along(pos, rng, 30)
        judged, quick = judged + counts[0], quick + counts[1]
    assert judged > 300
    assert 0.2 * judged < quick < judged


def test_the_table_of_distances_is_the_king_distance():
    """§6.3's king distance, read from the table the statistics use for moves' lengths, for
    every pair of squares: the larger of the rows and the columns between."""
    table = distances_from()
    assert len(table) == NSQ
    for a in range(NSQ):
        assert len(table[a]) == NSQ
        ra, ca = divmod(a, 19)
        assert list(table[a]) == [max(abs(ra - rb), abs(ca - cb))
                                  for rb in range(19) for cb in range(19)]


def plain_figures(final: Position, least: list[int]) -> dict[str, int]:
    """The end-of-record figures of §13, counted by walking the board."""
    data = {}
    for side, key in enumerate(("black", "white")):
        pieces = list(final.pieces(side))
        data[f"pieces_{key}"] = len(pieces)
        data[f"pieces_min_{key}"] = min(least[side], len(pieces))
        data[f"royals_{key}"] = len(final.royals(side))
        data[f"emperor_{key}"] = sum(1 for _, c in pieces if c >> 1 == EMPEROR_ID)
        data[f"gold_promoted_{key}"] = sum(1 for _, c in pieces if c >> 1 == GP_ID)
        data[f"immobile_{key}"] = sum(1 for sq, c in pieces
                                      if _immobile(sq, c) and not final.piece_moves(sq, c))
    return data


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_statistics_count_what_the_full_tests_count(seed):
    """The self-checks by the full attack test after every move, and the per-move figures
    the collector reads from the moves at the end, counted plainly ply by ply."""
    rng = random.Random(seed)
    rules = GAME.parse_rules(random_rules(rng))
    pos = random_board(rng, rules) if rng.random() < 0.5 else GAME.start_position(rules)
    for _ in range(rng.choice([0, 0, 1, 4])):  # moves before the collector's first
        move = random_move(GAME, pos, rng)
        if move is not None:
            pos.push(move)
    stats = GAME.new_stats(rules)
    self_checks, moves = [0, 0], [0, 0]
    quiet = longest_quiet = longest = legs = 0
    longest_ply = first_capture = None
    occurrences = 1
    kinds = dict.fromkeys(("igui", "passes", "emperor_moves", "emperor_captures", "hook_moves",
                           "lion_moves"), 0)
    least = [pos.piece_count(0), pos.piece_count(1)]
    for ply in range(1, rng.randrange(1, 120) + 1):
        move = random_move(GAME, pos, rng)
        if move is None:
            break
        mover = pos.turn
        code = pos.board[move.origin]
        kinds["igui"] += move.origin == move.target and bool(move.captures)
        kinds["passes"] += move.origin == move.target and not move.captures
        kinds["emperor_moves"] += bool(pos.t.emperor[code])
        kinds["emperor_captures"] += bool(pos.t.emperor[code] and move.captures)
        kinds["hook_moves"] += pos.t.hook[code] is not None
        kinds["lion_moves"] += bool(pos.t.lion[code] or pos.t.ldog[code])
        stats.before_move(pos, move)
        pos.push(move)
        stats.after_move(pos)
        occurrences = max(occurrences, pos.counts[pos.key])
        if pos.self_check_by(mover) is not None:
            self_checks[mover] += 1
        moves[mover] += 1
        quiet = 0 if move.captures else quiet + 1
        if move.captures and first_capture is None:
            first_capture = ply
        longest_quiet = max(longest_quiet, quiet)
        if distance(move.origin, move.target) > longest:
            longest, longest_ply = distance(move.origin, move.target), ply
        legs = max(legs, len(move.path))
        least = [min(least[side], sum(1 for _ in pos.pieces(side))) for side in (0, 1)]
    figures = stats.summary(pos, None)
    assert [figures["self_checks_black"], figures["self_checks_white"]] == self_checks
    assert [figures["moves_black"], figures["moves_white"]] == moves
    assert figures["longest_capture_free"] == longest_quiet
    assert figures["first_capture_ply"] == first_capture
    assert figures["longest_move"] == longest
    assert figures["longest_move_ply"] == longest_ply
    assert figures["most_legs"] == legs
    assert figures["max_position_occurrences"] == occurrences
    for name, count in kinds.items():
        assert figures[name] == count, name
    for name, value in plain_figures(pos, least).items():
        assert figures[name] == value, name


def test_a_lion_dog_unblocked_behind_an_enemy_piece_is_seen():
    """§6.5 with `lion-dog-leap=no`: only the Lion Dog's own pieces block it, so when the
    Black Rook two squares from the White King moves away, the Lion Dog three squares away
    attacks the King over the White piece next to it (no clear line from the King)."""
    rules = GAME.parse_rules("tsa; lion-dog=linear; lion-dog-leap=no")
    king, white_piece, black_rook, lion_dog = (row * 19 + 9 for row in (9, 10, 11, 12))
    board = [0] * NSQ
    board[king] = TYPE_ID["K"] * 2 + 1
    board[white_piece] = TYPE_ID["P"] * 2 + 1
    board[black_rook] = TYPE_ID["R"] * 2
    board[lion_dog] = TYPE_ID["LD"] * 2
    board[18 * 19] = TYPE_ID["K"] * 2
    pos = Position(board, 0, 1, rules)
    assert pos.self_check_by(1) is None
    watch = pos.attack_watch(king, 0)
    pos.push(next(m for m in pos.moves_from(black_rook) if m.target == black_rook - 8))
    assert pos.self_check_by(1) == lion_dog
    assert pos.may_attack_anew(king, 0, 1, watch)



def sq(row: int, col: int) -> int:
    return row * 19 + col


def play(pos: Position, origin: int, target: int) -> None:
    pos.push(next(m for m in pos.moves_from(origin) if m.target == target))


def test_a_hook_mover_that_moved_is_watched_from_where_it_stands():
    """§6.4: a Black Hook Mover moves to where only a Black Rook on its first leg stops it
    from reaching the White King; the watch built before that move gets the new leg, so the
    Rook stepping aside is seen."""
    rules = GAME.parse_rules(None)
    king, hook, rook = sq(9, 9), sq(17, 1), sq(12, 3)
    board = [0] * NSQ
    board[king] = TYPE_ID["K"] * 2 + 1
    board[sq(18, 18)] = TYPE_ID["K"] * 2
    board[hook] = TYPE_ID["HM"] * 2
    board[rook] = TYPE_ID["R"] * 2
    board[sq(12, 9)] = TYPE_ID["G"] * 2 + 1  # closes the hook's other path
    board[sq(9, 2)] = TYPE_ID["G"] * 2 + 1
    board[sq(2, 16)] = TYPE_ID["G"] * 2 + 1  # moves to pass the turn
    pos = Position(board, 0, 1, rules)
    assert pos.self_check_by(1) is None
    watch = pos.attack_watch(king, 0)
    play(pos, hook, sq(16, 3))
    play(pos, sq(2, 16), sq(2, 15))
    assert pos.self_check_by(1) is None
    assert not pos.may_attack_anew(king, 0, 2, watch)
    play(pos, rook, sq(12, 2))
    play(pos, sq(2, 15), sq(2, 16))
    assert pos.self_check_by(1) == sq(16, 3)
    assert pos.may_attack_anew(king, 0, 2, watch)


def test_a_kept_watch_follows_a_line_that_opens_twice():
    """§6.6: two White Golds stand between the White King and a Black Rook on the King's
    file. The nearer one steps aside (no attack: the other still blocks); the watch kept
    from then must see the second one step aside, which leaves the King to the Rook."""
    rules = GAME.parse_rules(None)
    king, near, far, rook = sq(9, 9), sq(7, 9), sq(5, 9), sq(3, 9)
    board = [0] * NSQ
    board[king] = TYPE_ID["K"] * 2 + 1
    board[sq(18, 0)] = TYPE_ID["K"] * 2
    board[near] = board[far] = TYPE_ID["G"] * 2 + 1
    board[rook] = TYPE_ID["R"] * 2
    board[sq(16, 0)] = TYPE_ID["G"] * 2  # moves to pass the turn
    pos = Position(board, 0, 1, rules)
    watch = pos.attack_watch(king, 0)
    play(pos, sq(16, 0), sq(16, 1))
    play(pos, near, sq(7, 10))
    assert pos.self_check_by(1) is None
    assert not pos.may_attack_anew(king, 0, 2, watch)
    play(pos, sq(16, 1), sq(16, 0))
    play(pos, far, sq(5, 10))
    assert pos.self_check_by(1) == rook
    assert pos.may_attack_anew(king, 0, 2, watch)


@pytest.mark.parametrize(
    "hook_mover, hook, white_gold, white_step, black_gold, black_step, closer", [
    # the Hook Mover turns on the King's rank at 9,3; the path turning at 15,9 is closed
    ("HM", sq(15, 3), sq(9, 6), sq(10, 6), sq(12, 3), sq(12, 2), sq(12, 9)),
    # the Capricorn turns on the King's diagonal at 12,6; the path turning at 12,12 is closed
    ("Ca", sq(15, 9), sq(10, 8), sq(10, 7), sq(13, 7), sq(13, 6), sq(10, 10)),
])
def test_a_kept_watch_marks_a_hook_path_whose_second_leg_opened(
        hook_mover, hook, white_gold, white_step, black_gold, black_step, closer):
    """§6.4, both kinds of hook mover: a Black hook mover's path to the White King turns on
    a line of the King, where a White Gold blocks it, and a Black Gold stands on its first
    leg (its other path is closed for good by another White Gold). The White Gold steps off
    the line (no attack: the Black Gold still blocks); the watch kept from then must see the
    Black Gold step aside. The pieces that pass the turn stand off the King's lines."""
    rules = GAME.parse_rules(None)
    king = sq(9, 9)
    board = [0] * NSQ
    board[king] = TYPE_ID["K"] * 2 + 1
    board[sq(18, 0)] = TYPE_ID["K"] * 2
    board[hook] = TYPE_ID[hook_mover] * 2
    board[white_gold] = board[closer] = TYPE_ID["G"] * 2 + 1
    board[black_gold] = TYPE_ID["G"] * 2
    board[sq(16, 4)] = TYPE_ID["G"] * 2
    board[sq(2, 14)] = TYPE_ID["G"] * 2 + 1
    pos = Position(board, 0, 1, rules)
    assert pos.self_check_by(1) is None
    watch = pos.attack_watch(king, 0)
    play(pos, sq(16, 4), sq(16, 5))
    play(pos, white_gold, white_step)
    assert pos.self_check_by(1) is None
    assert not pos.may_attack_anew(king, 0, 2, watch)
    play(pos, black_gold, black_step)
    play(pos, sq(2, 14), sq(2, 13))
    assert pos.self_check_by(1) == hook
    assert pos.may_attack_anew(king, 0, 2, watch)


def test_a_piece_leaving_the_royal_is_judged_by_the_line_it_opens():
    """The King's own Gold steps off the King's file: with a Black Rook further down the
    file the King is attacked, without one the quick answer says no attack opened."""
    rules = GAME.parse_rules(None)
    king, gold = sq(9, 9), sq(8, 9)
    for rook_there in (True, False):
        board = [0] * NSQ
        board[king] = TYPE_ID["K"] * 2 + 1
        board[gold] = TYPE_ID["G"] * 2 + 1
        board[sq(18, 0)] = TYPE_ID["K"] * 2
        if rook_there:
            board[sq(3, 9)] = TYPE_ID["R"] * 2
        board[sq(16, 0)] = TYPE_ID["G"] * 2  # moves to pass the turn
        pos = Position(board, 0, 1, rules)
        watch = pos.attack_watch(king, 0)
        play(pos, sq(16, 0), sq(16, 1))
        play(pos, gold, sq(8, 10))
        attacked = pos.self_check_by(1) is not None
        assert attacked == rook_there
        assert pos.may_attack_anew(king, 0, 2, watch) == rook_there


def test_most_occurrences_of_a_position_count_only_the_plies_noted():
    """§6.13: the Kings step out and back, so the start position comes back after every four
    plies. The figure counts the occurrences after the plies the collector noted, whether it
    started at the start position or one ply later."""
    rules = GAME.parse_rules(None)
    black, white = sq(18, 0), sq(0, 18)
    steps = [(black, sq(17, 0)), (white, sq(1, 18)), (sq(17, 0), black), (sq(1, 18), white)]
    for prefix, plies, expected in ((0, 8, 3), (0, 7, 2), (1, 7, 3), (1, 6, 2)):
        board = [0] * NSQ
        board[black] = TYPE_ID["K"] * 2
        board[white] = TYPE_ID["K"] * 2 + 1
        pos = Position(board, 0, 1, rules)
        for ply in range(prefix):
            play(pos, *steps[ply % 4])
        stats = GAME.new_stats(rules)
        for ply in range(prefix, prefix + plies):
            origin, target = steps[ply % 4]
            move = next(m for m in pos.moves_from(origin) if m.target == target)
            stats.before_move(pos, move)
            pos.push(move)
            stats.after_move(pos)
        assert stats.summary(pos, None)["max_position_occurrences"] == expected, (prefix, plies)
