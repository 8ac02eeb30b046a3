"""The move texts ``analyze`` keeps of the busiest positions (docs/database.md, "A position
with thousands of move texts"): they are what the explorer's pass over the rows finds, the
explorer answers the same with them as without, and they never outlive a change of the
index (an input changed, removed, or a run stopped before its end). ``MANY_TEXTS`` is set
to -1 here, so that every position of these small archives is a busy one."""

from __future__ import annotations

import contextlib
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from notation_tools.parallel.batch import Settings
from notation_tools.parallel.session import open_session
from notation_tools.storage import busy_positions, position_index
from notation_tools.storage.game_database import Database
from notation_tools.storage.position_index import move_texts
from tests.storage.index_support import brute_force, copy_without
from tests.storage.test_explore_index import _archive

GAMES = ("maka", "gow", "shih", "elevation", "shuriken")


@contextlib.contextmanager
def _every_position_busy() -> Iterator[None]:
    busy_positions.MANY_TEXTS, kept = -1, busy_positions.MANY_TEXTS
    try:
        yield
    finally:
        busy_positions.MANY_TEXTS = kept


def _analyze(database: Path, paths: list[Path], *, stop_after: int | None = None) -> None:
    settings_ = Settings(collect_stats=True, details=True, index="positions")
    with open_session(settings_, jobs=1, database=str(database)) as session:
        reports = session.reports([str(path) for path in paths])
        if stop_after is None:
            list(reports)
        else:  # a run stopped (Ctrl-C) after a few reports: the generator is closed there
            for _ in zip(range(stop_after), reports):
                pass
            reports.close()  # type: ignore[attr-defined]


def _write(folder: Path, name: str, game_id: str, seed: int, count: int) -> Path:
    path = folder / name
    path.write_text(_archive(game_id, seed, count), encoding="utf-8")
    return path


def _positions(paths: list[Path]) -> set[str]:
    found: set[str] = set()
    for path in paths:
        if path.exists():
            found.update(brute_force(path.read_text(encoding="utf-8"), str(path))[1])
    return found


def _kept_is_the_pass(database: Path, fens: set[str]) -> None:
    """Every position's kept texts are those of the pass over its rows, for its game."""
    with Database(str(database)) as db:
        for fen in fens:
            for game_id in db.games():
                try:
                    game, position = db.position(fen, game=game_id)
                except Exception:  # noqa: BLE001 - the position string is another game's
                    continue
                key = game.position_key(position)
                assert busy_positions.busy_moves_current(db.connection)  # right for the index
                kept = busy_positions.busy_moves(db.connection, key, game.id)
                assert sorted(kept) == sorted(move_texts(db.connection, key, game.id) or [])


def _answers(database: Path, fens: set[str], limit: int) -> dict[tuple[str, str], object]:
    found: dict[tuple[str, str], object] = {}
    with Database(str(database)) as db:
        for fen in sorted(fens):
            for game_id in db.games():
                try:
                    found[fen, game_id] = db.explore(fen, game=game_id, limit=limit)
                except Exception:  # noqa: BLE001 - the position string is another game's
                    continue
    return found


def _without_kept(database: Path) -> Path:
    """A copy of ``database`` without the kept texts (a database indexed before them)."""
    return copy_without(database, "without.sqlite", "DROP TABLE busy_moves",
                        "DROP TABLE busy_state")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games=st.lists(st.sampled_from(GAMES), min_size=1, max_size=2),
       seed=st.integers(0, 10_000), count=st.integers(6, 12), limit=st.integers(1, 3))
# Two moves tie at the limit, one spelled unlike its name and stored twice by the small
# writer: the choice between them once depended on how many ids the text had.
@example(games=["shih"], seed=557, count=7, limit=2)
def test_the_kept_texts_answer_as_the_pass_does(games, seed, count, limit):
    folder = Path(tempfile.mkdtemp())
    paths = [_write(folder, f"{index}.pgn", game_id, seed + index, count)
             for index, game_id in enumerate(games)]
    database = folder / "results.sqlite"
    fens = _positions(paths)
    with _every_position_busy():
        _analyze(database, paths)
        _kept_is_the_pass(database, fens)
        with_kept = _answers(database, fens, limit)
        assert with_kept == _answers(_without_kept(database), fens, limit)
        # A writer that keeps 2 texts in memory stores them many times over: a kept text
        # stands for all its ids, and the answers are the same.
        stored_again = folder / "stored-again.sqlite"
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(position_index, "MOVE_CACHE", 2)
            _analyze(stored_again, paths)
        _kept_is_the_pass(stored_again, fens)
        assert _answers(stored_again, fens, limit) == with_kept
    # With the real threshold these small positions are not busy: the table holds none of
    # them, and a run at it keeps nothing, which the explorer reads as "not busy".
    assert _answers(database, fens, limit) == _answers(_without_kept(database), fens, limit)


