"""Key trackers (docs/database.md, "The position index"): what the index build relies on
besides the key itself. A tracker that says a move kept the material is right; the keys are
the ones the documented Zobrist sum gives (so that a faster tracker or state row did not
change a stored key); the collector's material runs are the materials of the plies."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation_tools.analysis.generate import generate_records
from notation_tools.analysis.pattern import counts_signature, material_of, material_signature
from notation_tools.analysis.position_keys import (
    PositionCollector,
    _first_plies,
    _signature_of,
    signature_text,
)
from notation_tools.analysis.replay import ReplayVisitor, replay
from notation_tools.games.base import StateKeys, mix64, signed64
from notation_tools.games.maka.pieces import NCODES
from tests.games.test_position_keys import GAMES, IDS, _walk


def _line(game, seed, plies):
    """The moves of a random game of up to ``plies`` plies."""
    return _walk(game, seed, plies)[1]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_tracker_says_the_material_is_the_same_only_when_it_is(game):
    """``material_same`` after ``step`` and after ``after``: never True when the material
    changed, and True for most moves that kept it (the point of it: the index counts the
    material again only when it may have changed)."""
    kept = kept_and_said = 0
    for seed in range(6):
        position = game.start_position(game.parse_rules(None))
        tracker = game.key_tracker(position)
        tracker.before(position)
        last = dict(game.material(position).items())
        for move in _line(game, seed, 80):
            position.push(move)
            line_key = tracker.key
            tracker.after(position)  # a branch from the line's last position
            after_said = tracker.material_same
            tracker.key = line_key
            tracker.step(position)
            material = dict(game.material(position).items())
            assert tracker.material_same == after_said
            if tracker.material_same:
                assert material == last
            if material == last:
                kept += 1
                kept_and_said += tracker.material_same
            last = material
    assert kept_and_said * 2 >= kept


def _reference_key(keys, rows):
    """The key as docs/database.md describes it, summed here without the tracker's tables:
    the XOR over every (row, cell, value) of mix64(seed ^ mix64(row << 48 ^ cell << 24 ^
    mix64(value)))."""
    key = 0
    for row, values in enumerate(rows):
        for cell, value in enumerate(values):
            key ^= mix64(keys.seed ^ mix64((row << 48) ^ (cell << 24) ^ mix64(value)))
    return key


@pytest.mark.parametrize("game", [g for g in GAMES if isinstance(g.position_keys, StateKeys)],
                         ids=lambda g: g.id)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_state_keys_are_the_documented_sum_of_the_state_rows(game, seed):
    """Every key, from scratch and by the tracker, is the documented sum over the rows taken
    as plain lists of numbers (a row kept as bytes, as Game of War's arsenals now are, gives
    the key the list of its values gave)."""
    keys = game.position_keys
    position = game.start_position(game.parse_rules(None))
    tracker = game.key_tracker(position)
    tracker.before(position)
    for move in _line(game, seed, 25):
        position.push(move)
        rows = [[int(value) for value in row] for row in keys.state(position)]
        expected = _reference_key(keys, rows)
        assert keys.key(position) == expected
        assert tracker.step(position) == expected


def test_game_of_war_keys_its_arsenals_as_their_list_of_numbers_did():
    """The arsenals row as bytes keys the same as the list ``[int(a) for a in alive]``."""
    game = next(g for g in GAMES if g.id == "game-of-war")
    position = game.start_position(game.parse_rules(None))
    keys = game.position_keys
    as_list = (position.board, [int(a) for a in position.alive],
               [position.turn, -1 if position.retreat is None else position.retreat])
    assert keys.key(position) == _reference_key(keys, as_list)
    position.alive[0] = False  # an arsenal taken: its cell changes value
    as_list[1][0] = 0
    assert keys.key(position) == _reference_key(keys, as_list)


class _EveryPly(ReplayVisitor):
    """The material signature of every main-line position, counted from scratch."""

    def begin(self, game, rules, record):
        self.game, self.signatures = game, []

    def visit_move(self, node, move, before, ply, in_variation):
        if not in_variation:
            self.signatures.append(signature_text(material_signature(self.game, before)))


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@pytest.mark.parametrize("seed", [3, 7])
def test_the_collectors_material_runs_are_the_material_of_every_ply(game, seed):
    """Runs of (first ply, last ply, signature) cover plies 0..n in order without a gap, and
    each ply's signature is its position's material sorted, counted from scratch."""
    rules = game.parse_rules(None)
    record = next(generate_records(game, rules, count=1, seed=seed, max_plies=80))
    every = _EveryPly()
    result = replay(record, visitor=every)
    assert result.complete
    expected = [*every.signatures, signature_text(material_signature(game, result.position))]
    collector = PositionCollector()
    result = replay(record, visitor=collector)
    found = collector.finish(result.position, result.plies, result.complete)
    per_ply = []
    for first, last, signature in found.material:
        assert first == len(per_ply)
        per_ply.extend([signature] * (last - first + 1))
    assert per_ply == expected


class _FromScratch(ReplayVisitor):
    """Every main-line position's key computed from scratch, and its move's text."""

    def begin(self, game, rules, record):
        self.game, self.rows = game, []

    def visit_move(self, node, move, before, ply, in_variation):
        if not in_variation:
            self.rows.append((self.game.position_key(before), node.text))


def _signed(key):
    return key - (1 << 64) if key >= 1 << 63 else key


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10**6), at=st.integers(0, 12), variations=st.booleans())
def test_the_collectors_rows_are_every_positions_key_ply_line_and_move(game, seed, at,
                                                                        variations):
    """What the index stores (docs/database.md, "The position index"): per main-line
    position its signed key (as computed from scratch), its ply, line 0 and the move played
    from it (none at the end); with ``variations``, each variation's positions too, on lines
    1, 2, ... in the order met. The variations here replay the main line's next moves from
    two of its positions, so their keys are the main line's."""
    rules = game.parse_rules(None)
    record = next(generate_records(game, rules, count=1, seed=seed, max_plies=30))
    starts = sorted({min(at, len(record.moves) - 1), min(at + 3, len(record.moves) - 1)})
    for start in starts:
        record.moves[start].variations = [[move.copy() for move in record.moves[start:start + 3]]]
        for move in record.moves[start].variations[0]:
            move.variations = []
    scratch = _FromScratch()
    expected_end = replay(record, visitor=scratch)
    collector = PositionCollector(variations=variations)
    result = replay(record, visitor=collector)
    found = collector.finish(result.position, result.plies, result.complete)
    main = [(_signed(key), ply, 0, text) for ply, (key, text) in enumerate(scratch.rows)]
    main.append((_signed(game.position_key(expected_end.position)), result.plies, 0, None))
    side = [(main[ply][0], ply, line, main[ply][3])
            for line, start in enumerate(starts, 1) if variations
            for ply in range(start, min(start + 3, result.plies))]
    assert sorted(found.rows()) == sorted(main + side)
    assert found.variations == variations


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10**6), at=st.integers(0, 12))
def test_two_variations_of_one_move_are_two_lines(game, seed, at):
    """Two alternatives to the same main-line move are lines 1 and 2, in the order met,
    and a variation of a later move is line 3 (a line number is not taken from the ply
    alone: each alternative starts at the same ply)."""
    rules = game.parse_rules(None)
    record = next(generate_records(game, rules, count=1, seed=seed, max_plies=30))
    first = min(at, len(record.moves) - 1)
    later = min(first + 3, len(record.moves) - 1)
    starts = [first, first] + ([later] if later > first else [])
    for start in sorted(set(starts)):
        record.moves[start].variations = [
            [move.copy() for move in record.moves[start:start + 2]]
            for _ in range(starts.count(start))]
        for variation in record.moves[start].variations:
            for move in variation:
                move.variations = []
    collector = PositionCollector(variations=True)
    result = replay(record, visitor=collector)
    found = collector.finish(result.position, result.plies, result.complete)
    side = sorted((line, ply) for _, ply, line, _ in found.rows() if line)
    assert side == [(line, ply) for line, start in enumerate(starts, 1)
                    for ply in range(start, min(start + 2, result.plies))]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_a_tracker_told_the_move_keys_as_without_it(game, seed):
    """``step(position, move)`` (the collector's call: the move pushed since is a hint) gives
    the key and ``material_same`` that ``step(position)`` gives, and the key computed from
    scratch, at every ply of a random line."""
    position = game.start_position(game.parse_rules(None))
    hinted, plain = game.key_tracker(position), game.key_tracker(position)
    hinted.before(position)
    plain.before(position)
    for move in _line(game, seed, 60):
        position.push(move)
        key = hinted.step(position, move)
        assert key == plain.step(position)
        assert signed64(key) == game.position_key(position)
        assert hinted.material_same == plain.material_same


