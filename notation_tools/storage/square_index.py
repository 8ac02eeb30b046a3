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


def square_first_plies(connection: sqlite3.Connection, game: str, pattern: Pattern,
                       material: tuple[str, tuple[Any, ...]] | None, *,
                       plan: str | None = None) -> list[tuple[int, int, int]]:
    """(input id, record id, the first ply where ``pattern`` holds) of the records of
    ``game`` in square-indexed inputs that it matches, found in SQL (in no given order).
    ``material``: a query of the ids of the stored materials that the pattern's material
    tests accept, with its parameters (the position index's), or ``None`` when the pattern
    has no material conditions.

    Per record, the query joins one run of each square test (and one material run), each
    overlapping those joined before it and the ply range; the greatest first ply of such a
    choice is where they all begin to hold together, and the least of those over every
    choice is the answer (the runs of one test never overlap, so every ply where the
    pattern holds lies in exactly one choice).

    A test that the standard start satisfies ("held") holds through the whole main line of
    a standard record that never changed its square, which has no run of that square
    stored; the other square tests ("moving") and the material hold only in stored rows.
    Two plans, one query each:

    - ``"driven"``: the rows of the moving test or the material with the fewest rows
      choose the records (every match lies in one of them); the other conditions' runs
      are joined, a held test's counted from ply 0 to the record's last where the record
      never changed its square.
    - ``"start"`` (no moving test, and a material that most records' rows satisfy, if
      any): a standard record that kept every held test's start through the range's first
      ply, with a material accepted there, matches at that ply, read from its
      ``square_records`` row alone (most records, at ply 0: every one); the others (a held
      square changed before it, the material refused there, records not from the standard
      start) join the runs as above.

    ``plan`` chooses one where both apply, for tests (``None``: the one expected to read
    fewer rows); both give the same answer."""
    starts = {row[0] for row in connection.execute(
        "SELECT occupant_id FROM square_starts WHERE game = ?", (game,))}
    tests = [_occupant_ids(connection, game, test) for test in pattern.squares]
    if not all(tests):
        return []  # a test asks for what its square never held
    query = _FirstPlies(connection, pattern, None if only_game(connection, game) else game)
    moving = sorted((query.run_count(ids), ids) for ids in tests if starts.isdisjoint(ids))
    # The held tests whose squares most records changed first: joined in that order, a
    # record that fails one is left before the others are looked up.
    query.held = sorted(((ids, starts.intersection(ids).pop()) for ids in tests
                         if not starts.isdisjoint(ids)),
                        key=lambda test: -query.run_count([test[1]]))
    runs = at_low = 0.0
    if material is not None:
        signatures, accepted = material
        query.parameters["signatures"] = _json_list(
            row[0] for row in connection.execute(signatures, accepted))
        runs, at_low = query.material_counts()
    # The moving test or the material with the fewest rows in the range drives.
    if moving and (material is None or moving[0][0] <= runs):
        sql = query.driven(moving[0][1], [ids for _, ids in moving[1:]])
    elif moving or material is not None and (
            plan == "driven" or plan is None and 2 * at_low < query.records):
        # "start" joins the runs of the records whose material is refused at the range's
        # first ply: best when they are few
        sql = query.driven(None, [ids for _, ids in moving])
    else:
        sql = query.from_start()
    return connection.execute(sql, query.parameters).fetchall()


_SAMPLE = 1000
"""The estimates that choose how to join count the rows of this many records (the first by
id) and scale them up: a poor estimate changes the time taken, never the answer."""


