"""Shuriken 2D pictures (§10): the text diagram, the loops marking, the diagram reader, SVG."""

from __future__ import annotations

import pathlib
import random
import sys
import xml.etree.ElementTree as ET

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from shuriken_vectors import FIGURES, S2, S6  # noqa: E402

from notation_tools.games.base import BadPositionError, Style  # noqa: E402
from notation_tools.render.svg import LAST_MOVE_TARGET  # noqa: E402
from notation_tools.games.shuriken import GAME  # noqa: E402
from notation_tools.games.shuriken.pieces import BLACK, CELL_INDEX, START_BOARD  # noqa: E402
from notation_tools.games.shuriken.position import format_position  # noqa: E402
from notation_tools.games.shuriken.render import svg, text_diagram  # noqa: E402
from notation_tools.games.shuriken.moves import Place  # noqa: E402
from notation_tools.games.shuriken.rules import Position  # noqa: E402
from notation_tools.analysis.generate import random_move
from tests.games.shuriken.diagrams import position_from_diagram

RULES = GAME.parse_rules(None)

# §1.5, verbatim.
START_DIAGRAM = """\
       A B C D E F G H I J K L M N O P Q R S
        x x x x x x x x x x x x x x x x x x x
     1 o . . . . . . . . . . . . . . . . . . . o 1
      2 o . . . . . . . . . . . . . . . . . . . o 2
       3 o . . . . . . . . . . . . . . . . . . . o 3
        4 o . . . . . . . . . . . . x x x . . . . o 4
         5 o . . . . . . . . . . . o       o . . . o 5
          6 o . . . . . . . . . . . o       o . . . o 6
           7 o . . . . . . . . . . . o       o . . . o 7
            8 o . . . . . . . . . . . . x x x . . . . o 8
             9 o . . . . . . . . . . . . . . . . . . . o 9
             10 o . . . . . . . . . . . . . . . . . . . o 10
              11 o . . . . . . . . . . . . . . . . . . . o 11
               12 o . . . . x x x . . . . . . . . . . . . o 12
                13 o . . . o       o . . . . . . . . . . . o 13
                 14 o . . . o       o . . . . . . . . . . . o 14
                  15 o . . . o       o . . . . . . . . . . . o 15
                   16 o . . . . x x x . . . . . . . . . . . . o 16
                    17 o . . . . . . . . . . . . . . . . . . . o 17
                     18 o . . . . . . . . . . . . . . . . . . . o 18
                      19 o . . . . . . . . . . . . . . . . . . . o 19
                            x x x x x x x x x x x x x x x x x x x
                             A B C D E F G H I J K L M N O P Q R S
Black to move"""


def v1() -> Position:
    board = list(START_BOARD)
    for name in FIGURES[1][1].split():
        board[CELL_INDEX[name]] = BLACK
    return Position(board, 1)


def test_s10_1_start_diagram_is_the_spec_figure():
    """§10.1 / §1.5: the start diagram is the spec's figure, line for line, + status line."""
    assert GAME.render_text(GAME.start_position(RULES)) == START_DIAGRAM


def test_s10_1_layout_positions():
    """§10.1: items at 2c + r + 6, row numbers ending at r + 4 and starting at r + 48."""
    lines = text_diagram(GAME.start_position(RULES)).splitlines()
    assert len(lines) == 24   # 23 diagram lines and the status line
    for r in range(1, 20):
        line = lines[r + 1]
        assert line[2 * 0 + r + 6] == "o" and line[2 * 20 + r + 6] == "o"
        assert line[r + 4] == str(r)[-1]
        assert line[r + 48:] == str(r)
    assert all(line == line.rstrip() for line in lines)


def test_s10_1_status_lines():
    """§10.1: `Black to move`, `White to move`, `Black wins: single{W1} single{W3}`."""
    position = GAME.start_position(RULES, fen=S2)
    assert text_diagram(position).splitlines()[-1] == "Black to move"
    position.push(Place(12, 2))
    assert text_diagram(position).splitlines()[-1] == "Black wins: single{W1} single{W3}"
    assert text_diagram(GAME.start_position(RULES, fen=S6)).splitlines()[-1] == "White to move"


def test_s10_1_unicode_style():
    """§10.1: the Unicode variant uses ● ○ ·."""
    text = GAME.render_text(GAME.start_position(RULES), style=Style.UNICODE)
    lines = text.splitlines()
    assert lines[5].strip().startswith("4 ○ · ·") and "● ● ●" in lines[5]
    assert "x" not in "".join(lines[2:-3])


def test_issue_loops_option_marks_loop_groups():
    """Issue / §9: `loops=True` marks the stones of loop-carrying groups and lists loops."""
    assert GAME.render_options == {"loops": GAME.render_options["loops"]}
    plain = GAME.render_text(v1())
    marked = GAME.render_text(v1(), loops=True)
    assert "X" not in plain
    lines = marked.splitlines()
    assert lines[-2:] == ["Black loops: single{W1} single{W3}", "White loops: none"]
    assert set(lines[1].split()) == {"X"}             # the top frame carries the {W3} loop
    row4 = lines[5]
    assert row4[2 * 13 + 4 + 6] == "X"               # M4, W1's top, carries {W1}
    row12 = lines[13]
    assert row12[2 * 5 + 12 + 6] == "x"              # E12, W2's top, carries no loop
    assert "O" not in "".join(lines[1:22])   # lines 0 and 22 are the column letters
    assert GAME.render_text(v1(), loops=False) == plain


