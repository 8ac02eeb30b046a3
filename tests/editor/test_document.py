"""The editor's document model (issue #28): records checked once per text, columns in UTF-16,
and ``notation-tools lsp`` without its extra."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from notation_tools.analysis.replay import replay
from notation_tools.editor.document import EditorDocument, codepoint_column, utf16_column
from notation_tools.editor.references import section_url
from notation_tools.games.base import get_game
from notation_tools.records.pgn import read_records
from tests.conftest import invoke

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"


@given(st.text(), st.data())
def test_utf16_columns_round_trip(line, data):
    column = data.draw(st.integers(0, len(line)))
    units = utf16_column(line, column)
    assert units == len(line[:column].encode("utf-16-le")) // 2
    assert codepoint_column(line, units) == column


def archive() -> str:
    return (SAMPLES / "elevation" / "club-league-archive-three-games.pgn").read_text(
        encoding="utf-8")


def test_an_edit_replays_only_the_record_edited():
    text = archive()
    document = EditorDocument(text)
    assert document.replayed == len(document.records) == 3
    lines = text.split("\n")
    last = document.records[-1]
    edited_line = last.first_line + len(last.lines) - 1
    lines[edited_line] = lines[edited_line] + " {a note}"
    document.update("\n".join(lines))
    assert document.replayed == 1


def test_records_that_moved_keep_their_diagnostics_at_their_new_lines():
    broken = (SAMPLES / "elevation" / "broken-illegal-move.pgn").read_text(encoding="utf-8")
    document = EditorDocument(broken + "\n" + archive())
    moved = "[Event \"x\"]\n[Variant \"elevation\"]\n\n*\n\n" + broken + "\n" + archive()
    document.update(moved)
    assert document.replayed == 1  # only the new record
    found = [(text.document_line(d.line), d.column, d.code) for text, d in document.diagnostics()]
    expected = []
    for record in read_records(moved.split("\n")):
        replay(record)
        expected += [(d.line - 1, d.column, d.code) for d in record.diagnostics]
    assert sorted(found) == sorted(expected)


def test_a_diagnostic_links_to_its_rules_section_heading():
    game = get_game("elevation")
    url = section_url(game, "§4.1")
    path, _, anchor = url.partition("#")
    assert path.startswith("file://") and path.endswith("/elevation.md")
    headings = Path(path.removeprefix("file://")).read_text(encoding="utf-8")
    assert "### §4.1 What a player does on a turn" in headings
    assert anchor == "41-what-a-player-does-on-a-turn"
    assert section_url(game, None) is None


def test_lsp_without_its_extra_is_a_usage_error(runner, monkeypatch):
    monkeypatch.setitem(sys.modules, "pygls", None)  # an import of pygls now fails
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)
    monkeypatch.delitem(sys.modules, "notation_tools.editor.server", raising=False)
    result = invoke(runner, ["lsp"])
    assert result.exit_code == 2
    assert "pip install 'notation-tools[lsp]'" in result.stderr


def test_completion_after_a_variation_continues_the_line_it_left():
    from notation_tools.editor.features import completions

    game = get_game("elevation")
    start = game.start_position(game.parse_rules(None))
    first = game.parse_move("c1:c2>b2,c1-c2", start)
    other = game.parse_move("a1:b1>a2,a1-a2", start)
    after_first, after_other = start.copy(), start.copy()
    after_first.push(first)
    after_other.push(other)
    head = '[Variant "elevation"]\n\n1. c1:c2>b2,c1-c2 (1. a1:b1>a2,a1-a2 '
    for text, position in ((head, after_other), (head + ") ", after_first)):
        document = EditorDocument(text)
        offered = [item.label for item in completions(document, 2, len(text.split("\n")[2]))]
        assert offered == [game.format_move(m, position) for m in position.legal_moves()][:200]


def located(document: EditorDocument) -> list[tuple[int, int, str, str]]:
    return sorted((text.document_line(d.line), d.column, d.code, d.message)
                  for text, d in document.diagnostics())


@given(st.lists(st.tuples(st.sampled_from(["insert", "delete", "replace"]),
                          st.integers(0, 10_000), st.integers(0, 10_000),
                          st.sampled_from(["", "\n", "[Round \"2\"]\n", "x", " {é𝄞}", "2.", "*"])),
                min_size=1, max_size=6))
@settings(max_examples=25)  # each example reads the document afresh after every edit
def test_edits_leave_the_same_diagnostics_as_reading_the_text_afresh(edits):
    """The cache of records by text never shows what a fresh check of the text would not."""
    text = archive() + "\n" + (SAMPLES / "elevation" / "broken-illegal-move.pgn").read_text(
        encoding="utf-8")
    document = EditorDocument(text)
    for kind, where, size, insert in edits:
        where %= len(text) + 1
        end = min(len(text), where + size % 40) if kind != "insert" else where
        text = text[:where] + (insert if kind != "delete" else "") + text[end:]
        document.update(text)
        assert located(document) == located(EditorDocument(text))