def test_game_of_war_tracker_given_a_move_that_names_other_squares_finds_the_changes():
    """A hint that does not cover what changed (here the previous turn's, or an empty turn)
    is checked against the board, and the changed cells are then found over the whole board:
    the same key and material answer as without a hint."""
    from notation_tools.games.gow.moves import EndTurn

    game = next(g for g in GAMES if g.id == "game-of-war")
    position = game.start_position(game.parse_rules(None))
    wrong, plain = game.key_tracker(position), game.key_tracker(position)
    wrong.before(position)
    plain.before(position)
    previous = EndTurn()
    for move in _line(game, 5, 40):
        position.push(move)
        key = wrong.step(position, previous)
        assert key == plain.step(position)
        assert signed64(key) == game.position_key(position)
        assert wrong.material_same == plain.material_same
        previous = move


@pytest.mark.parametrize("game", [game for game in GAMES if game.occupants is not None],
                         ids=lambda game: game.id)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 40))
def test_a_materials_kept_signature_is_its_signature_in_any_item_order(game, seed, plies):
    """The signature the collector keeps per material met is the one written from the
    counts, for the game's own material and for the same counts as a plain dict in either
    item order (a dict is kept by its items)."""
    position, _ = _walk(game, seed, plies)
    counts = material_of(game, position)
    expected = signature_text(material_signature(game, position, counts))
    items = list(counts.items())
    for given_counts in (counts, dict(items), dict(reversed(items))):
        assert _signature_of(game, given_counts) == expected


