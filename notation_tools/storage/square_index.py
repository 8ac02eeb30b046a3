"""The square index of a results database (docs/database.md, "The square index"):
``analyze --db FILE --index squares`` stores, besides the position index, what every square
held along every record's main line, so that pattern search (docs/pattern.md) answers square
conditions without replaying the records.

``square_runs`` is an inverted table: keyed by what a square holds (``square_occupants``: a
game's square with a side's piece, or with nothing), then by record, each row one run of
plies during which the record's square held it. A record that starts from its game's
standard start (``square_records.standard``) leaves out the runs that last its whole main line;
``square_starts`` holds that start once per game. A query reads the rows of the occupants its
conditions name, adds the runs left out, intersects the runs of its conditions (and the
material runs of the position index) and takes the first ply: the same answer as a replay.

Uses Python's ``sqlite3`` only. Does not print.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import TYPE_CHECKING

from notation_tools.analysis.pattern import Pattern, SquareTest

if TYPE_CHECKING:  # the writer's; the queries do without the replay it brings
    from notation_tools.analysis.square_runs import SquareRuns

SQUARE_SCHEMA = """
CREATE TABLE IF NOT EXISTS square_occupants (
    id     INTEGER PRIMARY KEY,
    game   TEXT NOT NULL,
    square TEXT NOT NULL,
    side   INTEGER,  -- NULL with piece NULL: the square holds nothing
    piece  TEXT
);
CREATE INDEX IF NOT EXISTS square_occupants_square ON square_occupants (game, square);
CREATE TABLE IF NOT EXISTS square_runs (
    occupant_id INTEGER NOT NULL,  -- square_occupants(id)
    record_id   INTEGER NOT NULL,  -- records(id)
    first_ply   INTEGER NOT NULL,  -- the square held the occupant at every checked ply
    last_ply    INTEGER NOT NULL,  -- from first_ply to last_ply (main line)
    PRIMARY KEY (occupant_id, record_id, first_ply)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS square_records (
    record_id INTEGER PRIMARY KEY,  -- records(id)
    last_ply  INTEGER NOT NULL,     -- the last checked ply (-1: none)
    standard  INTEGER NOT NULL      -- 1: starts from square_starts, runs of the whole line left out
);
CREATE TABLE IF NOT EXISTS square_starts (
    game        TEXT NOT NULL,
    occupant_id INTEGER NOT NULL,  -- what a square holds at the game's standard start
    PRIMARY KEY (game, occupant_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS square_inputs (
    input_id INTEGER PRIMARY KEY REFERENCES inputs(id) ON DELETE CASCADE
);
"""

Runs = list[tuple[int, int]]
"""Runs of plies (first, last), in order, apart."""


def _has_tables(connection: sqlite3.Connection) -> bool:
    return bool(connection.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                                   "AND name = 'square_inputs'").fetchall())


def _json_list(values: Iterable[int]) -> str:
    return "[" + ",".join(str(v) for v in values) + "]"


class SquareStore:
    """Writes the square runs of the records a results database stores."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self._ids: dict[tuple[str, str, int | None, str | None], int] = {}
        self._started: set[str] = set()
        self._ready = False

    def _prepare(self) -> None:
        if not self._ready:
            for statement in SQUARE_SCHEMA.split(";"):
                if statement.strip():
                    self.connection.execute(statement)
            self._ids = {(game, square, side, piece): id_ for id_, game, square, side, piece
                         in self.connection.execute("SELECT * FROM square_occupants")}
            self._started = {row[0] for row in self.connection.execute(
                "SELECT DISTINCT game FROM square_starts")}
            self._ready = True

    def _id(self, game: str, square: str, side: int | None, piece: str | None) -> int:
        found = self._ids.get((game, square, side, piece))
        if found is None:
            cursor = self.connection.execute(
                "INSERT INTO square_occupants (game, square, side, piece) VALUES (?, ?, ?, ?)",
                (game, square, side, piece))
            found = self._ids[(game, square, side, piece)] = cursor.lastrowid or 0
        return found

    def add(self, record_id: int, squares: SquareRuns) -> None:
        """Store a record's square runs (inside the caller's transaction)."""
        from notation_tools.analysis.square_runs import standard_board
        self._prepare()
        game = squares.game
        if game not in self._started:
            self._started.add(game)
            self.connection.executemany(
                "INSERT OR IGNORE INTO square_starts VALUES (?, ?)",
                [(game, self._id(game, square, *(held or (None, None))))
                 for square, held in standard_board(game).items()])
        self.connection.executemany(
            "INSERT OR REPLACE INTO square_runs VALUES (?, ?, ?, ?)",
            [(self._id(game, square, side, piece), record_id, first, last)
             for square, side, piece, first, last in squares.runs])
        self.connection.execute("INSERT OR REPLACE INTO square_records VALUES (?, ?, ?)",
                                (record_id, squares.last_ply, int(squares.standard)))

    def complete(self, input_id: int) -> None:
        """Input ``input_id`` is stored whole with its square runs (inside the caller's
        transaction, the one that marks it complete)."""
        self._prepare()
        self.connection.execute("INSERT OR IGNORE INTO square_inputs VALUES (?)", (input_id,))

    def forget(self, path: str) -> None:
        """Remove the rows of the records of input ``path`` (before it is stored again)."""
        if not _has_tables(self.connection):
            return
        ids = _json_list(row[0] for row in self.connection.execute(
            "SELECT records.id FROM records JOIN inputs ON inputs.id = records.input_id "
            "WHERE inputs.path = ?", (path,)))
        self.connection.execute("DELETE FROM square_runs WHERE record_id IN "
                                "(SELECT value FROM json_each(?))", (ids,))
        self.connection.execute("DELETE FROM square_records WHERE record_id IN "
                                "(SELECT value FROM json_each(?))", (ids,))


def squares_indexed(connection: sqlite3.Connection, path: str) -> bool:
    """Whether input ``path`` is in the square index."""
    return _has_tables(connection) and bool(connection.execute(
        "SELECT 1 FROM square_inputs JOIN inputs ON inputs.id = square_inputs.input_id "
        "WHERE inputs.path = ?", (path,)).fetchall())


def square_indexed_inputs(connection: sqlite3.Connection) -> set[int]:
    """The ids of the inputs whose records' squares are indexed."""
    if not _has_tables(connection):
        return set()
    return {row[0] for row in connection.execute("SELECT input_id FROM square_inputs")}


def _occupant_ids(connection: sqlite3.Connection, game: str, test: SquareTest) -> list[int]:
    """The ids of what ``test``'s square may hold for the test to hold there."""
    sql = "SELECT id FROM square_occupants WHERE game = ? AND square = ?"
    parameters: list[object] = [game, test.square]
    if test.empty:
        sql += " AND side IS NULL"
    else:
        sql += " AND side IS NOT NULL"
        if test.side is not None:
            sql += " AND side = ?"
            parameters.append(test.side)
        if test.piece is not None:
            sql += " AND piece = ?"
            parameters.append(test.piece)
    return [row[0] for row in connection.execute(sql, parameters)]


class _TestRuns:
    """The runs of plies where one square test holds, per record: the stored runs, and
    for the records that start from the standard start with the test holding there and
    no stored run from ply 0, the whole main line."""

    def __init__(self, connection: sqlite3.Connection, game: str, test: SquareTest,
                 starts: set[int]) -> None:
        ids = _occupant_ids(connection, game, test)
        self.at_start = bool(starts.intersection(ids))
        self.stored: dict[int, Runs] = {}
        self.moved: set[int] = set()
        """Records with a stored run from ply 0 of the start's occupant (the test held at
        the start, then no longer)."""
        for record_id, first, last in connection.execute(
                "SELECT record_id, first_ply, last_ply FROM square_runs WHERE occupant_id IN "
                "(SELECT value FROM json_each(?))", (_json_list(ids),)):
            self.stored.setdefault(record_id, []).append((first, last))
            if first == 0:
                self.moved.add(record_id)

    def runs(self, record_id: int, standard: bool, last_ply: int) -> Runs:
        if self.at_start and standard and record_id not in self.moved:
            return [(0, last_ply)]
        return sorted(self.stored.get(record_id, ()))


def intersect(first: Runs, second: Runs) -> Runs:
    """The plies in both ``first`` and ``second`` (each in order, its runs apart), as runs."""
    found: Runs = []
    i = j = 0
    while i < len(first) and j < len(second):
        low = max(first[i][0], second[j][0])
        high = min(first[i][1], second[j][1])
        if low <= high:
            found.append((low, high))
        if first[i][1] < second[j][1]:
            i += 1
        else:
            j += 1
    return found


def square_first_plies(connection: sqlite3.Connection, game: str, pattern: Pattern,
                       material: dict[int, Runs] | None) -> dict[int, int]:
    """Record id → the first ply where ``pattern`` holds, for the records of ``game`` in
    square-indexed inputs (those it never matches left out). ``material``: the runs where
    the records' material may match (the position index's), or ``None`` when the pattern
    has no material conditions."""
    starts = {row[0] for row in connection.execute(
        "SELECT occupant_id FROM square_starts WHERE game = ?", (game,))}
    tests = [_TestRuns(connection, game, test, starts) for test in pattern.squares]
    # The records a condition that the start does not satisfy names are the candidates:
    # only when the start satisfies every condition can a record without a run match.
    candidates: set[int] | None = None
    for test in sorted(tests, key=lambda t: len(t.stored)):
        if not test.at_start:
            candidates = set(test.stored) if candidates is None \
                else candidates.intersection(test.stored)
    if material is not None:
        candidates = set(material) if candidates is None else candidates.intersection(material)
    sql = ("SELECT s.record_id, s.last_ply, s.standard FROM square_records AS s JOIN records "
           "AS r ON r.id = s.record_id WHERE r.game = ?")
    rows = connection.execute(sql, (game,)) if candidates is None else connection.execute(
        sql + " AND s.record_id IN (SELECT value FROM json_each(?))",
        (game, _json_list(candidates)))
    records = {record_id: (last_ply, bool(standard)) for record_id, last_ply, standard in rows}
    low = 0 if pattern.plies[0] is None else pattern.plies[0]
    high = pattern.plies[1]
    found: dict[int, int] = {}
    for record_id, (last_ply, standard) in records.items():
        runs = material[record_id] if material is not None else \
            [(low, last_ply if high is None else min(high, last_ply))]
        for test in tests:
            runs = intersect(runs, test.runs(record_id, standard, last_ply))
            if not runs:
                break
        if runs and runs[0][0] <= runs[0][1]:
            found[record_id] = runs[0][0]
    return found
