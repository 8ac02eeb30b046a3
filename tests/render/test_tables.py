"""The table writers: the plain-text layout written without tabulate is tabulate's own."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from tabulate import tabulate

from notation_tools.render.tables import TableWriter, Table, simple_layout

TEXT = st.text(st.sampled_from(" abcXYZ019-_./;=()'é\t\n\x1b\x01"), max_size=12)
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**12),
                   st.floats(allow_nan=True, allow_infinity=True), TEXT)


def tabulated(table: Table) -> str:
    return tabulate(table.rows, headers=table.headers, tablefmt="simple",
                    disable_numparse=True, missingval="")


@st.composite
def tables(draw):  # type: ignore[no-untyped-def]
    width = draw(st.integers(1, 6))
    headers = draw(st.lists(TEXT.filter(bool), min_size=width, max_size=width))
    rows = draw(st.lists(st.lists(VALUES, min_size=width, max_size=width), min_size=1,
                         max_size=8))
    return Table("", headers, rows)


@settings(max_examples=400, deadline=None)
@given(tables())
def test_simple_layout_is_tabulates(table):
    """Where it lays a table out at all, it lays it out as tabulate does; it leaves to
    tabulate only tables with text other than printable ASCII."""
    laid_out = simple_layout(table)
    texts = [*table.headers, *(v for row in table.rows for v in row if isinstance(v, str))]
    plain = all(text.isascii() and text.isprintable() for text in texts)
    assert (laid_out is not None) == plain
    if laid_out is not None:
        assert laid_out == tabulated(table)


def test_the_writer_takes_either_path():
    tables_ = [Table("Plain", ["game", "plies", "valid"], [["maka", 12, True], [" gow ", None, False]]),
               Table("Wide", ["path"], [["Ünïcode.pgn"], ["a\tb"]])]
    out = io.StringIO()
    TableWriter().write(tables_, out)
    assert out.getvalue() == ("Plain\n" + tabulated(tables_[0]) + "\n\nWide\n"
                              + tabulated(tables_[1]) + "\n")
    assert simple_layout(tables_[0]) is not None and simple_layout(tables_[1]) is None
    assert simple_layout(Table("", ["a", "b"], [[1]])) is None  # a short row: tabulate's
