"""The HTML replay viewer: one self-contained page per record, and an index page for many.

A page holds the record's tags, its move list (the record's own move texts, with comments,
NAGs and variations) and every position the replay reached, drawn by the game's
``render_svg`` with the last move marked, once for every combination of the game's
``render_options``. The page needs no network: its style and script (the package data files
``viewer.css`` and ``viewer.js``) are inline, and it works from ``file://``.

Drawings are stored compactly (:mod:`notation_tools.pages.drawings`). Each drawing is cut
into pieces (its lines); each distinct piece is stored once, and each position is stored as
the edits (pieces removed and added) that turn the drawing of the position before it into
its own; a drawing with display options on is stored as its layer, the edits that make it
from the same position's drawing without them (or with one option fewer), and each layer as
the edits of the same options' layer at the position before it. The script rebuilds a
drawing by replaying those edits. So a 400-ply game costs its first drawing plus a few
pieces per ply, and each display option what its layer changes per ply.

A game hands its drawings over as runs of lines (``Game.render_svg_runs``), the runs two
sets of options draw alike the same text: a layer is found among the runs the two drawings
do not share, line by line only there (each pair of such runs once a page), not by searching
two whole drawings for their differences.

The viewer knows no game: it uses the :class:`~notation_tools.games.base.Game` contract and
the replay driver, and stops where validation stops (the move with the error is shown with
its message; the moves after it are shown but cannot be played).

Does not print. :func:`write_pages` writes files (the pages and ``index.html``).
"""

from __future__ import annotations

import dataclasses
import gc
import html
import itertools
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, Union

from notation_tools.analysis.replay import Replay, ReplayVisitor, replay
from notation_tools.games.base import Game, Position, Rules
from notation_tools.pages.assets import asset, script_asset
from notation_tools.pages.drawings import (  # noqa: F401  (the viewer's API, re-exported)
    Edit,
    PieceTable,
    apply_edits,
    decode_pieces,
    edits,
    encode_pieces,
    layer_edits,
    layer_numbers,
    numbers_of_runs,
    shared_ends,
    split_changes,
    svg_pieces,
    text_edits,
)
from notation_tools.pages.page_notation import (
    read_drawing,
    read_frames,
    read_pieces,
    read_text_edits,
    write_drawing,
    write_frames,
    write_pieces,
    write_text_edits,
)
from notation_tools.pages.piece_templates import template_pieces
from notation_tools.parallel.runner import Work, batches_of, run_batches
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.model import Move, Record

NAG_GLYPHS = {
    "$1": ("!", "good move"), "$2": ("?", "poor move"), "$3": ("!!", "very good move"),
    "$4": ("??", "very poor move"), "$5": ("!?", "speculative move"),
    "$6": ("?!", "questionable move"), "$7": ("\u25a1", "forced move"),
    "$8": ("\u25a1", "singular move"), "$10": ("=", "drawish position"),
    "$11": ("=", "equal chances, quiet position"),
    "$12": ("=", "equal chances, active position"), "$13": ("\u221e", "unclear position"),
    "$14": ("\u2a72", "first player slightly better"),
    "$15": ("\u2a71", "second player slightly better"),
    "$16": ("\u00b1", "first player better"), "$17": ("\u2213", "second player better"),
    "$18": ("+\u2212", "first player winning"), "$19": ("\u2212+", "second player winning"),
    "$22": ("\u2a00", "first player in zugzwang"), "$23": ("\u2a00", "second player in zugzwang"),
    "$32": ("\u27f3", "first player has a development advantage"),
    "$33": ("\u27f3", "second player has a development advantage"),
    "$36": ("\u2191", "first player has the initiative"),
    "$37": ("\u2191", "second player has the initiative"),
    "$40": ("\u2192", "first player has the attack"),
    "$41": ("\u2192", "second player has the attack"),
    "$132": ("\u21c6", "first player has counterplay"),
    "$133": ("\u21c6", "second player has counterplay"),
    "$140": ("\u2206", "with the idea"), "$142": ("\u2313", "better is"),
    "$145": ("RR", "editorial comment"), "$146": ("N", "novelty"),
}
"""The usual glyph and meaning of the common NAGs (the PGN standard numbers them); any
other NAG is shown as written."""

# --------------------------------------------------------------------------------------------
# Replaying a record into drawings


def mark_sets(game: Game[Any, Any]) -> list[tuple[str, ...]]:
    """Every combination of the game's render options, the empty one first: the page holds
    one drawing of each position per combination, so any set of toggles can be shown."""
    names = sorted(game.render_options)
    return [combination for size in range(len(names) + 1)
            for combination in itertools.combinations(names, size)]



