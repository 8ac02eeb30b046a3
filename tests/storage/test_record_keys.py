"""Each record's main-line keys (``record_keys``, docs/database.md, "The position index"):
the explorer reads the position after a move from them, and forgetting an input finds its
rows by them. A database an earlier release indexed has ``positions_line`` (an index of
``positions`` by record) instead: it is read as it is, the next indexed run gives its
records their keys and drops the index, and records an earlier release adds to a database
without their keys are read through the index it makes again."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation_tools.analysis.generate import random_move
from notation_tools.games.base import get_game
from notation_tools.parallel.batch import Settings
from notation_tools.parallel.session import open_session
from notation_tools.storage import position_index
from notation_tools.storage.game_database import Database
from tests.storage.index_support import archive_text, brute_force, query
from tests.storage.test_index_rows import assert_index_whole

GAMES = ("maka", "gow", "shih", "elevation", "shuriken")


def _analyze(database: Path, paths: list[Path], index: str = "positions") -> None:
    settings_ = Settings(collect_stats=True, details=True, index=index)
    with open_session(settings_, jobs=1, database=str(database)) as session:
        list(session.reports([str(path) for path in paths]))


def _answers(database: Path, paths: list[Path]) -> dict[tuple[str, str], object]:
    """What the explorer (whole and cut to two moves) and search say at every position the
    archives' main lines reach."""
    fens: set[str] = set()
    for path in paths:
        fens.update(brute_force(path.read_text(encoding="utf-8"), str(path))[1])
    found: dict[tuple[str, str], object] = {}
    with Database(str(database)) as db:
        for fen in sorted(fens):
            for game_id in db.games():
                try:
                    found[fen, game_id] = (db.explore(fen, game=game_id),
                                           db.explore(fen, game=game_id, limit=2),
                                           db.search(fen, game=game_id))
                except Exception:  # noqa: BLE001 - the position string is another game's
                    continue
    return found


def _as_earlier_release(database: Path) -> None:
    """Give ``database`` the layout of a release before ``record_keys``."""
    connection = sqlite3.connect(database)
    connection.execute("CREATE INDEX positions_line ON positions (record_id, line, ply)")
    connection.execute("DROP TABLE record_keys")
    connection.commit()
    connection.close()


def _line_index(database: Path) -> bool:
    return bool(query(database, "SELECT 1 FROM sqlite_master WHERE name = 'positions_line'"))


def _inputs(folder: Path, game_id: str, seed: int, counts: list[int]) -> list[Path]:
    paths = []
    for number, count in enumerate(counts):
        path = folder / f"{number}.pgn"
        path.write_text(archive_text(game_id, count=count, seed=seed + number),
                        encoding="utf-8")
        paths.append(path)
    return paths


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_id=st.sampled_from(GAMES), seed=st.integers(0, 10_000),
       first=st.integers(2, 8), second=st.integers(1, 6))
def test_a_database_an_earlier_release_indexed_is_read_and_then_given_keys(
        tmp_path_factory, game_id, seed, first, second):
    folder = tmp_path_factory.mktemp("earlier")
    paths = _inputs(folder, game_id, seed, [first, second])
    fresh = folder / "fresh.sqlite"
    _analyze(fresh, paths)
    assert_index_whole(fresh)
    both = _answers(fresh, paths)
    alone, earlier = folder / "alone.sqlite", folder / "earlier.sqlite"
    _analyze(alone, paths[:1])
    _analyze(earlier, paths[:1])
    _as_earlier_release(earlier)
    assert _answers(earlier, paths[:1]) == _answers(alone, paths[:1])  # read as it is
    _analyze(earlier, paths)  # the next run: the first input's records get their keys
    assert not _line_index(earlier)
    assert_index_whole(earlier)
    assert _answers(earlier, paths) == both


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_id=st.sampled_from(GAMES), seed=st.integers(0, 10_000),
       counts=st.lists(st.integers(1, 6), min_size=3, max_size=3))
