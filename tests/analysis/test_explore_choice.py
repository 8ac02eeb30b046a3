"""The explorer's listing of the most played moves (docs/explore.md, "--top"): choosing the
texts to read from their counts and the positions they lead to gives the moves, counts and
rest that merging every text gives (``merge_moves`` over all of them, then cut)."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from notation_tools.analysis.explore import choose_listed, merge_moves
from notation_tools.games.base import get_game
from notation_tools.analysis.generate import random_move

GAMES = ("maka", "gow", "shih", "shuriken", "elevation")


def _moves(game, position, seed, count):
    """Up to ``count`` different moves of ``position``, as the game writes them."""
    rng = random.Random(seed)
    found = {}
    for _ in range(count * 4):
        move = random_move(game, position, rng)
        if move is not None:
            found.setdefault(game.format_move(move, position), move)
        if len(found) == count:
            break
    return list(found)


def _row(move_id, text, games, child):
    return {"move": text, "games": games, "wins": [games, 0], "draws": 0, "unfinished": 0,
            "plies": 10 * games, "average_plies": 10.0, "first_date": None, "last_date": None,
            "example": move_id,
            "example_path": "a.pgn", "example_record": move_id, "child": child,
            "move_id": move_id}


@settings(max_examples=30, deadline=None)
@given(game_id=st.sampled_from(GAMES), seed=st.integers(0, 1000), data=st.data(),
       limit=st.integers(1, 8))
def test_the_chosen_texts_list_what_merging_every_text_lists(game_id, seed, data, limit):
    game = get_game(game_id)
    position = game.start_position(game.parse_rules(None))
    texts = _moves(game, position, seed, 20)
    # Counts with many ties, and positions some texts share (as Game of War's turns do).
    games = data.draw(st.lists(st.integers(1, 4), min_size=len(texts), max_size=len(texts)))
    children = data.draw(st.lists(st.integers(1, 6), min_size=len(texts),
                                  max_size=len(texts)))
    rows = [_row(number, text, count, child) for number, (text, count, child)
            in enumerate(zip(texts, games, children), 1)]
    spellings = {row["move_id"]: row["move"] for row in rows}
    asked = []

    def spell(ids):
        asked.extend(ids)
        return {move_id: spellings[move_id] for move_id in ids}

    listing = choose_listed(game, position, [(row["move_id"], row["games"], row["child"])
                                             for row in rows], limit, spell)
    assert listing is not None
    every, every_rest = merge_moves(game, position, [dict(row) for row in rows], fens=False,
                                    limit=limit)
    chosen = [dict(row) for row in rows if row["move_id"] in listing.move_ids]
    listed, _ = merge_moves(game, position, chosen, fens=False, limit=limit)
    assert listed == every
    assert len(set(asked)) == len(asked) <= len(rows)  # each text spelled once at most
    assert {"moves": listing.moves - len(listed),
            "games": listing.games - sum(row["games"] for row in listed)} == every_rest


def test_a_text_without_a_known_next_position_reads_them_all():
    game = get_game("maka")
    position = game.start_position(game.parse_rules(None))
    texts = dict(enumerate(_moves(game, position, 1, 3), 1))
    assert choose_listed(game, position, [(1, 2, 7), (2, 1, None)], 1, texts.get) is None


def _split(row, parts, first_id):
    """``row``'s records as the rows of ``parts`` ids of its text (a text the index's writer
    stored again after it forgot it): each record under one of them."""
    games = row["games"]
    cuts = sorted(random.Random(first_id).sample(range(1, games), min(parts, games) - 1))
    sizes = [b - a for a, b in zip([0, *cuts], [*cuts, games])]
    # Records are numbered by ``example``: the whole row's is the least of its parts'.
    return [{**row, "games": size, "wins": [size, 0], "plies": 10 * size,
             "average_plies": 10.0, "example": row["example"] + number,
             "example_record": row["example"] + number, "move_id": first_id + number}
            for number, size in enumerate(sizes)]


@settings(max_examples=40, deadline=None)
@given(game_id=st.sampled_from(GAMES), seed=st.integers(0, 1000), data=st.data(),
       limit=st.integers(1, 6))
def test_a_text_stored_under_several_ids_lists_as_one_row_of_it_does(game_id, seed, data,
                                                                      limit):
    """docs/database.md, "Move texts": the writer may store a text again under a new id,
    and the explorer's answer must not change. The texts are written in the game's several
    notations, so that a text's spelling and the move's name differ (moves played equally
    often are ordered by one or the other, and that choice must not depend on the ids)."""
    game = get_game(game_id)
    position = game.start_position(game.parse_rules(None))
    rng = random.Random(seed)
    found = {}
    for _ in range(40):
        move = random_move(game, position, rng)
        if move is not None:
            found.setdefault(game.format_move(move, position, rng.choice(game.notations)),
                             move)
    texts = list(found)[:12]
    games = data.draw(st.lists(st.integers(1, 4), min_size=len(texts), max_size=len(texts)))
    parts = data.draw(st.lists(st.integers(1, 3), min_size=len(texts), max_size=len(texts)))
    children = {}
    for text in texts:  # two spellings of one move lead to one position
        children.setdefault(repr(found[text]), len(children) + 1)
    whole = [_row(100 * number, text, count, children[repr(found[text])])
             for number, (text, count) in enumerate(zip(texts, games), 1)]
    split = [row for whole_row, count in zip(whole, parts)
             for row in _split(whole_row, count, whole_row["move_id"])]
    rng.shuffle(split)
    for cut in (limit, None):
        assert merge_moves(game, position, [dict(row) for row in split], fens=False,
                           limit=cut) == \
            merge_moves(game, position, [dict(row) for row in whole], fens=False, limit=cut)
