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
from typing import TYPE_CHECKING, Any

from notation_tools.analysis.pattern import Pattern, SquareTest
from notation_tools.storage.position_index import only_game

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


def _occupant_term(alias: str, ids: list[int]) -> tuple[str, list[Any]]:
    """``alias.occupant_id`` is one of ``ids``: the term and its parameters."""
    if len(ids) == 1:
        return f"{alias}.occupant_id = ?", [ids[0]]
    return f"{alias}.occupant_id IN (SELECT value FROM json_each(?))", [_json_list(ids)]


_CHANGED = "SELECT record_id FROM square_runs WHERE occupant_id = ? AND first_ply = 0"
"""The records whose square changed what the standard start holds there (its run from ply 0
ended; a standard record that never changed the square has no run of it stored)."""


def square_first_plies(connection: sqlite3.Connection, game: str, pattern: Pattern,
                       material: tuple[str, tuple[Any, ...]] | None
                       ) -> list[tuple[int, int, int]]:
    """(input id, record id, the first ply where ``pattern`` holds) of the records of
    ``game`` in square-indexed inputs that it matches, found in SQL (in no given order).
    ``material``: a query of the ids of the stored materials that the pattern's material
    tests accept, with its parameters (the position index's), or ``None`` when the pattern
    has no material conditions.

    Per record, the query joins one run of each square test (and one material run), each
    overlapping those joined before it and ``--at``; the greatest first ply of such a
    choice is where they all begin to hold together, and the least of those over every
    choice is the answer (the runs of one test never overlap, so every ply where the
    pattern holds lies in exactly one choice).

    A test that the standard start satisfies ("held") holds through the whole main line of
    a standard record that never changed its square, which has no run of that square
    stored. When every test is held, the records are answered in parts that do not
    overlap: those that changed none of the tests' squares, without their runs (most
    records), then for each test in turn those that changed its square but not the squares
    of the tests before it, from that test's runs (records not from the standard start: in
    the first part of these), the later tests' runs joined where there are some and the
    test counted from ply 0 to the record's last ply where the square never changed."""
    starts = {row[0] for row in connection.execute(
        "SELECT occupant_id FROM square_starts WHERE game = ?", (game,))}
    tests = [_occupant_ids(connection, game, test) for test in pattern.squares]
    if not all(tests):
        return []  # a test asks for what its square never held
    # A test that the start does not satisfy holds only in stored runs: the one with the
    # fewest runs chooses the records (an occupant's rows lie together).
    moving = sorted((ids for ids in tests if starts.isdisjoint(ids)),
                    key=lambda ids: _run_count(connection, ids))
    # The held tests whose squares the fewest records changed first: a record is answered
    # in the part of the first held square it changed, which joins the runs of the held
    # tests after it (most records then join none).
    held = sorted(((ids, starts.intersection(ids).pop()) for ids in tests
                   if not starts.isdisjoint(ids)),
                  key=lambda test: _run_count(connection, [test[1]]))
    query = _FirstPlies(pattern, material, None if only_game(connection, game) else game)
    if moving:
        parts = [query.sql(moving[0], moving[1:], held, [])]
    else:
        parts = [query.sql(None, [], [], [start for _, start in held])]
        parts.extend(query.sql(ids, [], held[number + 1:],
                               [start for _, start in held[:number]])
                     for number, (ids, _) in enumerate(held))
    return connection.execute(" UNION ALL ".join(sql for sql, _ in parts),
                              [value for _, given in parts for value in given]).fetchall()


