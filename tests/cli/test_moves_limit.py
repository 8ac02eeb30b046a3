"""``moves --max``: a position with more legal moves than anyone can read is refused with its
count before any move is made (issue #25: an Elevation position under two-pieces-per-turn with
twenty million turns ran past 60 s and 2.3 GB)."""

from __future__ import annotations

from notation_tools.games.base import get_game
from tests.conftest import invoke

# Found by random play under two-pieces-per-turn: 20,397,476 legal turns.
CROWDED = ("233233/333341/335334/314414/343433/314333 s2df1/1f2ds/6/6/F1D1D1/S3FS w")
TWO_PIECES = "standard; two-pieces-per-turn=yes"


def test_a_position_with_millions_of_moves_is_refused_with_its_count(runner):
    game = get_game("elevation")
    count = game.parse_position(CROWDED, game.parse_rules(TWO_PIECES)).count_legal_moves()
    assert count > 1_000_000
    result = invoke(runner, ["moves", "--game", "elevation", "--rules", TWO_PIECES,
                             "--fen", CROWDED])
    assert result.exit_code == 2 and result.stdout == ""
    assert f"{count:,} legal moves, more than --max 100,000" in result.stderr


def test_max_sets_the_bound_and_zero_lifts_it(runner):
    start = get_game("elevation").start_position(get_game("elevation").parse_rules(None))
    count = start.count_legal_moves()
    refused = invoke(runner, ["moves", "--game", "elevation", "--max", str(count - 1)])
    assert refused.exit_code == 2 and f"{count:,} legal moves" in refused.stderr
    for most in (str(count), "0"):
        listed = invoke(runner, ["moves", "--game", "elevation", "--max", most, "-f", "csv"])
        assert listed.exit_code == 0
        assert len(listed.stdout.splitlines()) == count + 1  # a header and one row a move