def _draw(game: Game[Any, Any], position: Position[Any], last_move: Any,
          marks: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The drawings of ``position`` under every set of marks, each as its runs of lines
    (one call, the seam benchmarks/bench_html.py times)."""
    return game.render_svg_runs(position, marks, last_move=last_move)


Label = Union[str, list[int]]
"""A step's status line: its text, or, for a move, ``[ply, side index]``."""


class _Recorder(ReplayVisitor):
    """Draws the position after every move the replay plays, main line and variations."""

    def __init__(self, table: PieceTable) -> None:
        self.table = table
        self.game: Game[Any, Any] | None = None
        self.marks: list[tuple[str, ...]] = [()]
        self.drawn: dict[int, tuple[_Drawn, Label, str]] = {}
        """id(move node) → (the drawing per mark set, its status line, the position string
        after the move)."""
        self.sides: dict[int, int] = {}
        """id(move node) → the index of the side that played it (its column in the list)."""
        self.texts: dict[int, str] = {}
        """id(move node) → the move's text, for a move given as data only (JSON)."""

    def begin(self, game: Game[Any, Any], rules: Rules, record: Record) -> None:
        self.game = game
        self.marks = mark_sets(game)

    def draw(self, position: Position[Any], last_move: Any) -> _Drawn:
        """The position's drawing per mark set, as piece numbers (one code point each) and
        as run numbers (:meth:`PieceTable.run_codes`)."""
        assert self.game is not None  # begin() has run
        table = self.table
        runs = [table.run_codes(parts)
                for parts in _draw(self.game, position, last_move, self.marks)]
        return _Drawn(list(map(table.numbers_of_runs, runs)), runs)

    def visit_move(self, node: Move, move: Any, before: Position[Any], ply: int,
                   in_variation: bool) -> None:
        assert self.game is not None
        text = node.text or self.game.format_move(move, before)
        if not node.text:
            self.texts[id(node)] = text
        label = [ply, int(before.turn)]  # the script writes "ply N, SIDE: MOVE TEXT"
        after = before.copy()
        after.push(move)
        self.sides[id(node)] = int(before.turn)
        self.drawn[id(node)] = (self.draw(after, move), label,
                                self.game.format_position(after))


class _Drawn(NamedTuple):
    """A position's drawing per mark set, as piece numbers and as run numbers."""

    numbers: list[str]
    runs: list[str]


@dataclasses.dataclass
class _Step:
    """One position the page can show: the start, a played move, or the move where the
    replay stopped (drawn as the position before it, with the diagnostic)."""

    parent: int
    drawing: list[str]
    label: Label
    fen: str
    message: str = ""
    next: int = -1
    runs: list[str] | None = None
    """The drawing per mark set as run numbers (:meth:`PieceTable.run_codes`), when it was
    drawn as runs: a mark set's layer is then found among the runs it does not share with
    the set it is stored over (:meth:`_FrameEncoder.layer`)."""


def _span_of(node: Move) -> tuple[tuple[int, int], tuple[int, int]]:
    start = (node.number_line, node.number_column) if node.number else (node.line, node.column)
    return start, (node.line, node.column + max(len(node.text), 1))


class _Builder:
    """Turns a replayed record into the page's move list (HTML) and steps."""

    def __init__(self, record: Record, recorder: _Recorder, start: _Drawn | None,
                 start_fen: str) -> None:
        self.recorder = recorder
        self.steps = ([_Step(-1, start.numbers, "start position", start_fen, runs=start.runs)]
                      if start is not None else [_Step(-1, [""], "start position", "")])
        self.unplaced: list[Diagnostic] = []
        self.by_node: dict[int, list[Diagnostic]] = {}
        self._place(record)

    def _place(self, record: Record) -> None:
        nodes: list[Move] = []

        def collect(line: list[Move]) -> None:
            for node in line:
                nodes.append(node)
                for variation in node.variations:
                    collect(variation)

        collect(record.moves)
        spans = [(_span_of(node), node) for node in nodes]
        for diagnostic in record.diagnostics:
            where = (diagnostic.line, diagnostic.column)
            owner = next((node for (start, end), node in spans
                          if node.line and start <= where <= end), None)
            if owner is None:
                self.unplaced.append(diagnostic)
            else:
                self.by_node.setdefault(id(owner), []).append(diagnostic)

    def _played(self, moves: list[Move], parent: int) -> Iterator[_Placed]:
        """Each move of a line whose first move is played from step ``parent``, with its
        state; a played move and the stop get their step as they are met (the list's order:
        the page's script numbers them so)."""
        previous = parent
        stopped = False
        for node in moves:
            before = previous
            diagnostics = self.by_node.get(id(node), [])
            drawn = self.recorder.drawn.get(id(node))
            state = "unplayed"
            if drawn is not None and not stopped:
                drawing, label, fen = drawn
                previous = self._add(previous, drawing.numbers, label, fen, runs=drawing.runs)
                state = "played"
            elif not stopped and any(d.is_error for d in diagnostics):
                error = next(d for d in diagnostics if d.is_error)
                last = self.steps[previous]
                self._add(previous, last.drawing, "stopped here", last.fen,
                          f"{error.code}: {error.message}", runs=last.runs)
                stopped, state = True, "stop"
            yield _Placed(node, before, state, diagnostics)

    def line(self, moves: list[Move], parent: int, depth: int) -> str:
        """The HTML of a line of moves whose first move is played from step ``parent``, as
        running text (a variation)."""
        parts: list[str] = []
        for placed in self._played(moves, parent):
            node = placed.node
            number = (f'<span class="number">{html.escape(node.number)}</span>'
                      if node.number else "")
            parts.extend(part for part in (_comments(node.comments_before), number,
                                           self._move_cell(placed),
                                           self._extras(placed, depth)) if part)
        return " ".join(parts)

    def rows(self, moves: list[Move], sides: int) -> str:
        """The HTML of the main line in numbered rows, a column per side (a comment, a
        diagnostic or a variation takes a row of its own under its move)."""
        cells: list[str] = []
        column = 0  # the next free side column of the current row; 0: no row open
        number = 0
        last_side = -1
        for placed in self._played(moves, 0):
            node = placed.node
            side = self.recorder.sides.get(id(node), (last_side + 1) % sides)
            last_side = side
            if node.comments_before:
                cells.extend(_pad(column, sides))
                cells.append(f'<div class="extra">{_comments(node.comments_before)}</div>')
                column = 0
            if column == 0 or side < column:
                cells.extend(_pad(column, sides))
                written = re.match(r"\d+", node.number) if node.number else None
                if written:
                    number = int(written.group())
                elif column != 0 or side == 0 or number == 0:
                    number += 1
                cells.append(f'<div class="num">{number}.</div>')
                column = 0
            cells.extend('<div class="pad">\u2026</div>' for _ in range(column, side))
            if placed.state == "played" and not placed.diagnostics and not node.nags:
                # Its cell and span are made by the script (viewer.js), the same as below.
                cells.append(f"<i>{html.escape(self._move_text(node))}</i>")
            else:
                cells.append(f"<div>{self._move_cell(placed)}</div>")
            column = side + 1
            extras = self._extras(placed, 0)
            if extras:
                cells.extend(_pad(column, sides))
                cells.append(f'<div class="extra">{extras}</div>')
                column = 0
        cells.extend(_pad(column, sides))
        return f'<div class="moverows">{"".join(cells)}</div>'

    def _add(self, parent: int, drawing: list[str], label: Label, fen: str,
             message: str = "", runs: list[str] | None = None) -> int:
        self.steps.append(_Step(parent, drawing, label, fen, message, runs=runs))
        number = len(self.steps) - 1
        if self.steps[parent].next == -1:
            self.steps[parent].next = number
        return number

    def _move_cell(self, placed: _Placed) -> str:
        node, diagnostics = placed.node, placed.diagnostics
        # The script numbers the played moves (and the stop) in the list's order, which is
        # the order of their steps (_played adds a step as the move is written), and makes
        # them focusable: data-step and tabindex are not written 200 times.
        severity = (" error" if any(d.is_error for d in diagnostics)
                    else " warning" if diagnostics else "")
        parts = [f'<span class="move {placed.state}{severity}">'
                 f"{html.escape(self._move_text(node))}</span>"]
        for nag in node.nags:
            glyph, meaning = NAG_GLYPHS.get(nag, (nag, f"NAG {nag}"))
            parts.append(f'<span class="nag" title="{html.escape(meaning)} ({nag})">'
                         f"{html.escape(glyph)}</span>")
        return " ".join(parts)

    def _move_text(self, node: Move) -> str:
        return node.text or self.recorder.texts.get(id(node)) or json.dumps(node.data)

    def _extras(self, placed: _Placed, depth: int) -> str:
        """A move's diagnostics, comments after it and variations."""
        node = placed.node
        parts = [f'<span class="diagnostic {"error" if d.is_error else "warning"}">'
                 f"{html.escape(_diagnostic_text(d))}</span>" for d in placed.diagnostics]
        parts.append(_comments(node.comments))
        for variation in node.variations:
            inner = self.line(variation, placed.before, depth + 1)
            parts.append(f'<span class="variation depth{min(depth + 1, 3)}">({inner})</span>')
        return " ".join(part for part in parts if part)


@dataclasses.dataclass
class _Placed:
    """A move of the list: its node, the step it is played from, its state (played, stop,
    unplayed: a played or stop move is the step after the last such move of the list) and
    its diagnostics."""

    node: Move
    before: int
    state: str
    diagnostics: list[Diagnostic]


def _pad(column: int, sides: int) -> list[str]:
    """Empty cells that close a row whose next free side column is ``column``."""
    return ['<div class="pad"></div>'] * (sides - column) if column else []


_SCRIPT_HAZARDS = re.compile(r"<(?=!--|script)", re.IGNORECASE)
_LINE_BREAKS = str.maketrans({"\u2028": "\\u2028", "\u2029": "\\u2029"})


def script_json(data: Any) -> str:
    """``data`` as JSON that can stand inside a ``<script>`` element whatever its strings
    hold: ``</`` is written ``<\\/`` and a ``<`` that starts ``<!--`` or ``<script`` (in any
    case) as the JSON escape ``\\u003c``, so no text can close the element (``</script>``)
    or put the HTML parser in a state where it never closes (``<!--<script>``, which left the
    page without its script). Other ``<`` stay as they are: the drawings in the data are full
    of them, and escaping each would make the page a tenth larger.

    >>> print(script_json({"Event": "<!--<script></script>", "svg": "<g><rect/></g>"}))
    {"Event":"\\u003c!--\\u003cscript><\\/script>","svg":"<g><rect/><\\/g>"}
    """
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    return _SCRIPT_HAZARDS.sub("\\\\u003c", text).translate(_LINE_BREAKS)


def _comments(comments: list[str]) -> str:
    return " ".join(f'<span class="comment">{html.escape(text)}</span>' for text in comments)


def _diagnostic_text(diagnostic: Diagnostic) -> str:
    rule = f" [{diagnostic.rule}]" if diagnostic.rule else ""
    return (f"{diagnostic.line}:{diagnostic.column}: {diagnostic.severity}[{diagnostic.code}]: "
            f"{diagnostic.message}{rule}")


# --------------------------------------------------------------------------------------------
# The page


@dataclasses.dataclass
class Page:
    """A record's viewer page and what its replay found (for an index)."""

    html: str
    record: Record
    replay: Replay

    @property
    def is_valid(self) -> bool:
        return self.replay.is_valid


def build_page(record: Record, *, game_name: str | None = None,
               rules_text: str | None = None, title: str | None = None) -> Page:
    """Replay ``record`` (adding its diagnostics to ``record.diagnostics``) and build its page.

    ``game_name`` and ``rules_text`` are the ``--game`` and ``--rules`` overrides;
    ``title`` the page's title (default: the record's Event tag, or its file and number).
    """
    table = PieceTable()
    recorder = _Recorder(table)
    result = replay(record, game_name=game_name, rules_text=rules_text, visitor=recorder,
                    keep_start=True)
    game = result.game
    drawn = result.start is not None and game is not None
    if result.start is not None and game is not None:
        start = recorder.draw(result.start, None)
        builder = _Builder(record, recorder, start, game.format_position(result.start))
        moves_html = builder.rows(record.moves, len(game.sides))
        legend = game.legend_svg(result.start)
    else:
        builder = _Builder(record, recorder, None, "")
        moves_html = builder.line(record.moves, 0, 0)
        legend = ""
    marks: list[tuple[str, ...]] = recorder.marks if drawn else [()]
    options = game.render_options if game is not None and drawn else {}
    page = _page_template().format(
        title=html.escape(title or record.tag("Event") or record_name(record)),
        subtitle=html.escape(_subtitle(record, result)),
        tags=_tags_html(record),
        diagnostics=_diagnostics_html(builder.unplaced),
        options="".join(
            f'<label title="{html.escape(help_text)}"><input type="checkbox" '
            f'name="{html.escape(name)}"> {html.escape(name)}</label>'
            for name, help_text in sorted(options.items())),
        # The key's drawing is in the data, stored as the frames are; the script draws it.
        legend=('<details class="legend"><summary>Key</summary></details>' if legend else ""),
        moves=(_comments(record.initial_comments) + " " + moves_html + " "
               + _comments(record.final_comments)
               + (f' <span class="result">{html.escape(record.result)}</span>'
                  if record.result else "")),
        style=asset("viewer.css"),
        data=script_json(_page_data(table, builder.steps, marks,
                                    game.sides if game is not None else (), legend)),
        script=script_asset("viewer.js"),
    )
    return Page(page, record, result)


def _page_data(table: PieceTable, steps: list[_Step], marks: list[tuple[str, ...]],
               sides: Sequence[str] = (), legend: str = "") -> dict[str, Any]:
    """What the page's script reads: the pieces, each step's plain drawing as edits of its
    parent's (``frames``), each other mark set's layer per step as edits of the parent's
    layer in that set (``layers``, :class:`_FrameEncoder`), the tree of steps, each step's
    status line (``[ply, side]`` for a move: the script adds the side's name from ``sides``
    and the move's text from the list) and position string, and the game's key, ``legend``
    (:func:`~notation_tools.pages.page_notation.write_drawing`)."""
    encoder = _FrameEncoder(steps, table.pieces, table.runs)
    frames = encoder.plain_frames()
    bases = [encoder.base_of(variant, marks) for variant in range(1, len(marks))]
    layers = [encoder.layer_frames(variant, base) for variant, base in enumerate(bases, 1)]
    pieces, templates = template_pieces(table.pieces, encode_pieces(table.pieces, encoder.bases))
    texts, heads = write_pieces(split_changes(pieces, table.pieces), table.pieces)
    return {
        "templates": templates,
        "piece_texts": texts,
        "piece_heads": heads,
        "marks": [list(combination) for combination in marks],
        "parents": [step.parent for step in steps],
        "next": [step.next for step in steps],
        "labels": [step.label for step in steps],
        "sides": list(sides),
        "messages": [step.message for step in steps],
        "fens": _fen_edits(steps),
        "frames": write_frames(frames),
        "layers": [write_frames(variant) for variant in layers],
        "layer_bases": bases,
        "legend": write_drawing(legend) if legend else "",
    }


def read_page_data(data: dict[str, Any]) -> dict[str, Any]:
    """The page's data (:func:`_page_data`) with its dense notation read
    (:mod:`~notation_tools.pages.page_notation`): ``pieces`` the pieces' texts, ``frames``
    the plain drawings' frames and ``layers`` each other mark set's layer frames as lists
    of ints (``layer_bases``: the mark set each set's layers are made over), as :func:`frame_numbers` reads them, and ``fens`` each step's whole position
    string, ``legend`` the key's drawing."""
    read = {key: value for key, value in data.items()
            if key not in ("piece_texts", "piece_heads")}
    read["pieces"] = read_pieces(data["piece_texts"], data["piece_heads"], data["templates"])
    read["frames"] = read_frames(data["frames"])
    read["layers"] = [read_frames(text) for text in data["layers"]]
    read["legend"] = read_drawing(data["legend"]) if data["legend"] else ""
    fens = read["fens"] = list(data["fens"])
    for step, parent in enumerate(data["parents"]):
        if parent >= 0:
            fens[step] = read_text_edits(fens[parent], fens[step])
    return read


def frame_numbers(data: dict[str, Any], step: int, variant: int = 0) -> list[int]:
    """The piece numbers of ``step``'s drawing in mark set ``variant``, rebuilt from the
    page's data read back (:func:`read_page_data`) as the page's script rebuilds them: the
    plain drawing (mark set 0) is its parent's with its frame's edits made (from nothing for
    the first step); another mark set's drawing is its drawing in the set its layers are
    stored over (``layer_bases``) with its layer's edits made
    (:func:`~notation_tools.pages.drawings.layer_edits`), the layer being the parent's layer
    (none for the first step) with its layer frame's edits made."""
    frames = data["frames"] if variant == 0 else data["layers"][variant - 1]
    chain = []
    while step >= 0:
        chain.append(step)
        step = data["parents"][step]
    numbers: list[int] = []
    for link in reversed(chain):
        numbers = apply_edits(numbers, frames[link])
    if variant == 0:
        return numbers
    under = frame_numbers(data, chain[0], data["layer_bases"][variant - 1])
    return apply_edits(under, layer_edits(numbers))


def _fen_edits(steps: list[_Step]) -> list[str]:
    """Each step's position string: the start's whole, each other's as the edits of its
    parent's (:func:`~notation_tools.pages.page_notation.write_text_edits`)."""
    return [step.fen if step.parent < 0 else write_text_edits(steps[step.parent].fen, step.fen)
            for step in steps]


def record_name(record: Record) -> str:
    """How a page names a record: its file's name (an archive member's own name), never
    the path as typed (which may be a local absolute path), and its number in the file.

    >>> record_name(Record(path="/home/me/club/a.tar.gz:games/round 1.pgn", index=2))
    'round 1.pgn, record 2'
    >>> record_name(Record(path="-", index=1))
    'standard input, record 1'
    """
    return f"{file_name(record.path)}, record {record.index}"


def file_name(path: str) -> str:
    """The last part of a record's path: the member's name inside an archive, the file's
    name otherwise (``-`` is standard input)."""
    if path == "-":
        return "standard input"
    member = path.rsplit(":", 1)[-1] if ":" in path[2:] else path
    return os.path.basename(member.replace("\\", "/").rstrip("/")) or member


class _FrameEncoder:
    """Finds the edits that draw each step: its plain drawing as the edits of its parent's
    (:meth:`plain_frames`), and each other mark set's layer, the edits from the plain
    drawing to that set's, as the edits of the parent's layer in that set
    (:meth:`layer_frames`), keeping the pieces each new piece may be a change of
    (``bases``, for :func:`encode_pieces`).

    A display option's layer (Game of War's lines of communication, a mark group, a list
    under the diagram) is drawn again at every position with the game's own ``render_svg``,
    but changes little from one position to the next: stored so, it costs what it changes,
    not a whole drawing per position and mark set."""

    def __init__(self, steps: list[_Step], pieces: list[str],
                 runs: Sequence[str] = ()) -> None:
        self.steps = steps
        self.pieces = pieces
        self.runs = runs
        """Each run's piece numbers, by run number (:attr:`PieceTable.runs`)."""
        self._run_lengths = list(map(len, runs))
        self.bases: dict[int, list[int]] = {}
        self._splices: dict[tuple[str, str], Splice | None] = {}
        """(run numbers of a drawing's runs, those of the runs another drawing has in their
        place) → the edits between their pieces (:func:`_splice`)."""
        self._sampled_splices: dict[tuple[str, str], Splice | None] = {}
        """The same for :meth:`base_of` (kept apart: :meth:`layer_frames` notes the pieces
        of an edit between runs when it first meets it)."""

    def plain_frames(self) -> list[list[Edit]]:
        """Each step's plain drawing (mark set 0) as the edits of its parent's (the first
        step's as one edit that adds all its pieces)."""
        frames: list[list[Edit]] = []
        for step in self.steps:
            if step.parent < 0:
                # The first drawing's lines are changes of nothing: stored whole, or as
                # templates (piece_templates.py), which its rows of squares mostly are.
                frames.append([[0, 0, *map(ord, step.drawing[0])]])
                continue
            before = self.steps[step.parent].drawing[0]
            found = edits(before, step.drawing[0])
            _note_bases(before, found, self.bases, self.pieces)
            frames.append(found)
        return frames

    def layer_frames(self, variant: int, base: int) -> list[list[Edit]]:
        """Each step's layer in mark set ``variant`` over its drawing in mark set ``base``
        (:func:`~notation_tools.pages.drawings.layer_numbers` of the edits from the one to
        the other) as the edits of its parent's layer (of none for the first step)."""
        layers: list[str] = []
        frames: list[list[Edit]] = []
        # The pieces whose bases are noted, as code points: a layer whose pieces met for the
        # first time (``fresh``, from _layer) are all here adds no new piece, found by one
        # set operation at C speed.
        noted = set(map(chr, self.bases))
        spans: list[Spans | None] = []
        for step in self.steps:
            layer, fresh, found_spans = self._layer(
                step, base, variant, self._splices,
                spans[step.parent] if step.parent >= 0 else None)
            spans.append(found_spans)
            before = layers[step.parent] if step.parent >= 0 else ""
            found = edits(before, layer)
            if not noted.issuperset(fresh):
                made = layer_edits(layer)
                if not _all_noted(made, self.bases):
                    known = len(self.bases)
                    # A new piece of the layer is most likely a change of the piece it
                    # replaces in the parent's layer (a mark moved to another square), else
                    # of the line it replaces in the drawing under it.
                    old_pieces = _layer_pieces(before)
                    new_pieces = _layer_pieces(layer)
                    _note_bases(old_pieces, edits(old_pieces, new_pieces), self.bases,
                                self.pieces)
                    _note_bases(step.drawing[base], made, self.bases, self.pieces)
                    noted.update(map(chr, itertools.islice(self.bases, known, None)))
            layers.append(layer)
            frames.append(found)
        return frames

    def layer(self, step: _Step, base: int, variant: int) -> str:
        """The layer of mark set ``variant`` over mark set ``base`` at ``step``: the edits
        from the one's drawing to the other's (:func:`~notation_tools.pages.drawings.edits`),
        written by :func:`~notation_tools.pages.drawings.layer_numbers`.

        A step drawn as runs has its edits found run by run: the two drawings' run numbers
        are compared, and only the runs they do not share (an option's layers, a legend,
        the canvas's height) are compared line by line, each pair of such runs once a page
        (the same options draw the same layers over the same runs at many steps); the
        hundreds of lines they share are passed over at once. Otherwise the two whole
        drawings are compared."""
        return self._layer(step, base, variant, {}, None)[0]

    def _layer(self, step: _Step, base: int, variant: int,
               splices: dict[tuple[str, str], Splice | None],
               hint: Spans | None) -> tuple[str, str, Spans | None]:
        """:meth:`layer`, the edits between runs kept in ``splices``; the pieces it may add
        for the first time, as a ``str`` (those of the edits between runs not in
        ``splices`` before: the others' bases were noted when they were met; the whole
        layer for a step made without runs); and the spans of runs it compared
        (:meth:`_run_spans`): those of ``hint`` (the parent step's) when every run the two
        drawings do not share is still in them, which spares the search, and compares
        the same layers the same way from step to step."""
        if step.runs is None:
            layer = layer_numbers(edits(step.drawing[base], step.drawing[variant]))
            return layer, layer, None
        under_runs, variant_runs = step.runs[base], step.runs[variant]
        if under_runs == variant_runs:
            return "", "", hint
        if hint is None or not _spans_hold(hint, under_runs, variant_runs):
            hint = self._run_spans(under_runs, variant_runs)
        parts: list[str] = []
        fresh: list[str] = []
        end = 0  # where the last edit written ends, in the drawing under
        start = done = 0  # where run ``done`` of the drawing under starts
        shift = 0  # how many runs more the variant has than the drawing under, so far
        run_length = self._run_lengths.__getitem__
        for at, removed, added in hint:
            start += sum(map(run_length, map(ord, under_runs[done:at])))
            done = at + removed
            key = (under_runs[at:done], variant_runs[at + shift:at + shift + added])
            shift += added - removed
            if key in splices:
                splice = splices[key]
            else:
                splice = splices[key] = _splice(edits(numbers_of_runs(self.runs, key[0]),
                                                      numbers_of_runs(self.runs, key[1])))
                if splice is not None:
                    fresh.append(splice[3])
            if splice is not None:
                first, rest, length, _ = splice
                parts.append(chr(start + first - end))
                parts.append(rest)
                end = start + length
            start += sum(map(run_length, map(ord, key[0])))
        return "".join(parts), "".join(fresh), hint

    NEAR = 16
    """Two spans of runs that differ are compared as one when fewer lines than this lie
    between them."""

    def _run_spans(self, under_runs: str, variant_runs: str) -> Spans:
        """The spans of runs in which two drawings' run numbers differ: (where in
        ``under_runs``, how many runs there, how many runs of ``variant_runs`` in their
        place). Spans with few lines between them are joined: where one drawing has a part in
        runs of a line each (drawn afresh) and the other the same part as one run (kept
        whole), the lines they share are matched only when compared line by line together
        (a legend with a few entries more, whose entries' closing lines are alike)."""
        spans: Spans = []
        length = self._run_lengths.__getitem__
        for at, removed, *added in edits(under_runs, variant_runs):
            if spans:
                last_at, last_removed, last_added = spans[-1]
                between = under_runs[last_at + last_removed:at]
                if sum(map(length, map(ord, between))) < self.NEAR:
                    spans[-1] = (last_at, at + removed - last_at,
                                 last_added + len(between) + len(added))
                    continue
            spans.append((at, removed, len(added)))
        return spans

    SAMPLES = 8
    """At how many steps, spread over the game, :meth:`base_of` compares layers."""

    def base_of(self, variant: int, marks: list[tuple[str, ...]]) -> int:
        """The mark set whose drawings mark set ``variant``'s layers are stored over: of the
        plain one and those with one option fewer, the one over which ``variant``'s layer
        changes least from a step to the next, at a few steps spread over the game (each
        compared with its parent). Two options whose layers touch the same lines (a height,
        a key's entries, a relabelling under a lattice) cost their sum over the plain
        drawing, but one option's changes over the other's."""
        combination = marks[variant]
        numbered = {names: number for number, names in enumerate(marks)}
        candidates = sorted({numbered[tuple(name for name in combination if name != left_out)]
                             for left_out in combination})
        if candidates == [0]:
            return 0
        count = len(self.steps)
        sampled = sorted({index * (count - 1) // max(self.SAMPLES - 1, 1)
                          for index in range(min(self.SAMPLES, count))})

        def layer(index: int, base: int) -> str:
            return self._layer(self.steps[index], base, variant, self._sampled_splices,
                               None)[0]

        def cost(base: int) -> int:
            total = 0
            for index in sampled:
                parent = self.steps[index].parent
                before = layer(parent, base) if parent >= 0 else ""
                total += sum(3 + len(edit) for edit in edits(before, layer(index, base)))
            return total

        return min(candidates, key=cost)


Splice = tuple[int, str, int, str]
"""The edits between two runs of pieces: where the first starts, the rest of their
:func:`~notation_tools.pages.drawings.layer_numbers` (after the first edit's place), where
the last ends, and the pieces they add (as a ``str``)."""

Spans = list[tuple[int, int, int]]
"""Where two drawings' run numbers differ: (where in the one's, how many runs there, how many
runs of the other's in their place) each, in order (:meth:`_FrameEncoder._run_spans`)."""


def _spans_hold(spans: Spans, under_runs: str, variant_runs: str) -> bool:
    """Whether ``variant_runs`` is ``under_runs`` with runs changed only within ``spans``
    (compared a stretch at a time, at C speed)."""
    shift = done = 0
    for at, removed, added in spans:
        if (at + removed > len(under_runs)
                or under_runs[done:at] != variant_runs[done + shift:at + shift]):
            return False
        done = at + removed
        shift += added - removed
    return under_runs[done:] == variant_runs[done + shift:]


def _splice(found: list[Edit]) -> Splice | None:
    """The edits ``found`` between two runs of pieces as :meth:`_FrameEncoder.layer`
    keeps them (:data:`Splice`); None when there are none."""
    if not found:
        return None
    last = found[-1]
    return (found[0][0], layer_numbers(found)[1:], last[0] + last[1],
            "".join(map(chr, itertools.chain.from_iterable(
                itertools.islice(edit, 2, None) for edit in found))))


def _layer_pieces(layer: str) -> str:
    """The pieces a layer (:func:`~notation_tools.pages.drawings.layer_numbers`) adds, in
    order, as a ``str`` of piece numbers."""
    pieces = []
    index = 0
    while index < len(layer):  # each edit: its place, how many it removes and adds, the added
        count = ord(layer[index + 2])
        pieces.append(layer[index + 3:index + 3 + count])
        index += 3 + count
    return "".join(pieces)


def _note_bases(before: str, found: list[Edit], bases: dict[int, list[int]],
                pieces: list[str]) -> None:
    """Note, for each piece that first appears in ``found``, the few pieces it is most
    likely a change of: the one it replaces at its place, those the same edits removed
    elsewhere that start with the same tag (a piece moved: its lines at the new square), and
    its neighbours."""
    if _all_noted(found, bases):
        return  # nothing new (most edits): the removed pieces need not be sorted
    removed: dict[str, list[int]] = {}
    for at, count, *_ in found:
        for number in map(ord, before[at:at + count]):
            removed.setdefault(_opening(pieces[number]), []).append(number)
    for at, count, *added in found:
        for offset, number in enumerate(added):
            if number in bases:
                continue
            likely = [ord(before[at + offset])] if offset < count else []
            likely += removed.get(_opening(pieces[number]), [])[:4]
            likely += [ord(before[index]) for index in (at - 1, at + count)
                       if 0 <= index < len(before)]
            bases[number] = [base for base in dict.fromkeys(likely) if base < number]


def _all_noted(found: list[Edit], bases: dict[int, list[int]]) -> bool:
    """Whether every piece the edits ``found`` add has its likely bases noted (asked at C
    speed: the layers of a page add some ten thousand pieces, nearly all noted)."""
    return all(map(bases.__contains__,
                   itertools.chain.from_iterable(itertools.islice(edit, 2, None)
                                                 for edit in found)))


def _opening(piece: str) -> str:
    """A piece's tag name, or its first word (what kind of line it is)."""
    return piece[:max(piece.find(" "), 0)] or piece[:8]


def _subtitle(record: Record, result: Replay) -> str:
    game = result.game.name if result.game is not None else "unknown game"
    rules = f" ({result.rules.describe()})" if result.rules is not None else ""
    verdict = "valid" if result.is_valid else "INVALID"
    return (f"{game}{rules}; {result.plies} plies replayed; result "
            f"{result.result or '*'}; {verdict} — {record_name(record)}")


def _tags_html(record: Record) -> str:
    entries = record.tags.entries()
    rows = "".join(f"<tr><th>{html.escape(tag.name)}</th><td>{html.escape(tag.value)}</td></tr>"
                   for tag in entries)
    return (f'<details class="tags" open><summary>Tags ({len(entries)})</summary>'
            f'<table class="tags">{rows}</table></details>' if rows else "")


def _diagnostics_html(diagnostics: list[Diagnostic]) -> str:
    if not diagnostics:
        return ""
    items = "".join(f'<li class="{"error" if d.is_error else "warning"}">'
                    f"{html.escape(_diagnostic_text(d))}</li>" for d in diagnostics)
    return f'<ul class="diagnostics">{items}</ul>'


def viewer_page(record: Record, *, game_name: str | None = None,
                rules_text: str | None = None) -> str:
    """The self-contained HTML viewer page of ``record`` (see :func:`build_page`).

    >>> from notation_tools.records.pgn import read_records
    >>> record = next(read_records(['[Variant "elevation"]', '', '1. c1:c2>b2,c1-c2 *']))
    >>> page = viewer_page(record)
    >>> page.startswith("<!DOCTYPE html>"), "http" in page.replace("http://www.w3.org/2000/svg", "")
    (True, False)
    """
    return build_page(record, game_name=game_name, rules_text=rules_text).html


# --------------------------------------------------------------------------------------------
# Many records: a page each and an index


@dataclasses.dataclass
class IndexEntry:
    """One row of the index page."""

    file: str
    """The page's file name, inside the output directory."""
    path: str
    index: int
    game: str | None
    tags: list[tuple[str, str]]
    result: str | None
    plies: int
    valid: bool
    first_error: str | None


def page_name(number: int, record: Record, width: int = 5) -> str:
    """The file name of the ``number``-th page: the number, then the record's file stem and
    its number in that file, so that names sort in input order and never collide.

    >>> page_name(3, Record(path="club/a b.tar.xz:games/round 1.pgn", index=2))
    '00003-round-1-2.html'
    """
    stem = os.path.basename(record.path.replace(":", "/")).rsplit(".", 1)[0]
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", stem).strip("-")[:40] or "record"
    return f"{number:0{width}d}-{slug}-{record.index}.html"


def write_pages(records: Iterable[Record], directory: str, *, game_name: str | None = None,
                rules_text: str | None = None, jobs: int = 1,
                on_page: Callable[[IndexEntry, Record], None] | None = None,
                on_lost: Callable[[Diagnostic], None] | None = None,
                title: str | None = None) -> list[IndexEntry]:
    """Write a viewer page for every record into ``directory`` (made if missing), then
    ``index.html`` listing them all (tags, result, validity, a link). With ``jobs`` > 1 the
    pages are built by the runner (:mod:`notation_tools.parallel.runner`) in that many worker
    processes, in input order (what this process holds when they start is frozen out of
    its garbage collection, :func:`gc.freeze`, as the command line does at its start). ``on_page`` is called with each page's index row and its
    record (holding its diagnostics) once the page is written (the CLI prints the
    diagnostics). A record that kills a worker process twice gets no page and no row:
    ``on_lost`` is called with the ``E-WORKER`` diagnostic saying so. ``title`` is the
    index page's title. Returns the rows of the index."""
    os.makedirs(directory, exist_ok=True)
    remaining = iter(records)
    first = next(remaining, None)
    if first is not None and jobs > 1:
        _prepare_workers(first, game_name)
        # What the workers start with (the modules, the kept drawings) is never garbage:
        # their collections need not go over it again and again (nor touch its pages,
        # which the fork shares).
        gc.freeze()
    tasks = (_PageTask(number, record) for number, record
             in enumerate(itertools.chain([first] if first is not None else [], remaining), 1))
    # Any exception but a worker's death ends the run, in worker processes as in this one.
    work = Work(_write_batch, _PageJob(directory, game_name, rules_text), fatal=(Exception,))
    entries = []
    for done in run_batches(batches_of(tasks, 1), work, jobs=jobs, depth=4):
        if isinstance(done, Diagnostic):
            if on_lost is not None:
                on_lost(done)
            continue
        entry, record = done
        entries.append(entry)
        if on_page is not None:
            on_page(entry, record)
    _write_file(os.path.join(directory, "index.html"),
                index_page(entries, title=title or "Game records"))
    return entries


def _prepare_workers(record: Record, game_name: str | None) -> None:
    """Load the game of ``record`` and draw its start position under every mark set, in
    this process, before the worker processes start: forked, they start with the game's
    modules loaded and its board's kept drawings (:meth:`SvgDocument.cached
    <notation_tools.render.svg.SvgDocument.cached>`), instead of each importing the game
    and drawing its board afresh for its first page. A record whose game is not known is
    left to its page to report."""
    # Imported here: the selection module brings the pattern and opening machinery, which
    # one page (no workers) would load for nothing.
    from notation_tools.analysis.select import game_of

    game = game_of(record, game_name)
    if game is None:
        return
    game.render_svg_runs(game.start_position(game.parse_rules(None)), mark_sets(game))


def _write_file(path: str, text: str) -> None:
    """Write ``text`` to ``path``; a failed write (a full disk) raises ``OSError`` naming
    the file, which a failed ``write`` alone does not. A lone surrogate (a JSON record's
    ``"\\ud800"``) is written as its backslash escape, as every output of the CLI does."""
    try:
        with open(path, "w", encoding="utf-8", errors="backslashreplace") as stream:
            stream.write(text)
    except OSError as error:
        if error.filename is None:
            error.filename = path
        raise


@dataclasses.dataclass(frozen=True)
class _PageJob:
    """What every page of a run shares: the output directory and the overrides."""

    directory: str
    game_name: str | None
    rules_text: str | None


@dataclasses.dataclass(frozen=True)
class _PageTask:
    """One page to write: the record and its number in the run."""

    number: int
    record: Record

    @property
    def path(self) -> str:
        """The record's input, which a diagnostic about this task names."""
        return self.record.path


def _write_batch(batch: list[_PageTask], job: _PageJob) -> list[tuple[IndexEntry, Record]]:
    return [_write_page(job, task) for task in batch]


def _write_page(job: _PageJob, task: _PageTask) -> tuple[IndexEntry, Record]:
    page = build_page(task.record, game_name=job.game_name, rules_text=job.rules_text)
    name = page_name(task.number, task.record)
    _write_file(os.path.join(job.directory, name), page.html)
    return index_entry(name, page), task.record


def index_entry(name: str, page: Page) -> IndexEntry:
    """The index row of ``page``, written to the file ``name``."""
    record, result = page.record, page.replay
    first = next((d for d in record.diagnostics if d.is_error), None)
    return IndexEntry(name, record.path, record.index,
                      result.game.id if result.game is not None else None,
                      [(tag.name, tag.value) for tag in record.tags.entries()], result.result,
                      result.plies, page.is_valid,
                      _diagnostic_text(first) if first is not None else None)


INDEX_TAGS = ("Event", "Site", "Date", "Round")
"""The tags the index gives a column each; the others are listed together."""


def index_page(entries: Sequence[IndexEntry], *, title: str = "Game records") -> str:
    """The index page: one row per page, with its tags, result, plies, validity and link."""
    rows = []
    for entry in entries:
        tags = dict(entry.tags)
        named = "".join(f"<td>{html.escape(tags.get(name, ''))}</td>" for name in INDEX_TAGS)
        others = "; ".join(f"{name}: {value}" for name, value in entry.tags
                           if name not in INDEX_TAGS and name != "Result")
        first_error = html.escape(entry.first_error or "")
        verdict = ("valid" if entry.valid
                   else f'<span class="error">invalid</span> {first_error}')
        rows.append(
            f'<tr class="{"valid" if entry.valid else "invalid"}">'
            f'<td><a href="{html.escape(entry.file)}">{html.escape(file_name(entry.path))} '
            f"#{entry.index}</a></td><td>{html.escape(entry.game or '?')}</td>{named}"
            f"<td>{html.escape(others)}</td><td>{html.escape(entry.result or '*')}</td>"
            f"<td>{entry.plies}</td><td>{verdict}</td></tr>")
    valid = sum(entry.valid for entry in entries)
    head = "".join(f"<th>{name}</th>" for name in ("Record", "Game", *INDEX_TAGS, "Other tags",
                                                     "Result", "Plies", "Validity"))
    return _index_template().format(title=html.escape(title), style=asset("viewer.css"),
                         summary=f"{len(entries)} records: {valid} valid, "
                                 f"{len(entries) - valid} invalid",
                         head=head, rows="\n".join(rows))



# --------------------------------------------------------------------------------------------
# The page's frame, style and script: package data files (the page inlines them and needs
# nothing else). viewer.js rebuilds the drawing of a step from its parent's with the step's
# edits applied, last first, starting from the nearest drawing already known, and keeps it.


def _page_template() -> str:
    return asset("viewer-head.html") + asset("viewer-page.html")


def _index_template() -> str:
    return asset("viewer-head.html") + asset("viewer-index.html")