class _FirstPlies:
    """The text of :func:`square_first_plies`'s queries, one per part of the records."""

    def __init__(self, pattern: Pattern, material: tuple[str, tuple[Any, ...]] | None,
                 game: str | None) -> None:
        self.low = 0 if pattern.plies[0] is None else pattern.plies[0]
        self.high = (1 << 62) if pattern.plies[1] is None else pattern.plies[1]
        self.material = material
        self.game = game
        """The game whose records to keep (``None``: every record is the game's)."""

    def sql(self, driver: list[int] | None, moving: list[list[int]],
            held: list[tuple[list[int], int]], unchanged: list[int]
            ) -> tuple[str, list[Any]]:
        """The query and its parameters over the records that have runs of the occupants
        ``driver`` (``None``: every record) and are standard and never changed what the
        start holds on the squares of the occupants ``unchanged`` (tests they satisfy
        throughout); the runs of the tests ``moving`` (occupant ids) and ``held``
        (occupant ids, the start's occupant on their square) are joined."""
        low, high = self.low, self.high
        firsts, lasts = ["?"], ["?", "s.last_ply"]
        joins: list[str] = []
        wheres: list[str] = []
        parameters: list[Any] = [low]  # in the order of the text: SELECT, FROM, WHERE
        where_parameters: list[Any] = []

        def overlapping(alias: str) -> str:
            """The terms that ``alias``'s run overlaps every run joined before it."""
            parameters.extend((high, low))
            return (f"{alias}.first_ply <= {_of('min', lasts)} AND "
                    f"{alias}.last_ply >= {_of('max', firsts)}")

        if driver is not None:  # an occupant's runs come in record order
            record = "t0.record_id"
            term, given = _occupant_term("t0", driver)
            source = ("square_runs AS t0 CROSS JOIN square_records AS s ON s.record_id = "
                      "t0.record_id CROSS JOIN records AS r ON r.id = s.record_id")
            wheres.append(f"{term} AND t0.first_ply <= ? AND t0.last_ply >= ?")
            where_parameters.extend((*given, high, low))
            firsts.append("t0.first_ply")
            lasts.append("t0.last_ply")
        else:  # every record, with its input read from the narrow records_input
            record = "r.id"
            source = ("records AS r INDEXED BY records_input CROSS JOIN square_records AS s "
                      "ON s.record_id = r.id")
        if unchanged:  # tested on the driver's record id: before the other tables are read
            wheres.append("s.standard = 1 AND " + " AND ".join(
                f"{record} NOT IN ({_CHANGED})" for _ in unchanged))
            where_parameters.extend(unchanged)
        wheres.append("r.input_id IN (SELECT input_id FROM square_inputs)")
        if self.game is not None:
            wheres.append(f"{record} IN (SELECT id FROM records WHERE game = ?)")
            where_parameters.append(self.game)
        for number, ids in enumerate(moving, 1):
            alias = f"t{number}"
            term, given = _occupant_term(alias, ids)
            parameters.extend(given)
            joins.append(f"CROSS JOIN square_runs AS {alias} ON {term} AND "
                         f"{alias}.record_id = s.record_id AND {overlapping(alias)}")
            firsts.append(f"{alias}.first_ply")
            lasts.append(f"{alias}.last_ply")
        if self.material is not None:
            signatures, accepted = self.material
            parameters.extend(accepted)
            joins.append("CROSS JOIN position_material AS m ON m.record_id = s.record_id AND "
                         f"m.signature_id IN ({signatures}) AND {overlapping('m')}")
            firsts.append("m.first_ply")
            lasts.append("m.last_ply")
        for number, (ids, start) in enumerate(held, len(moving) + 1):
            alias = f"t{number}"
            term, given = _occupant_term(alias, ids)
            parameters.extend(given)
            joins.append(f"LEFT JOIN square_runs AS {alias} ON {term} AND {alias}.record_id = "
                         f"s.record_id AND {overlapping(alias)}")
            wheres.append(f"({alias}.record_id IS NOT NULL OR (s.standard = 1 AND s.record_id "
                          f"NOT IN ({_CHANGED})))")
            where_parameters.append(start)
            firsts.append(f"ifnull({alias}.first_ply, 0)")
            lasts.append(f"ifnull({alias}.last_ply, s.last_ply)")
        wheres.append(f"{_of('max', firsts)} <= {_of('min', lasts)}")
        where_parameters.extend((low, high))
        if len(firsts) == 1:  # a run of the whole line, one row a record: no grouping
            return (f"SELECT r.input_id, r.id, ? FROM {source} WHERE {' AND '.join(wheres)}",
                    [*parameters, *where_parameters])
        # Grouped in the order the rows come in, where SQLite sees it (no sort).
        order = record if driver is not None else "r.input_id, r.seq, r.id"
        return (f"SELECT r.input_id, r.id, min({_of('max', firsts)}) FROM {source} "
                f"{' '.join(joins)} WHERE {' AND '.join(wheres)} GROUP BY {order}",
                [*parameters, *where_parameters])


def _of(function: str, terms: list[str]) -> str:
    """SQL's scalar ``min`` or ``max`` of ``terms`` (one term: itself; the function of one
    argument is the aggregate)."""
    return terms[0] if len(terms) == 1 else f"{function}({', '.join(terms)})"


def _run_count(connection: sqlite3.Connection, ids: list[int]) -> int:
    """How many runs the occupants ``ids`` have (every record's)."""
    term, given = _occupant_term("u", ids)
    return int(connection.execute(f"SELECT count(*) FROM square_runs AS u WHERE {term}",
                                  given).fetchone()[0])
