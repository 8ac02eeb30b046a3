"""Nothing lost in writing (issue #25): whatever a writer emits reads back as the same records
with the same verdicts, whatever format a record was read from.

Three laws, each on every writer (PGN, JSON, JSON Lines):

* every record of every sample file (PGN, other programs' scores read by their look,
  ShogiVar saves, archives, broken files) written by ``convert`` and by ``select`` reads back
  as a record with the same main line (move digest) and the same verdict; records written +
  records refused (``E-CANNOT-WRITE``, one each) = records read;
* random records (generated games of every game, then damaged the ways records arrive: no
  move numbers, no result, no ``Result`` tag, moves given only as JSON data, comments with
  brackets, NAGs, variations) written several to a stream read back one for one, never merged;
* a record whose variations nest as deep as the depth limit allows goes through every command.
"""

from __future__ import annotations

import functools
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation_tools.parallel.batch import iter_records, records_of_units
from notation_tools.analysis.convert import Conversion, convert_record, write_converted
from notation_tools.analysis.generate import generate_records
from notation_tools.analysis.replay import replay
from notation_tools.cli import main
from notation_tools.games.base import all_games, get_game
from notation_tools.limits import DEFAULT, Limits
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.model import Move, Record, Tag
from notation_tools.records.writers import RECORD_WRITERS
from notation_tools.sources import iter_stream

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
CONTAINERS = sorted(RECORD_WRITERS)
_REFUSED = re.compile(r"^(.*):(\d+):\d+: error\[E-CANNOT-WRITE\]", re.M)


def verdict(record: Record, **overrides: Any) -> tuple[bool, tuple[str, ...], str | None, int]:
    """What a reader of the record learns: valid or not, its error codes, the identity of its
    main line (game, rules, start and moves) and how many plies replayed."""
    result = replay(record, digest=True, **overrides)
    codes = tuple(d.code for d in record.diagnostics if d.is_error)
    return result.is_valid, codes, result.digest, result.plies


def records_of_text(text: str, name: str, limits: Limits = DEFAULT) -> list[Any]:
    """The records (and diagnostics) of a text as a file called ``name`` gives them."""
    return list(records_of_units(iter_stream(io.BytesIO(text.encode("utf-8")), name,
                                             limits=limits), limits))


def read_back(text: str, name: str) -> list[Record]:
    items = records_of_text(text, name)
    assert not [i for i in items if isinstance(i, Diagnostic)], items
    return items


@functools.cache
def sample_originals() -> tuple[list[tuple[str, int, bool, tuple[Any, ...]]], int]:
    """Every record of sample_games/ read as one input: (path, line, read whole, verdict),
    and the number of inputs that could not be read at all."""
    rows, unreadable = [], 0
    for item in iter_records([str(SAMPLES)]):
        if isinstance(item, Diagnostic):
            unreadable += 1
            continue
        whole = not any(d.is_error for d in item.diagnostics)
        rows.append((item.path, item.line, whole, verdict(item)))
    return rows, unreadable


def test_the_samples_hold_every_kind_of_input():
    rows, unreadable = sample_originals()
    paths = {path for path, *_ in rows}
    for kind in (".svar", ".txt", ".tar.gz:", ".pgn"):
        assert any(kind in path for path in paths), kind
    assert any(not whole for _, _, whole, _ in rows) and unreadable >= 1


@pytest.mark.parametrize("command", ["convert", "select"])
@pytest.mark.parametrize("container", CONTAINERS)
def test_every_sample_record_written_reads_back_with_its_verdict(tmp_path, command, container):
    rows, _ = sample_originals()
    out = tmp_path / f"out.{container}"
    args = [command, str(SAMPLES), "--to", container, "-o", str(out)]
    result = CliRunner().invoke(main, args)
    assert "internal error" not in result.output and result.exception is None \
        or isinstance(result.exception, SystemExit), result.output
    refused = {(path, int(line)) for path, line in _REFUSED.findall(result.output)}
    assert len(refused) == len(_REFUSED.findall(result.output)), "one refusal a record"
    expected = [row for row in rows if (row[0], row[1]) not in refused]
    # a record is refused only when it was not read whole (convert: every such record)
    assert all(not whole for path, line, whole, _ in rows if (path, line) in refused)
    if command == "convert":
        assert {(p, line) for p, line, whole, _ in rows if not whole} == refused
    back = read_back(out.read_text(encoding="utf-8"), out.name)
    assert len(back) + len(refused) == len(rows)
    for (path, line, _, before), record in zip(expected, back):
        assert verdict(record) == before, (path, line)