def test_issue_loops_option_unicode_and_unknown_options():
    marked = GAME.render_text(v1(), style=Style.UNICODE, loops=True)
    assert "◉" in marked and "●" in marked
    with pytest.raises(TypeError):
        GAME.render_text(v1(), arrows=True)


def test_g9_diagram_reads_back():
    """G9: position_from_diagram(text_diagram(p)) gives p back, both styles, marks included."""
    rng = random.Random(5)
    position = GAME.start_position(RULES)
    for _ in range(120):
        position.push(random_move(GAME, position, rng))
    for style in ("ascii", "unicode"):
        for loops in (False, True):
            text = text_diagram(position, style=style, marks={"loops"} if loops else set())
            assert format_position(position_from_diagram(text, RULES)) == format_position(position)
    won = v1()
    assert position_from_diagram(text_diagram(won), RULES).turn == 1   # "Black wins": White's turn


def test_g9_diagram_reader_rejects_broken_diagrams():
    with pytest.raises(BadPositionError, match="19 numbered rows"):
        position_from_diagram("Black to move", RULES)
    broken = START_DIAGRAM.replace("  4 o . .", "  4 o ? .")
    with pytest.raises(BadPositionError, match="unknown symbol"):
        position_from_diagram(broken, RULES)
    with pytest.raises(BadPositionError, match="hole"):
        position_from_diagram(START_DIAGRAM.replace("o       o . . . o 5", "o   .   o . . . o 5"), RULES)


def test_s10_2_svg_structure():
    """§10.2: 343 cells, the 18 holes left out, one disc per stone, text diagram in <desc>."""
    position = GAME.start_position(RULES, fen=S2)
    position.push(Place(12, 2))
    picture = GAME.render_svg(position)
    root = ET.fromstring(picture)
    ns = "{http://www.w3.org/2000/svg}"
    cells = [e for e in root.iter(f"{ns}polygon") if e.get("class") == "cell"]
    assert len(cells) == 343
    names = {e.get("id") for e in cells}
    assert "cell-N6" not in names and "cell-F14" not in names and "cell-N4" in names
    # One disc per stone: a piece group (SvgDocument.piece_disc) holding one circle.
    stones = [e for e in root.iter(f"{ns}g") if (e.get("class") or "").startswith("stone")]
    board_stones = sum(1 for cell in range(len(position.board))
                       if position.board[cell] in (1, 2) and cell in set(
                           CELL_INDEX[n[5:]] for n in names))
    assert len(stones) == board_stones
    assert all(len(e.findall(f"{ns}circle")) == 1 for e in stones)
    assert sum(1 for e in stones if "dark" in e.get("class")) > 24
    for e in stones:
        colour = position.board[CELL_INDEX[e.get("data-cell")]]
        assert ("dark" in e.get("class")) == (colour == 1)
    assert root.find(f"{ns}desc").text == text_diagram(position)
    windows = [e for e in root.iter(f"{ns}line") if e.get("class") == "window"]
    assert len(windows) == 2 * 22          # a 3×3 rhombus of hexagons has 22 outer edges
    frame = [e for e in root.iter(f"{ns}line") if (e.get("class") or "").startswith("frame")]
    assert {e.get("class") for e in frame} == {"frame black", "frame white"}
    last = [e for e in root.iter(f"{ns}circle") if e.get("class") == "last-move"]
    assert len(last) == 1
    b12 = next(e for e in cells if e.get("id") == "cell-B12")
    assert b12.get("fill") == LAST_MOVE_TARGET
    assert {e.get("fill") for e in cells if e is not b12} == {"#e8d8b0"}
    assert root.find(f"{ns}title").text == "Shuriken 2D: Black wins: single{W1} single{W3}"
    letters = [e.text for e in root.iter(f"{ns}text") if e.get("class") == "coordinate"]
    columns, rows = list("ABCDEFGHIJKLMNOPQRS"), [str(row) for row in range(1, 20)]
    assert letters == columns + rows + columns + rows   # above and below, left and right


def test_s10_2_svg_last_move_and_loops():
    position = v1()
    assert 'class="last-move"' not in svg(position)
    assert svg(position, last_move=Place(12, 2)).count('class="last-move"') == 1
    assert svg(position, marks={"loops"}).count('class="loop-ring"') > 0
    assert 'class="mark-loops"' not in svg(position)
    swapped = GAME.start_position(GAME.parse_rules("swap=yes"))
    for token in ("K10", "swap"):
        swapped.push(GAME.parse_move(token, swapped))
    assert svg(swapped).count('class="last-move"') == 1
    root = ET.fromstring(svg(swapped))      # the swap's white stone is on J11
    ns = "{http://www.w3.org/2000/svg}"
    assert [e.get("id") for e in root.iter(f"{ns}polygon")
            if e.get("fill") == LAST_MOVE_TARGET] == ["cell-J11"]


def test_g9_diagram_without_coordinates():
    """G9: `coordinates=False` drops the letters and row numbers, keeping every item in place."""
    plain = text_diagram(GAME.start_position(RULES), coordinates=False).splitlines()
    full = START_DIAGRAM.splitlines()
    assert len(plain) == len(full)
    assert plain[0] == "" and plain[22] == ""
    assert not any(ch.isalnum() for line in plain[:-1] for ch in line if ch not in "xo")
    for r in range(1, 20):
        line, reference = plain[r + 1], full[r + 1]
        for c in range(0, 21):
            assert line[2 * c + r + 6] == reference[2 * c + r + 6]