def test_records_an_earlier_release_adds_are_read_through_its_index(
        tmp_path_factory, game_id, seed, counts):
    """An earlier release writing to this release's database makes ``positions_line`` again
    (over every row) and stores its records without keys."""
    folder = tmp_path_factory.mktemp("mixed")
    paths = _inputs(folder, game_id, seed, counts)
    mixed = folder / "mixed.sqlite"
    _analyze(mixed, paths[:1])
    connection = sqlite3.connect(mixed)
    connection.execute("CREATE INDEX positions_line ON positions (record_id, line, ply)")
    connection.commit()
    connection.close()
    with pytest.MonkeyPatch.context() as patch:  # the earlier release's writer
        patch.setattr(position_index, "retire_line_index", lambda connection: None)
        patch.setattr(position_index, "main_line_keys", lambda positions: b"")
        _analyze(mixed, paths[:2])
    keyed = {row[0] for row in query(mixed, "SELECT record_id FROM record_keys")}
    indexed = {row[0] for row in query(mixed, "SELECT record_id FROM positions")}
    assert keyed and keyed < indexed  # the second input's records have no keys
    two = folder / "two.sqlite"
    _analyze(two, paths[:2])
    assert _answers(mixed, paths[:2]) == _answers(two, paths[:2])
    _analyze(mixed, paths)  # this release again: every record gets its keys
    assert not _line_index(mixed)
    assert_index_whole(mixed)
    three = folder / "three.sqlite"
    _analyze(three, paths)
    assert _answers(mixed, paths) == _answers(three, paths)


def _with_variations(game_id: str, seed: int, count: int) -> str:
    """``count`` short records of ``game_id``, each with a variation at its second ply."""
    game = get_game(game_id)
    rng = random.Random(seed)
    texts = []
    for index in range(count):
        position = game.start_position(game.parse_rules(None))
        written = []
        for ply in range(rng.randrange(2, 6)):
            move = random_move(game, position, rng)
            if move is None:
                break
            text = game.format_move(move, position)
            written.append(text)
            if ply == 1:
                other = random_move(game, position, rng)
                if other is not None and game.format_move(other, position) != text:
                    written.append(f"({game.format_move(other, position)})")
            position.push(move)
        texts.append(f'[Event "variations"]\n[Variant "{game.id}"]\n[Round "{index + 1}"]\n'
                     f'[Result "*"]\n\n{" ".join(written)} *\n')
    return "\n".join(texts)


@pytest.mark.parametrize("layout", ["keys", "earlier release", "records without keys",
                                    "before either"])
@pytest.mark.parametrize("index", ["positions", "variations"])
@pytest.mark.parametrize("share", [2.0, 0.0], ids=["by keys", "by a pass"])
def test_a_changed_input_leaves_no_rows_of_its_old_records(tmp_path, monkeypatch, layout,
                                                           index, share):
    """Whichever way its rows are found (by the records' keys, through an earlier release's
    ``positions_line``, or by a pass over the table for records without keys, some or all:
    a database indexed before either), an input analysed again leaves exactly the rows a
    new database of it has: its variations' too. An input of a large share of the rows is
    deleted by a pass whatever the layout (``share``: FORGET_BY_KEYS_BELOW, 2 never, 0
    always)."""
    monkeypatch.setattr(position_index, "FORGET_BY_KEYS_BELOW", share)
    path = tmp_path / "a.pgn"
    other = tmp_path / "b.pgn"
    other.write_text(_with_variations("shuriken", 5, 4), encoding="utf-8")
    path.write_text(_with_variations("shuriken", 1, 6), encoding="utf-8")
    database = tmp_path / "r.sqlite"
    _analyze(database, [path, other], index)
    if index == "variations":
        assert query(database, "SELECT count(*) FROM positions WHERE line > 0")[0][0] > 0
    if layout == "earlier release":
        _as_earlier_release(database)
    elif layout == "before either":
        connection = sqlite3.connect(database)
        connection.execute("DROP TABLE record_keys")
        connection.commit()
        connection.close()
    elif layout == "records without keys":
        connection = sqlite3.connect(database)
        connection.execute("DELETE FROM record_keys WHERE record_id IN (SELECT records.id "
                           "FROM records JOIN inputs ON inputs.id = input_id WHERE "
                           "inputs.path = ? AND record_index % 2 = 1)", (str(path),))
        connection.commit()
        connection.close()
    path.write_text(_with_variations("shuriken", 2, 5), encoding="utf-8")
    _analyze(database, [path, other], index)
    fresh = tmp_path / "fresh.sqlite"
    _analyze(fresh, [path, other], index)
    rows = ("SELECT p.key, r.source, r.record_index, p.line, p.ply, m.text FROM positions "
            "AS p JOIN records AS r ON r.id = p.record_id LEFT JOIN position_moves AS m "
            "ON m.id = p.move_id ORDER BY 1, 2, 3, 4, 5")
    assert query(database, rows) == query(fresh, rows)
    assert query(database, "SELECT count(*) FROM positions")[0][0] == \
        query(fresh, "SELECT count(*) FROM positions")[0][0]
    if layout != "before either":  # there the unchanged input's records stay without keys
        assert_index_whole(database)
    assert query(database, "PRAGMA integrity_check") == [("ok",)]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_id=st.sampled_from(GAMES), seed=st.integers(0, 10_000),
       count=st.integers(3, 10), earlier=st.booleans())