def test_a_score_known_by_its_look_is_written_with_its_game_and_its_title_as_a_comment():
    (record,) = list(iter_records([str(SAMPLES / "maka" / "maka-cvc-A.txt")]))
    before = verdict(record)
    convert_record(record, Conversion("pgn"))
    text = write_one(record, "pgn")
    assert text.startswith('[Variant "maka-dai-dai-shogi"]\n[Result "*"]\n\n'
                           '{Ultra Great Great Shogi - Game Record} 1. P-10m P-8g 2.')
    assert text.count("Ultra") == 1 and "____" not in text
    (again,) = read_back(text, "a.pgn")
    assert verdict(again) == before


def test_a_shogivar_save_is_written_as_numbered_pgn_with_a_result():
    (record,) = list(iter_records([str(SAMPLES / "maka" / "maka-handicap-C.svar")]))
    before = verdict(record)
    convert_record(record, Conversion("pgn"))
    text = write_one(record, "pgn")
    # White moves first in this handicap game: its first move is numbered 1...
    assert re.search(r"\n\n1\.\.\. P-10g 2\. P-8m Ca-10f 3\. P-12m", text)
    assert '[Result "*"]' in text and text.rstrip().endswith("*")
    (again,) = read_back(text, "c.pgn")
    assert verdict(again) == before


def write_one(record: Record, container: str) -> str:
    out = io.StringIO()
    writer = RECORD_WRITERS[container](out)
    assert write_converted(record, writer), record.diagnostics
    writer.end()
    return out.getvalue()


# ------------------------------------------------------------------------------------------
# Random records, damaged the ways records arrive


@functools.cache
def material() -> tuple[Record, ...]:
    """A few generated games of every game (short, so that the law runs fast)."""
    found: list[Record] = []
    for game in all_games():
        rules = game.parse_rules(None)
        found += generate_records(game, rules, count=3, seed=25, max_plies=12)
    return tuple(found)


ODD_TEXT = st.text(alphabet="ab {}()[];%$*\"\\\n1.-/", max_size=12)


@st.composite
def damaged_records(draw: st.DrawFn) -> Record:
    record = draw(st.sampled_from(material())).copy()
    game = get_game(record.tag("Variant") or "")
    moves = record.moves
    if draw(st.booleans()):  # numbers lost (a foreign reader writes none)
        for move in moves:
            move.number = None
    if draw(st.booleans()):  # the result token lost
        record.result = None
    if draw(st.booleans()):
        record.remove_tag("Result")
    for name in draw(st.lists(st.sampled_from(["Event", "White", "Site"]), max_size=2)):
        record.set_tag(name, draw(st.text(alphabet='ab "\\[]{}é\u2028', max_size=8)))
    if moves and draw(st.booleans()):  # comments and NAGs where a writer may put them
        move = moves[draw(st.integers(0, len(moves) - 1))]
        move.comments.append(draw(ODD_TEXT.filter(lambda t: "}" not in t or "\n" not in t)))
        move.nags.append(f"${draw(st.integers(0, 255))}")
    if len(moves) > 2 and draw(st.booleans()):  # a variation: the later moves again
        at = draw(st.integers(1, len(moves) - 1))
        moves[at].variations.append([Move(m.text) for m in moves[at:]])
    if moves and game.has_json_moves and draw(st.booleans()):  # moves given as data only
        position = game.start_position(game.parse_rules(record.tag("Rules")))
        for move in moves:
            resolved = game.resolve_move(move.text, position).move
            move.data, move.text = game.move_to_json(resolved, position), ""
            position.push(resolved)
    return record


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records=st.lists(damaged_records(), min_size=1, max_size=4),
       container=st.sampled_from(CONTAINERS))
def test_records_written_together_read_back_one_for_one(records, container):
    before = [verdict(r.copy()) for r in records]
    out = io.StringIO()
    writer = RECORD_WRITERS[container](out)
    written = []
    for record, seen in zip(records, before):
        work = record.copy()
        convert_record(work, Conversion(container))
        if write_converted(work, writer):
            written.append((seen, work))
        else:  # only a record PGN cannot hold as it is may be refused, and says so
            assert container == "pgn" and work.diagnostics[-1].code == "E-CANNOT-WRITE"
    writer.end()
    back = read_back(out.getvalue(), f"out.{container}")
    assert len(back) == len(written)
    for (seen, work), again in zip(written, back):
        assert verdict(again) == seen
        assert comments_of(again) == comments_of(work)


def comments_of(record: Record) -> list[str]:
    found = list(record.initial_comments) + list(record.final_comments)
    pending = [record.moves]
    while pending:
        for move in pending.pop():
            found += move.comments_before + move.comments + move.nags
            pending.extend(move.variations)
    return sorted(found)


# ------------------------------------------------------------------------------------------
# Deep variations: within the depth limit, every command works