class _FirstPlies:
    """The text of :func:`square_first_plies`'s query and its parameters (named: the
    parts share them)."""

    def __init__(self, connection: sqlite3.Connection, pattern: Pattern,
                 game: str | None) -> None:
        self.connection = connection
        self.held: list[tuple[list[int], int]] = []
        """The held tests: their occupant ids and the start's occupant of their square."""
        self.material = bool(pattern.material)
        self.game = game
        """The game whose records to keep (``None``: every record is the game's)."""
        self.parameters: dict[str, Any] = {
            "low": 0 if pattern.plies[0] is None else pattern.plies[0],
            "high": (1 << 62) if pattern.plies[1] is None else pattern.plies[1],
            "game": game}
        self.records = int(connection.execute(
            "SELECT count(*) FROM square_records").fetchone()[0])
        # The sample: the records up to the id "sampled" (at most _SAMPLE of them).
        self.parameters["sampled"] = connection.execute(
            "SELECT max(record_id) FROM (SELECT record_id FROM square_records ORDER BY "
            "record_id LIMIT ?)", (_SAMPLE,)).fetchone()[0] or 0
        self._scale = self.records / max(1, min(self.records, _SAMPLE))

    def _name(self, value: Any) -> str:
        """A parameter of ``value``: its name in the text."""
        name = f"p{len(self.parameters)}"
        self.parameters[name] = value
        return f":{name}"

    def _occupant_term(self, alias: str, ids: list[int]) -> str:
        """``alias.occupant_id`` is one of ``ids``."""
        if len(ids) == 1:
            return f"{alias}.occupant_id = {self._name(ids[0])}"
        return (f"{alias}.occupant_id IN (SELECT value FROM json_each("
                f"{self._name(_json_list(ids))}))")

    def _estimate(self, sql: str) -> float:
        """The count of the sample's rows that ``sql`` makes, scaled to every record."""
        return float(self.connection.execute(sql, self.parameters).fetchone()[0] or 0) * \
            self._scale

    def run_count(self, ids: list[int]) -> float:
        """About how many runs in the range the occupants ``ids`` have."""
        return self._estimate(
            f"SELECT count(*) FROM square_runs AS u WHERE {self._occupant_term('u', ids)} AND "
            "u.record_id <= :sampled AND u.first_ply <= :high AND u.last_ply >= :low")

    def changed_early(self, start: int) -> float:
        """About how many records changed the start's occupant ``start`` before the
        range's first ply."""
        return self._estimate(
            f"SELECT count(*) FROM square_runs WHERE occupant_id = {self._name(start)} AND "
            "record_id <= :sampled AND first_ply = 0 AND last_ply < :low")

    def material_counts(self) -> tuple[float, float]:
        """About how many material runs in the range the pattern's material accepts, and
        how many of them hold the range's first ply."""
        sql = ("SELECT {} FROM position_material WHERE record_id <= :sampled AND "
               "signature_id IN (SELECT value FROM json_each(:signatures)) AND first_ply <= "
               ":high AND last_ply >= :low")
        return (self._estimate(sql.format("count(*)")),
                self._estimate(sql.format("sum(first_ply <= :low)")))

    def _kept(self, record: str) -> list[str]:
        """The terms that keep the records of square-indexed inputs of the game."""
        kept = ["r.input_id IN (SELECT input_id FROM square_inputs)"]
        if self.game is not None:
            kept.append(f"{record} IN (SELECT id FROM records WHERE game = :game)")
        return kept

    def driven(self, driver: list[int] | None, moving: list[list[int]]) -> str:
        """The query over the records of the runs of the occupants ``driver`` (``None``:
        of the pattern's material), joining the runs of the tests ``moving`` and held."""
        if driver is not None:
            source = ("square_runs AS t0 CROSS JOIN square_records AS s ON s.record_id = "
                      "t0.record_id")
            where = [f"{self._occupant_term('t0', driver)} AND t0.first_ply <= :high "
                     "AND t0.last_ply >= :low"]
            joined = ["t0"]
        else:
            source = ("position_material AS m CROSS JOIN square_records AS s ON s.record_id = "
                      "m.record_id")
            where = ["m.signature_id IN (SELECT value FROM json_each(:signatures)) AND "
                     "m.first_ply <= :high AND m.last_ply >= :low"]
            joined = ["m"]
        return self._joined(source, joined[0] + ".record_id", where, joined, moving,
                            self.material and driver is not None, self.held)

    def from_start(self) -> str:
        """The query in parts that no record is in twice: the standard records that kept
        every held test's start through the range's first ply, with a material accepted
        there, match at that ply (from their ``square_records`` row); then those that
        changed a held test's square before it (joined from that test's later runs), those
        whose material is refused there (joined from the accepted material runs after it),
        and the records not from the standard start (joined)."""
        early: list[tuple[float, tuple[list[int], int]]] = []  # (records, held test)
        if self.parameters["low"] > 0:  # at ply 0 every held square holds its start
            early = [(self.changed_early(test[1]), test) for test in self.held]
        # The tests whose squares most records changed early first: a record is then
        # ruled out by its first look-up.
        early.sort(key=lambda test: -test[0])
        names = [self._name(start) for _, (_, start) in early]

        def changed(record: str, name: str) -> str:
            return (f"EXISTS (SELECT 1 FROM square_runs WHERE occupant_id = {name} AND "
                    f"record_id = {record} AND first_ply = 0 AND last_ply < :low)")

        kept = ["s.standard = 1", "s.last_ply >= :low", ":low <= :high"]
        if early and sum(count for count, _ in early) < 0.8 * self.records:
            # One list of the records that changed a held square early: built whole, then
            # one probe a record
            kept.append("r.id NOT IN (SELECT record_id FROM square_runs WHERE occupant_id IN "
                        f"({', '.join(names)}) AND first_ply = 0 AND last_ply < :low)")
        else:  # most did: a look-up each, most records ruled out by the first
            kept.extend(f"NOT {changed('r.id', name)}" for name in names)
        accepted = "(SELECT value FROM json_each(:signatures))"
        at_low = (f"EXISTS (SELECT 1 FROM position_material AS a WHERE a.record_id = {{}} "
                  f"AND a.first_ply <= :low AND a.last_ply >= :low AND a.signature_id IN "
                  f"{accepted})")
        if self.material:
            kept.append(at_low.format("r.id"))
        parts = [f"SELECT r.input_id, r.id, :low FROM records AS r INDEXED BY records_input "
                 f"CROSS JOIN square_records AS s ON s.record_id = r.id "
                 f"WHERE {' AND '.join(kept + self._kept('r.id'))}"]
        runs = "square_runs AS t0 CROSS JOIN square_records AS s ON s.record_id = t0.record_id"
        for number, (_, test) in enumerate(early):
            ids = test[0]
            # Its start's run ended before the range: the test holds in later runs only
            where = [f"{self._occupant_term('t0', ids)} AND t0.first_ply > 0 AND "
                     "t0.first_ply <= :high AND t0.last_ply >= :low AND s.standard = 1",
                     # a later run from the range's first ply on: the start's ended early
                     f"(t0.first_ply <= :low OR {changed('t0.record_id', names[number])})",
                     *(f"NOT {changed('t0.record_id', name)}" for name in names[:number])]
            # Every other held test is joined, found by identity: two tests of one square
            # (b1=any, b1=White:F) share its start, and each must hold in the other's part.
            parts.append(self._joined(runs, "t0.record_id", where, ["t0"], [], self.material,
                                      [other for other in self.held if other is not test]))
        if self.material:  # refused at the first ply: accepted in later runs only
            where = ["m.signature_id IN " + accepted + " AND m.first_ply > :low AND "
                     "m.first_ply <= :high AND s.standard = 1",
                     f"NOT {at_low.format('m.record_id')}",
                     *(f"NOT {changed('m.record_id', name)}" for name in names)]
            parts.append(self._joined(
                "position_material AS m CROSS JOIN square_records AS s ON s.record_id = "
                "m.record_id", "m.record_id", where, ["m"], [], False, self.held))
        parts.append(self._joined(  # every run stored: held tests join as any other
            "square_records AS s", "s.record_id", ["s.standard = 0"], [], [], self.material,
            self.held))
        return " UNION ALL ".join(parts)

    def _joined(self, source: str, record: str, where: list[str], joined: list[str],
                moving: list[list[int]], material: bool,
                held: list[tuple[list[int], int]]) -> str:
        """The query over ``source``'s rows (of the runs ``joined``, by alias), joining a
        run of each test ``moving`` and, if ``material``, a material run, each overlapping
        those before it, and a run of each test ``held`` where the record has one; grouped
        by ``record``."""
        firsts = [":low", *(f"{alias}.first_ply" for alias in joined)]
        lasts = [":high", "s.last_ply", *(f"{alias}.last_ply" for alias in joined)]
        joins: list[str] = []

        def overlapping(alias: str) -> str:
            """The terms that ``alias``'s run overlaps every run joined before it."""
            return (f"{alias}.first_ply <= {_of('min', lasts)} AND "
                    f"{alias}.last_ply >= {_of('max', firsts)}")

        for number, ids in enumerate(moving, 1):
            alias = f"t{number}"
            joins.append(f"CROSS JOIN square_runs AS {alias} ON "
                         f"{self._occupant_term(alias, ids)} AND "
                         f"{alias}.record_id = s.record_id AND {overlapping(alias)}")
            firsts.append(f"{alias}.first_ply")
            lasts.append(f"{alias}.last_ply")
        if material:
            joins.append("CROSS JOIN position_material AS m ON m.record_id = s.record_id AND "
                         "m.signature_id IN (SELECT value FROM json_each(:signatures)) AND "
                         f"{overlapping('m')}")
            firsts.append("m.first_ply")
            lasts.append("m.last_ply")
        for number, (ids, start) in enumerate(held, len(moving) + 1):
            alias = f"t{number}"
            joins.append(f"LEFT JOIN square_runs AS {alias} ON "
                         f"{self._occupant_term(alias, ids)} AND {alias}.record_id = "
                         f"s.record_id AND {overlapping(alias)}")
            # No run overlapping: the test holds throughout if the record never changed
            # its square (a changed square's run from ply 0 is stored).
            where.append(f"({alias}.record_id IS NOT NULL OR (s.standard = 1 AND NOT EXISTS "
                         f"(SELECT 1 FROM square_runs WHERE occupant_id = {self._name(start)} "
                         "AND record_id = s.record_id AND first_ply = 0)))")
            firsts.append(f"ifnull({alias}.first_ply, 0)")
            lasts.append(f"ifnull({alias}.last_ply, s.last_ply)")
        # The record's own row (its input) last: only for the rows that got this far.
        joins.append("CROSS JOIN records AS r ON r.id = s.record_id")
        where.extend(self._kept(record))
        where.append(f"{_of('max', firsts)} <= {_of('min', lasts)}")
        return (f"SELECT r.input_id, r.id, min({_of('max', firsts)}) FROM {source} "
                f"{' '.join(joins)} WHERE {' AND '.join(where)} GROUP BY {record}")


def _of(function: str, terms: list[str]) -> str:
    """SQL's scalar ``min`` or ``max`` of ``terms`` (one term: itself; the function of one
    argument is the aggregate)."""
    return terms[0] if len(terms) == 1 else f"{function}({', '.join(terms)})"
