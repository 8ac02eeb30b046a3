"""The replay driver: game and rules resolution, start positions, numbers, results, variations."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st

from notation_tools.parallel.batch import iter_records
from notation_tools.analysis.replay import replay
from notation_tools.records.pgn import read_records


def replay_text(text: str, **options):
    (record,) = list(read_records(text.splitlines(), "t.pgn"))
    return replay(record, **options)


def codes(result) -> list[str]:
    return [d.code for d in result.diagnostics]


HEAD = '[Variant "elevation"]\n'


def test_a_valid_record_replays_every_ply():
    result = replay_text(HEAD + "\n1. c1:c2>b2,c1-c2 d6:d5>c5,d6-d5 *")
    assert result.is_valid and result.plies == 2 and result.complete
    assert result.rules.describe() == "standard" and result.result == "*"


def test_game_tag_is_accepted_for_variant_and_alias_case_is_ignored():
    assert replay_text('[Game "ELEVATION"]\n\n1. c1:c2>b2,c1-c2 *').is_valid


def test_unknown_and_missing_variant():
    assert codes(replay_text('[Variant "chess"]\n\n1. e4 *')) == ["E-UNKNOWN-VARIANT"]
    assert codes(replay_text('[Event "x"]\n\n1. c1:c2>b2,c1-c2 *')) == ["E-UNKNOWN-VARIANT"]
    assert replay_text('[Event "x"]\n\n1. c1:c2>b2,c1-c2 *', game_name="elevation").is_valid


def test_rules_override_replaces_the_tag():
    text = HEAD + '[Rules "standard; max-height=3"]\n\n1. c1:c2>b2,c1-c2 *'
    assert codes(replay_text(text)) == ["E-ILLEGAL-MOVE"]  # b2 would hold 4 tiles
    assert replay_text(text, rules_text="standard").is_valid
    bad = replay_text(text, rules_text="standard; max-height=-1")
    assert codes(bad) == ["E-BAD-RULES"] and "--rules" in bad.diagnostics[0].message


def test_fen_and_first_player_tags():
    fen = "333333/333333/333333/333333/333333/333333 5s/6/6/2S3/6/6 w"
    ok = replay_text(HEAD + f'[SetUp "1"]\n[FEN "{fen}"]\n\n1. c3:d4>b2,c3-d4 *')
    assert ok.is_valid
    conflict = replay_text(HEAD + f'[SetUp "1"]\n[FEN "{fen}"]\n[FirstPlayer "Black"]\n\n*')
    assert codes(conflict) == ["E-TAG-CONFLICT"]
    bad = replay_text(HEAD + '[SetUp "1"]\n[FEN "3<7>3333/x"]\n\n*')
    assert codes(bad) == ["E-BAD-POSITION"] and bad.diagnostics[0].line == 3
    missing = replay_text(HEAD + '[SetUp "1"]\n\n*')
    assert codes(missing) == ["E-BAD-TAG"]
    black_first = replay_text(HEAD + '[FirstPlayer "black"]\n\n1... d6:d5>c5,d6-d5 2. c1:c2>b2,c1-c2 *')
    assert black_first.is_valid, black_first.diagnostics
    assert codes(replay_text(HEAD + '[FirstPlayer "Red"]\n\n*')) == ["E-BAD-TAG"]


def test_move_numbers_are_checked_for_both_sides():
    good = replay_text(HEAD + "\n1. c1:c2>b2,c1-c2 {note} 1... d6:d5>c5,d6-d5 2. d1:d2>e2,d1-d2 *")
    assert good.is_valid
    wrong = replay_text(HEAD + "\n1. c1:c2>b2,c1-c2 2... d6:d5>c5,d6-d5 *")
    assert codes(wrong) == ["E-NUMBER"] and wrong.plies == 2  # replay goes on
    form = replay_text(HEAD + "\n1... c1:c2>b2,c1-c2 *")
    assert codes(form) == ["E-NUMBER"]


def test_illegal_move_stops_the_line_with_location_and_rule():
    result = replay_text(HEAD + "\n1. c1:c2>b2,c1-c2\nd6:d5>c5,d6-d3 2. d1:d2>e2,d1-d2 *")
    (diagnostic,) = result.diagnostics
    assert (diagnostic.code, diagnostic.line, diagnostic.ply, diagnostic.side) == (
        "E-ILLEGAL-MOVE", 4, 2, "Black")
    assert diagnostic.rule and diagnostic.rule.startswith("§")
    assert result.plies == 1 and not result.complete


def test_variations_are_replayed_from_the_position_before_their_move():
    ok = replay_text(HEAD + "\n1. c1:c2>b2,c1-c2 (1. d1:d2>e2,d1-d2 d6:d5>c5,d6-d5) d6:d5>c5,d6-d5 *")
    assert ok.is_valid
    bad = replay_text(HEAD + "\n1. c1:c2>b2,c1-c2 (1. c1:c2>b2,c1-c3) d6:d5>c5,d6-d5 *")
    assert codes(bad) == ["E-ILLEGAL-MOVE"] and bad.plies == 2


# Elevation spec §13 E6: the Dragon's double capture takes Black's last pieces.
E6 = ('[Variant "elevation"]\n[SetUp "1"]\n'
      '[FEN "333133/333333/333533/333333/333333/333333 3s2/3f2/3D2/6/6/6 w"]\n')


def test_result_against_the_end_of_the_game():
    assert replay_text(E6 + '[Result "1-0"]\n\n1. d4:d4xd5xd6 1-0').is_valid
    mismatch = replay_text(E6 + '[Result "0-1"]\n\n1. d4:d4xd5xd6 0-1')
    assert codes(mismatch) == ["E-RESULT-MISMATCH"]
    missing = replay_text(E6 + '[Result "*"]\n\n1. d4:d4xd5xd6 *')
    assert codes(missing) == ["W-RESULT-MISSING"] and missing.is_valid
    after = replay_text(E6 + "\n1. d4:d4xd5xd6 d6:d5>c5,d6-d5 1-0")
    assert codes(after) == ["E-MOVE-AFTER-END"]
    assert replay_text(E6 + '[Result "1/2-1/2"]\n\n1/2-1/2').is_valid  # agreed draw
    assert replay_text(E6 + '[Result "0-1"]\n\n0-1').is_valid  # resignation
    assert codes(replay_text(E6 + '[Result "2-0"]\n\n*')) == ["E-BAD-TAG"]


def test_json_records_replay_like_pgn():
    stream = io.BytesIO(b'{"tags": {"Variant": "elevation"}, "moves": ["c1:c2>b2,c1-c2", '
                        b'{"move": "d6:d5>c5,d6-d5", "comments": ["ok"]}], "result": "*"}')
    (record,) = list(iter_records(["-"], stdin=stream))
    assert replay(record).is_valid


@given(st.text(max_size=300))
def test_any_text_gives_diagnostics_never_an_exception(text):
    for record in read_records((HEAD + "\n" + text).splitlines(), "fuzz.pgn"):
        result = replay(record)
        assert all(d.code != "E-INTERNAL" for d in result.diagnostics), result.diagnostics


@given(st.lists(st.sampled_from(["c1", "c2", "d4", ":", ">", ",", "-", "x", "=", "&", "S", "F",
                                 "D", "B", "DD", "MM", "C2", "U", "a7", "g1", "0"]),
                max_size=14).map("".join))
def test_token_fragments_give_diagnostics_never_an_exception(token):
    result = replay_text(HEAD + f"\n1. {token} *")
    assert all(d.code != "E-INTERNAL" for d in result.diagnostics)


# ---- the outcome is asked lazily (issue #14) ---------------------------------------------------

import random  # noqa: E402

import pytest  # noqa: E402

from notation_tools.analysis.generate import random_move  # noqa: E402
from notation_tools.games.base import all_games  # noqa: E402


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.id)
def test_outcome_unless_stuck_is_the_outcome_whenever_a_move_exists(game):
    rng = random.Random(14)
    for _ in range(3):
        position = game.start_position(game.parse_rules(None))
        for _ in range(60):
            has_move = next(iter(position.legal_moves()), None) is not None
            if has_move:
                assert position.outcome_unless_stuck() == position.outcome()
            if position.outcome() is not None:
                break
            position.push(random_move(game, position, rng))


STUCK = '[Variant "maka"]\n[Rules "tsa; no-legal-move={mode}"]\n[SetUp "1"]\n' \
        '[FEN "K,18/' + "19/" * 16 + '17,vP,vP/17,vP,vK w 1"]\n\n{moves}'


@pytest.mark.parametrize("move", ["K-2b", "Zz-99z", "vK-1a"])
def test_a_move_when_the_side_to_move_is_stuck_is_a_move_after_the_end(move):
    result = replay_text(STUCK.format(mode="loss", moves=f"1... {move} 1-0"))
    assert codes(result) == ["E-MOVE-AFTER-END"]
    assert "the game ended after the start position (White has no legal move)" in \
        result.diagnostics[0].message


def test_the_stuck_side_decides_the_result_without_a_move():
    assert replay_text(STUCK.format(mode="loss", moves="1-0")).is_valid
    assert codes(replay_text(STUCK.format(mode="draw", moves="1-0"))) == ["E-RESULT-MISMATCH"]


# Whether to stop: asked of visitors that may stop, once per main-line ply

from notation_tools.analysis.generate import generate_records  # noqa: E402
from notation_tools.analysis.replay import ReplayVisitor, Visitors, combined  # noqa: E402


def _six_plies():
    """A legal record of six plies."""
    game = all_games()[0]
    record = next(generate_records(game, game.parse_rules(None), count=1, seed=5,
                                   max_plies=6))
    assert replay(record).plies == 6
    return record


class _Counting(ReplayVisitor):
    """Counts the main-line moves it sees; asked to stop, says yes from ``stop_at`` plies
    on (never when ``None``), counting the questions."""

    def __init__(self, stop_at=None):
        self.stop_at, self.moves, self.asked = stop_at, 0, 0

    def visit_move(self, node, move, before, ply, in_variation):
        self.moves += not in_variation

    def stop_after(self, ply):
        self.asked += 1
        return self.stop_at is not None and ply >= self.stop_at


class _Silent(ReplayVisitor):
    """Sees every move and has no stop_after of its own (as the position collector)."""

    def __init__(self):
        self.moves = 0

    def visit_move(self, node, move, before, ply, in_variation):
        self.moves += not in_variation


def test_a_visitor_without_its_own_stop_after_may_not_stop_and_is_never_asked():
    assert not ReplayVisitor().may_stop and not _Silent().may_stop
    assert _Counting().may_stop
    silent = _Silent()
    result = replay(_six_plies(), visitor=silent)
    assert result.complete and result.plies == silent.moves == 6


@pytest.mark.parametrize("stop_at", [None, 2])
def test_visitors_stop_only_when_each_may_and_does(stop_at):
    """With a visitor that never stops, the replay goes to the end and the other is never
    asked; of two that may stop, the line stops where both say so (each asked before every
    move played, and once more where it stops)."""
    counting, silent = _Counting(stop_at), _Silent()
    both = combined(silent, counting)
    assert isinstance(both, Visitors) and not both.may_stop
    result = replay(_six_plies(), visitor=both)
    assert result.complete and silent.moves == counting.moves == 6 and counting.asked == 0
    first, second = _Counting(stop_at), _Counting(4)
    result = replay(_six_plies(), visitor=combined(first, second))
    stopped = 6 if stop_at is None else 4
    assert result.plies == first.moves == second.moves == stopped
    assert result.complete == (stop_at is None) and first.asked == stopped + (stop_at is not None)


class _Logging(ReplayVisitor):
    def __init__(self, name, log):
        self.name, self.log = name, log

    def visit_move(self, node, move, before, ply, in_variation):
        self.log.append((ply, in_variation, self.name))


def test_combined_visitors_see_every_move_in_their_order_even_nested():
    """Replay calls each visitor of a combination (of combinations) itself, in the order
    given, for the main line's moves and the variations'."""
    record = _six_plies()
    record.moves[2].variations = [[move.copy() for move in record.moves[2:4]]]
    log = []
    names = ["a", "b", "c"]
    a, b, c = (_Logging(name, log) for name in names)
    result = replay(record, visitor=combined(combined(a, b), None, c))
    assert result.complete
    variation = [(ply, True) for ply in (3, 4)]
    main = [(ply, False) for ply in range(1, 7)]
    expected = [(ply, side, name) for ply, side in main[:2] + variation + main[2:]
                for name in names]
    assert log == expected