def deep_record(levels: int) -> str:
    """A valid Elevation record whose variations nest ``levels`` deep (each an alternative to
    the first move: the same move again)."""
    (record,) = generate_records(get_game("elevation"), get_game("elevation").parse_rules(None),
                                 count=1, seed=3, max_plies=1)
    first = record.moves[0].text
    inner = ""
    for _ in range(levels):
        inner = f"( 1. {first} {inner})"
    return f'[Variant "elevation"]\n\n1. {first} {inner}*\n\n'


COMMANDS = [["validate"], ["show"], ["stats"], ["analyze", "--jobs", "1"],
            ["convert", "--to", "pgn"], ["convert", "--to", "json"],
            ["convert", "--to", "jsonl"], ["convert", "--to", "elevation-explicit"],
            ["select"], ["select", "--to", "json"], ["select", "--valid", "--to", "jsonl"],
            ["select", "--notation", "elevation-explicit"], ["select", "--dedupe"],
            ["html", "-o", "{tmp}/page.html"]]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_record_nested_to_the_depth_limit_goes_through_every_command(tmp_path, command):
    path = tmp_path / "deep.pgn"
    path.write_text(deep_record(200), encoding="utf-8")  # the deepest --limit allows
    args = [part.replace("{tmp}", str(tmp_path)) for part in command]
    result = CliRunner().invoke(main, [*args, str(path), "--limit", "depth=200"])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert result.exit_code == 0, result.output[-2000:]
    assert "internal error" not in result.output
    if command[0] in ("convert", "select"):  # and what was written reads back the same
        text = result.stdout
        suffix = "json" if "json" in command else "jsonl" if "jsonl" in command else "pgn"
        items = records_of_text(text, f"out.{suffix}", Limits(max_depth=200))
        assert len(items) == 1 and not items[0].diagnostics
        (original,) = records_of_text(path.read_text(), "deep.pgn", Limits(max_depth=200))
        assert verdict(items[0]) == verdict(original)


def test_a_record_nested_past_the_depth_limit_is_refused_with_e_limit(tmp_path):
    path = tmp_path / "deeper.pgn"
    path.write_text(deep_record(201), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path), "--limit", "depth=200"])
    assert result.exit_code == 1 and "E-LIMIT" in result.output


# ------------------------------------------------------------------------------------------
# JSON records with fields of the wrong type


FIELDS = ["tags", "moves", "result", "initial_comments", "final_comments", "move",
          "number", "comments", "comments_before", "nags", "variations"]
WRONG = [[1], {"a": 1}, 7, 1.5, None, True, "x", [[1]]]


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("value", WRONG, ids=lambda v: json.dumps(v))
def test_a_json_field_of_the_wrong_type_is_one_diagnostic_and_the_run_goes_on(tmp_path,
                                                                              field, value):
    record: dict[str, Any] = {"tags": {"Variant": "shih"}, "moves": [
        {"move": "x", "number": "1.", "comments": [], "comments_before": [], "nags": [],
         "variations": []}], "result": "*", "initial_comments": [], "final_comments": []}
    if field in record:
        record[field] = value
    else:
        record["moves"][0][field] = value
    good = {"tags": {"Variant": "shih"}, "moves": [], "result": "*"}
    path = tmp_path / "edited.json"
    path.write_text(json.dumps([record, good]), encoding="utf-8")
    for command in (["validate"], ["convert", "--to", "pgn"], ["select"], ["show"],
                    ["stats"], ["html", "-o", str(tmp_path / "out")]):
        result = CliRunner().invoke(main, [*command, str(path)])
        assert result.exception is None or isinstance(result.exception, SystemExit), \
            (command, repr(result.exception))
        assert "internal error" not in result.output, command
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert "2 records" in result.output  # the record after it is read too


def test_a_kfen_file_of_deeply_nested_arrays_is_a_diagnostic(tmp_path):
    path = tmp_path / "deep.kfen"
    path.write_text("[" * 5000 + "]" * 5000, encoding="utf-8")
    for command in (["validate"], ["convert", "--to", "pgn"], ["show"], ["select"],
                    ["html", "-o", str(tmp_path / "out")]):
        result = CliRunner().invoke(main, [*command, str(path)])
        assert result.exception is None or isinstance(result.exception, SystemExit), command
        assert "internal error" not in result.output and "E-KFEN" in result.output, \
            (command, result.output)


def test_a_notation_of_another_game_refuses_the_record_instead_of_echoing_it():
    result = CliRunner().invoke(main, ["convert", "--to", "shih",
                                       str(SAMPLES / "maka" / "tsa-sample-record.pgn")])
    assert result.exit_code == 1
    assert "E-BAD-NOTATION" in result.output and "[Variant" not in result.stdout


def test_the_random_material_covers_every_game():
    assert {r.tag("Variant") for r in material()} == {g.id for g in all_games()}
    assert all(r.moves for r in material())
