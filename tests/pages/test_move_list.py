"""The move list's moves carry no step number (issue #29, page size): the page's script numbers
the played moves and the stop 1, 2, ... in the list's order. That order must be the order of
the steps, variations and stops included."""

from __future__ import annotations

import pytest

from notation_tools.pages.viewer import build_page
from tests.pages.viewer_support import ILLEGAL, PLAYABLE, first_record, numbered_moves, page_data


@pytest.mark.parametrize("path", sorted({*PLAYABLE.values(), *ILLEGAL.values()}),
                         ids=lambda path: f"{path.parent.name}/{path.name}")
def test_the_list_order_of_played_moves_is_the_order_of_their_steps(path):
    page = build_page(first_record(path))
    data = page_data(page.html)
    numbered = numbered_moves(page.html)
    assert len(numbered) == len(data["parents"]) - 1  # every step but the start
    for step, (state, text) in enumerate(numbered, 1):
        parent = data["parents"][step]
        assert 0 <= parent < step
        assert bool(data["messages"][step]) == (state == "stop")
        if state == "played":  # a move is one ply after the position it is played from
            before = data["labels"][parent]
            assert data["labels"][step][0] == (before[0] if parent else 0) + 1


def test_a_variation_is_numbered_where_it_stands_in_the_list():
    page = build_page(first_record(PLAYABLE["elevation"]))
    data = page_data(page.html)
    # The record's first variation follows the first move: its move is step 2, played
    # from the start, and the main line's second move is numbered after the variation's.
    assert numbered_moves(page.html)[1] == ("played", "d1:c2&gt;e2,e2&gt;c2")
    assert data["parents"][2] == 0 and data["next"][1] > 2