def test_the_key_after_each_text_is_the_position_it_leads_to(tmp_path_factory, game_id,
                                                              seed, count, earlier):
    """The keys after the moves, read from ``record_keys`` (or an earlier release's
    ``positions_line``), are those of the positions the moves lead to in the rules: the
    explorer's answers would not show a wrong one where every text is read."""
    folder = tmp_path_factory.mktemp("after")
    paths = _inputs(folder, game_id, seed, [count])
    database = folder / "r.sqlite"
    _analyze(database, paths)
    if earlier:
        _as_earlier_release(database)
    fens = brute_force(paths[0].read_text(encoding="utf-8"), str(paths[0]))[1]
    known = 0
    with Database(str(database)) as db:
        game_id = db.games()[0]
        for fen in fens:
            game, position = db.position(fen, game=game_id)
            key = game.position_key(position)
            texts = position_index.move_texts(db.connection, key, game.id)
            spelled = position_index.move_spellings(db.connection,
                                                    [move_id for move_id, _, _ in texts])
            rows = position_index.next_moves(db.connection, key, game.id, game.results)
            children = [(spelled[move_id], child) for move_id, _, child in texts] + \
                [(row["move"], row["child"]) for row in rows]
            for text, child in children:
                after = position.copy()
                after.push(game.resolve_move(text, after).move)
                if child is not None:
                    known += 1
                    assert child == game.position_key(after), text
    assert known > 0


def test_a_record_whose_rows_are_not_a_whole_line_gets_no_keys(tmp_path):
    """The keys are given from an earlier release's rows only where a record's main-line
    rows run from ply 0 without a gap: a record without keys is read as before them."""
    path = tmp_path / "a.pgn"
    path.write_text(archive_text("gow", count=4, seed=3), encoding="utf-8")
    database = tmp_path / "r.sqlite"
    _analyze(database, [path])
    _as_earlier_release(database)
    connection = sqlite3.connect(database)
    connection.execute("DELETE FROM positions WHERE record_id = (SELECT min(id) FROM "
                       "records) AND ply = 0")
    connection.commit()
    connection.close()
    other = tmp_path / "b.pgn"
    other.write_text(archive_text("gow", count=2, seed=4), encoding="utf-8")
    _analyze(database, [path, other])
    keyed = {row[0] for row in query(database, "SELECT record_id FROM record_keys")}
    records = [row[0] for row in query(database, "SELECT id FROM records ORDER BY id")]
    assert keyed == set(records[1:])


def test_an_input_is_forgotten_by_a_pass_from_its_share_of_the_rows(tmp_path, monkeypatch):
    """docs/database.md, "The position index": an input with at least FORGET_BY_KEYS_BELOW
    of the main-line rows is deleted by a pass over the table, a smaller one by its keys."""
    paths = _inputs(tmp_path, "gow", 5, [6, 3])
    database = tmp_path / "r.sqlite"
    _analyze(database, paths)
    plies = dict(query(database, "SELECT inputs.path, sum(records.plies + 1) FROM records "
                                 "JOIN inputs ON inputs.id = input_id GROUP BY 1"))
    ids = [row[0] for row in query(database, "SELECT records.id FROM records JOIN inputs ON "
                                             f"inputs.id = input_id WHERE path = '{paths[0]}'")]
    share = plies[str(paths[0])] / sum(plies.values())
    connection = sqlite3.connect(database)
    try:
        for threshold, by_pass in ((share - 0.01, True), (share + 0.01, False)):
            monkeypatch.setattr(position_index, "FORGET_BY_KEYS_BELOW", threshold)
            assert position_index._forget_by_pass(connection, ids) is by_pass
    finally:
        connection.close()