def _two_inputs(game_id: str, seed: int, count: int) -> tuple[Path, Path, Path, Path]:
    """A folder, two archives of ``game_id`` in it and a database analysed from both."""
    folder = Path(tempfile.mkdtemp())
    first = _write(folder, "a.pgn", game_id, seed, count)
    second = _write(folder, "b.pgn", game_id, seed + 1, count)
    database = folder / "results.sqlite"
    _analyze(database, [first, second])
    return folder, first, second, database


def _kept_at_the_start(database: Path) -> list[tuple[int, int, int | None]] | None:
    """The start's kept texts, ``None`` when the database has none right for its index."""
    with Database(str(database)) as db:
        game, position = db.position()
        if not busy_positions.busy_moves_current(db.connection):
            return None
        return busy_positions.busy_moves(db.connection, game.position_key(position), game.id)


def test_kept_texts_follow_an_input_that_changes_or_is_removed():
    with _every_position_busy():
        folder, first, second, database = _two_inputs("shih", 1, 10)
        before = _answers(database, _positions([first, second]), 2)
        second.write_text(_archive("shih", 3, 12), encoding="utf-8")  # other records
        _analyze(database, [first, second])
        fens = _positions([first, second])
        _kept_is_the_pass(database, fens)
        fresh = folder / "fresh.sqlite"
        _analyze(fresh, [first, second])
        changed = _answers(database, fens, 2)
        assert changed == _answers(fresh, fens, 2)
        assert changed != {fen: answer for fen, answer in before.items() if fen in changed}
        second.unlink()  # removed: its input is stored again without records
        _analyze(database, [first, second])
        fens = _positions([first])
        _kept_is_the_pass(database, fens)
        alone = folder / "alone.sqlite"
        _analyze(alone, [first])
        assert _answers(database, fens, 2) == _answers(alone, fens, 2)


def test_kept_texts_are_not_read_after_a_change_they_were_not_written_for():
    with _every_position_busy():
        _, first, second, database = _two_inputs("maka", 4, 8)
        fens = _positions([first, second])
        assert _kept_at_the_start(database) is not None
        second.write_text(_archive("maka", 6, 8), encoding="utf-8")
        _analyze(database, [first, second], stop_after=12)  # stopped inside b.pgn
        assert _kept_at_the_start(database) is None
        _analyze(database, [first, second])
        with Database(str(database)) as kept_open:  # an explorer that stays open
            kept_open.explore(limit=2)
            assert kept_open._busy_moves_current()
            connection = sqlite3.connect(database)  # another program removes an input
            connection.execute("PRAGMA foreign_keys = ON")
            connection.execute("DELETE FROM inputs WHERE path = ?", (str(second),))
            connection.commit()
            connection.close()
            assert _kept_at_the_start(database) is None
            assert not kept_open._busy_moves_current()  # it sees the other program's write
            with Database(str(database)) as fresh:  # the pass, over what is left
                assert kept_open.explore(limit=2) == fresh.explore(limit=2)
        _analyze(database, [first, second])  # the next run's end writes them again
        _kept_is_the_pass(database, fens | _positions([second]))


def test_a_database_indexed_before_the_table_gets_it_at_the_next_run():
    folder = Path(tempfile.mkdtemp())
    path = _write(folder, "a.pgn", "elevation", 7, 8)
    database = folder / "results.sqlite"
    with _every_position_busy():
        _analyze(database, [path])
        old = _without_kept(database)
        _analyze(old, [path])  # nothing changed: the run stores nothing, but keeps the texts
        _kept_is_the_pass(old, _positions([path]))


def test_kept_texts_of_another_layout_are_not_read_and_are_written_again():
    """A table an earlier release wrote (a row per id, not per text) has a stamp of its
    layout: it is not read (the explorer makes the pass, with the same answers) until the
    next run writes it again."""
    folder = Path(tempfile.mkdtemp())
    path = _write(folder, "a.pgn", "gow", 11, 8)
    database = folder / "results.sqlite"
    with _every_position_busy():
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(busy_positions, "ROWS_LAYOUT", "one row per move id")
            _analyze(database, [path])
            assert _kept_at_the_start(database) is not None  # current for that layout
        assert _kept_at_the_start(database) is None
        with Database(str(database)) as db, \
                Database(str(_without_kept(database))) as without:
            assert db.explore(limit=2) == without.explore(limit=2)
        _analyze(database, [path])  # nothing changed, but the texts are kept again
        _kept_is_the_pass(database, _positions([path]))
