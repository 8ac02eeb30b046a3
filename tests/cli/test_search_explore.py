"""search, explore, select --reaches --db and pattern search from the command line: results,
formats and exit statuses (docs/commands/search.md, explore.md, docs/pattern.md)."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from notation_tools.analysis.pattern import PatternError, parse_pattern
from notation_tools.analysis.replay import replay
from notation_tools.cli import main
from notation_tools.games.base import get_game
from notation_tools.records.pgn import read_records
from tests.storage.index_support import archive_text


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


@pytest.fixture(scope="module")
def indexed(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cli")
    path = folder / "archive.pgn"
    path.write_text(archive_text("gow", count=16, seed=11), encoding="utf-8")
    database = folder / "games.sqlite"
    assert run("analyze", path, "--db", database, "--index", "positions", "-q",
               "-o", folder / "report.txt").exit_code == 0
    return folder, path, database


def test_search_lists_records_in_every_format(indexed):
    folder, path, database = indexed
    rows = json.loads(run("search", database, "-f", "json").output)["rows"]
    assert sorted(row["record"] for row in rows) == list(range(1, 17))
    assert all(row["ply"] == 0 and row["path"] == str(path) for row in rows)
    assert rows[0]["tags"]["Event"] == "index test"
    csv = run("search", database, "-f", "csv").output.splitlines()
    assert csv[0].startswith("path,record,ply,result,North,South,Date,Event")
    assert len(csv) == 17


def test_top_lists_the_first_records_and_the_most_played_moves_and_counts_the_rest(indexed):
    folder, path, database = indexed
    everything = json.loads(run("search", database, "--top", "0", "-f", "json").stdout)["rows"]
    cut = run("search", database, "--top", "3", "-f", "json")
    assert json.loads(cut.stdout)["rows"] == everything[:3]
    assert f"{len(everything) - 3} more of {len(everything)} records not listed" in cut.stderr
    assert "not listed" not in run("search", database, "--top", "0").stderr
    moves = json.loads(run("explore", database, "--top", "0", "-f", "json").stdout)
    assert len(moves["moves"]) > 1 and moves["rest"] == {"moves": 0, "games": 0}
    first = json.loads(run("explore", database, "--top", "1", "-f", "json").stdout)
    assert first["moves"] == moves["moves"][:1]
    assert first["rest"] == {"moves": len(moves["moves"]) - 1,
                             "games": sum(m["games"] for m in moves["moves"][1:])}
    table = run("explore", database, "--top", "1").stdout
    assert f"{len(moves['moves']) - 1} more moves ({first['rest']['games']} records) not " \
        "listed" in table


def test_select_reaches_with_the_index_writes_what_replay_writes(indexed):
    folder, path, database = indexed
    explored = json.loads(run("explore", database, "-f", "json").output)
    fen = explored["moves"][0]["fen"]
    replayed = run("select", path, "--reaches", fen, "-o", folder / "a.pgn")
    indexed_run = run("select", path, "--reaches", fen, "--db", database, "-o", folder / "b.pgn")
    assert replayed.exit_code == indexed_run.exit_code == 0
    assert (folder / "a.pgn").read_text() == (folder / "b.pgn").read_text()
    assert (folder / "a.pgn").read_text().count("[Event") == explored["moves"][0]["games"]


def test_explore_writes_a_page_and_suggestions(indexed):
    folder, path, database = indexed
    page = folder / "explorer.html"
    result = run("explore", database, "--html", page, "--depth", "1")
    assert result.exit_code == 0 and "records reach the position" in result.output
    assert page.read_text().count("<svg") >= 2
    suggested = json.loads(run("explore", database, "--suggest", "2", "-f", "json").output)
    assert 1 <= len(suggested["rows"]) <= 2 and all(r["records"] >= 2 for r in suggested["rows"])


@pytest.mark.parametrize("args, message", [
    (["analyze", "x.pgn", "--index", "positions"], "goes with --db"),
    (["search", "missing.sqlite"], "no such database"),
    (["explore", "missing.sqlite"], "no such database"),
    (["select", "x.pgn", "--db", "games.sqlite"], "goes with --reaches"),
    (["select", "x.pgn", "--at", "3"], "goes with --square or --material"),
    (["select", "x.pgn", "--material", "North: I>>3"], "is not PIECE OP COUNT"),
])
def test_usage_errors_exit_2_with_a_diagnostic(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.pgn").write_text(archive_text("shuriken", count=1, seed=1))
    result = run(*args)
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output


def test_bad_positions_moves_and_databases_exit_2(indexed, tmp_path):
    folder, path, database = indexed
    for args in (["--position", "not a position"], ["--moves", "Z99-Z98"]):
        for command in ("search", "explore"):
            result = run(command, database, *args)
            assert result.exit_code == 2 and "Error:" in result.output, (command, args)
    plain = tmp_path / "plain.sqlite"
    run("analyze", path, "--db", plain, "-q", "-o", tmp_path / "r.txt")
    result = run("search", plain)
    assert result.exit_code == 2 and "no position index" in result.output
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 10)
    assert run("explore", junk).exit_code == 2


def _brute_force_pattern(text, path, game_id, holds, plies=(None, None)):
    """Records whose main line has a position where ``holds(board)`` (square → (side,
    piece)) within ``plies``, by replaying every ply."""
    game = get_game(game_id)
    matched = set()
    for record in read_records(text.splitlines(keepends=True), path):
        positions = []
        result = replay(record, keep_start=True)
        position = result.start
        positions.append(position.copy())
        for node in record.moves:
            position.push(game.resolve_move(node.text, position).move)
            positions.append(position.copy())
        for ply, position in enumerate(positions):
            low, high = plies
            if (low is None or ply >= low) and (high is None or ply <= high):
                board = {sq: (side, piece) for sq, side, piece in game.occupants(position)}
                if holds(board):
                    matched.add(record.index)
                    break
    return matched


@pytest.mark.parametrize("game_id", ["gow", "elevation", "maka"])
def test_pattern_search_equals_a_brute_force_walk(tmp_path, game_id):
    game = get_game(game_id)
    text = archive_text(game_id, count=12, seed=21)
    path = tmp_path / "a.pgn"
    path.write_text(text)
    start = game.start_position(game.parse_rules(None))
    rng = random.Random(3)
    square, side, piece = rng.choice(sorted(game.occupants(start)))
    empty = rng.choice(sorted(set(game.square_names) - {s for s, _, _ in game.occupants(start)}))
    side_name = game.sides[side]
    count = sum(1 for _, s, p in game.occupants(start) if (s, p) == (side, piece))
    cases = [
        (["--square", f"{square}={side_name}:{piece}", "--square", f"{empty}=empty",
          "--at", "2..5"],
         lambda b: b.get(square) == (side, piece) and empty not in b, (2, 5)),
        (["--material", f"{side_name}: {piece}<{count}"],
         lambda b: sum(1 for v in b.values() if v == (side, piece)) < count, (None, None)),
        (["--square", f"{square}=any", "--material", f"{side_name}: *>=1", "--at", "3.."],
         lambda b: square in b and any(v[0] == side for v in b.values()), (3, None)),
    ]
    for args, holds, plies in cases:
        expected = _brute_force_pattern(text, str(path), game_id, holds, plies)
        result = run("select", path, "--game", game_id, *args, "-o", tmp_path / "m.pgn")
        assert result.exit_code == 0
        written = (tmp_path / "m.pgn").read_text()
        got = {int(r.tag("Round")) for r in read_records(written.splitlines(keepends=True))}
        assert got == expected, args


def test_a_pattern_names_the_game_s_own_squares_and_sides():
    game = get_game("elevation")
    with pytest.raises(PatternError, match="not a square of Elevation"):
        parse_pattern(game, squares=["z9=any"])
    with pytest.raises(PatternError, match="not a side of Elevation"):
        parse_pattern(game, material="Red: S>1")
    with pytest.raises(PatternError, match="empty range"):
        parse_pattern(game, squares=["a1=any"], at="9..3")
    pattern = parse_pattern(game, squares=["a1=White:S", "a3=empty"], material="black: *=6")
    start = game.start_position(game.parse_rules(None))
    assert pattern.holds(game, start)  # §: the start has White's Samurai on a1, six a side