@settings(max_examples=30, deadline=None)
@given(counts=st.lists(st.integers(0, 5000), min_size=1, max_size=4))
def test_a_main_lines_ply_column_counts_from_zero_however_long_the_line(counts):
    """The ply column (a slice of one kept column, grown for a longer line) is 0 .. n - 1,
    and a column handed out is not changed by a later, longer one."""
    columns = [(count, _first_plies(count)) for count in counts]
    for count, column in columns:
        assert column.tolist() == list(range(count))


class _Rows(ReplayVisitor):
    """Every main-line position's key and material signature counted from scratch, and its
    move's text."""

    def begin(self, game, rules, record):
        self.game, self.rows = game, []

    def visit_move(self, node, move, before, ply, in_variation):
        if not in_variation:
            self.rows.append((_signed(self.game.position_key(before)), node.text,
                              signature_text(material_signature(self.game, before))))


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6), cut=st.integers(0, 50))
def test_a_main_line_stopped_by_a_bad_move_is_collected_as_far_as_it_went(game, seed, cut):
    """A main line that stops at a move that does not resolve (docs/database.md, "The
    position index"): its positions up to the one the bad move was to be played from, that
    last one with no move; the material runs cover the positions before it only (pattern
    search looks at the last position when the whole main line was replayed)."""
    rules = game.parse_rules(None)
    record = next(generate_records(game, rules, count=1, seed=seed, max_plies=60))
    cut = min(cut, len(record.moves) - 1)
    record.moves[cut].text = "@@"
    record.moves[cut].data = None
    scratch = _Rows()
    expected = replay(record, visitor=scratch)
    assert not expected.complete and expected.plies == cut == len(scratch.rows)
    collector = PositionCollector()
    result = replay(record, visitor=collector)
    found = collector.finish(result.position, result.plies, result.complete)
    assert found.rows() == [(key, ply, 0, text) for ply, (key, text, _)
                            in enumerate(scratch.rows)] + [
        (_signed(game.position_key(expected.position)), cut, 0, None)]
    if game.occupants is None:
        assert found.material is None
        return
    per_ply = []
    for first, last, signature in found.material:
        assert first == len(per_ply)
        per_ply.extend([signature] * (last - first + 1))
    assert per_ply == [signature for _, _, signature in scratch.rows]


@pytest.mark.parametrize("game", [game for game in GAMES
                                  if hasattr(game.position_keys, "history")],
                         ids=lambda game: game.id)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 80), back=st.integers(0, 80))
def test_a_history_is_what_a_tracker_follows(game, seed, plies, back):
    """``history(position, n)`` (docs/database.md, "The position index": a game whose
    engine keeps its keys): the keys of the last ``n`` moves' positions and of the position
    reached are the tracker's, and its materials are the positions' own, at the first
    position and after every move that a tracker says may have changed it."""
    moves = _line(game, seed, plies)
    start = game.start_position(game.parse_rules(None))
    position = start.copy()
    tracker = game.key_tracker(position)
    tracker.before(position)
    keys, materials = [tracker.key], [(0, material_of(game, position))]
    for ply, move in enumerate(moves, 1):
        position.push(move)
        keys.append(tracker.step(position, move))
        if not tracker.material_same:
            materials.append((ply, material_of(game, position)))
    back = min(back, len(moves))
    found, changes = game.position_keys.history(position, back)
    assert found == keys[len(keys) - back - 1:]
    first = len(moves) - back
    expected = [(0, material_of(game, _replayed(start, moves[:first])))] + [
        (ply - first, material) for ply, material in materials if ply > first]
    assert [(ply, dict(material.items())) for ply, material in changes] == [
        (ply, dict(material.items())) for ply, material in expected]


def _replayed(start, moves):
    position = start.copy()
    for move in moves:
        position.push(move)
    return position


@given(counts=st.lists(st.integers(0, 30), min_size=NCODES, max_size=NCODES))
def test_maka_dai_dai_materials_own_signature_text_is_the_sorted_one(counts):
    """Maka-Dai-Dai's material writes its signature itself (docs/database.md, "The position
    index": each distinct material is sorted and written as JSON): the same text as its
    items sorted and encoded, for any counts."""
    from notation_tools.games.maka.keys import Material

    material = Material(tuple(counts))
    assert material.signature_text() == signature_text(counts_signature(dict(material.items())))
