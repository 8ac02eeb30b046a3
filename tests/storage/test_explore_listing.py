"""``explore`` with a limit at a position with many move texts (docs/explore.md, "--top"):
the moves chosen from the texts' counts (``move_texts``, ``choose_listed``) are those that
reading every text and cutting gives, and the records not listed too, for every position
the records pass, in every game; the moves not listed are counted by their spellings when
they are not read (tests/analysis/test_explore_choice.py: exactly, with one spelling per
move)."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from notation_tools.storage import busy_positions
from notation_tools.storage.game_database import Database
from tests.storage.index_support import brute_force
from tests.storage.test_explore_index import _indexed

GAMES = ("maka", "gow", "shih", "elevation", "shuriken")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_id=st.sampled_from(GAMES), seed=st.integers(0, 10_000),
       count=st.integers(8, 14), limit=st.integers(1, 2))
def test_moves_chosen_by_their_counts_are_those_of_the_full_reading(game_id, seed, count,
                                                                     limit):
    path, database, text = _indexed(game_id, seed, count)
    _, reaching = brute_force(text, str(path))
    chosen = 0
    with Database(str(database)) as db:
        fulls = {fen: db.explore(fen) for fen in reaching}
        # The limit must leave a move out somewhere for the choice to be made: the records
        # come from three short openings, so a position may have just two moves after it.
        most = max(len(full["moves"]) for full in fulls.values())
        assume(most >= 2)
        limit = min(limit, most - 1)
        for fen in reaching:
            full = fulls[fen]
            everything = full["moves"]
            busy_positions.MANY_TEXTS, kept = -1, busy_positions.MANY_TEXTS  # always choose
            try:
                cut = db.explore(fen, limit=limit)
            finally:
                busy_positions.MANY_TEXTS = kept
            chosen += len(everything) > limit
            assert cut["moves"] == [row for row in everything
                                    if row in cut["moves"]][:limit]
            assert [row["games"] for row in cut["moves"]] == \
                [row["games"] for row in everything[:limit]]
            assert cut["rest"]["games"] == sum(row["games"] for row in everything) \
                - sum(row["games"] for row in cut["moves"])
            # The moves not listed are counted by their spellings when not read (the
            # archive writes moves in several notations): between the moves and the texts.
            spellings = sum(len(row["spellings"]) for row in everything)
            listed = sum(len(row["spellings"]) for row in cut["moves"])
            assert len(everything) - len(cut["moves"]) <= cut["rest"]["moves"] \
                <= spellings - listed
            assert {key: cut[key] for key in ("fen", "key", "games")} == \
                {key: full[key] for key in ("fen", "key", "games")}
    assert chosen  # a position with more moves than the limit: the choice was made
