"""The position index of a results database (docs/database.md, "The position index").

``analyze --db FILE --index positions`` keeps, beside every record, one row per position its
main line passed through (``--index variations``: its variations' too): the position's
64-bit key (:meth:`~notation_tools.games.base.Game.position_key`), the record, the line, the
ply, and the move played from it. The table is keyed by (key, record, line, ply) ``WITHOUT
ROWID``, so the rows of one position lie together and a look-up by key reads only them; the
move is a small number into ``position_moves``, which holds the move texts (a text met again
after the writer forgot it is stored again under a new id, so the queries group the moves by
text, not by id). ``record_keys`` holds each record's main line as one row of its keys in
ply order: the key after a move, and a record's rows, are found from it. (Earlier releases
kept an index of ``positions`` by record instead, ``positions_line``; the writer replaces it
at its first run on such a database, and the queries read it where it is still there.)
``position_inputs`` says which inputs are indexed, and how.

Uses Python's ``sqlite3`` only. Does not print.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import sys
from array import array
from collections.abc import Callable, Iterable
from itertools import chain, groupby, repeat
from typing import TYPE_CHECKING, Any

from notation_tools.analysis.pattern import Pattern, StoredMaterial
from notation_tools.limits import usable_cores

if TYPE_CHECKING:  # the writer's rows; the queries do without the replay it brings
    from notation_tools.analysis.position_keys import IndexedPositions

INDEX_SCHEMA = """
CREATE TABLE IF NOT EXISTS positions (
    key       INTEGER NOT NULL,  -- the game's 64-bit position key, signed
    record_id INTEGER NOT NULL,  -- records(id): rows go with their record's input
    line      INTEGER NOT NULL,  -- 0 the main line, 1, 2, ... the record's variations
    ply       INTEGER NOT NULL,  -- plies played before the position
    move_id   INTEGER,           -- position_moves(id) of the move played from it, NULL at the end
    PRIMARY KEY (key, record_id, line, ply)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS record_keys (
    record_id INTEGER PRIMARY KEY REFERENCES records(id) ON DELETE CASCADE,
    keys      BLOB NOT NULL  -- the main line's position keys, ply 0 first, 8 bytes each
                             -- (signed, little-endian): the explorer reads from it the
                             -- position after each move, and forget() finds the rows by it
);
CREATE TABLE IF NOT EXISTS position_moves (
    id   INTEGER PRIMARY KEY,
    text TEXT NOT NULL  -- a move as the records write it: stored when first met, and again
                        -- (under a new id) when met after the writer forgot it, but never
                        -- twice for one record. Not indexed: Game of War's turns are nearly
                        -- all distinct, and finding each in an index costs more than storing it
);
CREATE TABLE IF NOT EXISTS position_material (
    record_id    INTEGER NOT NULL,  -- records(id)
    first_ply    INTEGER NOT NULL,  -- a run of main-line plies with the same material
    last_ply     INTEGER NOT NULL,
    signature_id INTEGER NOT NULL,  -- material_signatures(id)
    PRIMARY KEY (record_id, first_ply)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS material_signatures (
    id     INTEGER PRIMARY KEY,
    counts TEXT NOT NULL  -- JSON [[side, piece, count], ...] sorted, counts > 0, each once
                          -- (the writer keeps them apart: an index on them would double them)
);
CREATE TABLE IF NOT EXISTS material_inputs (
    input_id INTEGER PRIMARY KEY REFERENCES inputs(id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS position_inputs (
    input_id   INTEGER PRIMARY KEY REFERENCES inputs(id) ON DELETE CASCADE,
    variations INTEGER NOT NULL  -- 1 when the variations are indexed too
);
"""

MATERIAL_ROWS_SCHEMA = {
    "material_differences": """
CREATE TABLE IF NOT EXISTS material_differences (
    side         INTEGER NOT NULL,  -- 0 the first side, 1 the second
    piece        TEXT NOT NULL,     -- a piece as material_signatures names it, '*' all of them
    count        INTEGER NOT NULL,  -- how many the side has, where material_reference has
                                    -- another count (0 included), and the '*' rows
    signature_id INTEGER NOT NULL,  -- material_signatures(id)
    PRIMARY KEY (side, piece, count, signature_id)
) WITHOUT ROWID;  -- a material condition reads the signatures it accepts by key, in SQL
CREATE TABLE IF NOT EXISTS material_reference (
    side  INTEGER NOT NULL,  -- the first material the database stored, by side and piece:
    piece TEXT NOT NULL,     -- a material without a material_differences row for a piece
    count INTEGER NOT NULL,  -- has this count of it (0 when it is not here)
    PRIMARY KEY (side, piece)
) WITHOUT ROWID""",
    "material_pieces": """
CREATE TABLE IF NOT EXISTS material_pieces (
    side         INTEGER NOT NULL,  -- as material_differences, of a database indexed by an
    piece        TEXT NOT NULL,     -- earlier release: every count above 0 has its row
    count        INTEGER NOT NULL,  -- (its reference is no material: all counts 0)
    signature_id INTEGER NOT NULL,
    PRIMARY KEY (side, piece, count, signature_id)
) WITHOUT ROWID""",
}
"""The two layouts of the materials' counts by side and piece (:class:`MaterialRows`)."""

STAGED_SCHEMA = """
CREATE TEMP TABLE IF NOT EXISTS positions_staged (
    key       INTEGER NOT NULL,  -- the columns of positions: rows of a large input, kept
    record_id INTEGER NOT NULL,  -- in the order they come and moved into positions, sorted
    line      INTEGER NOT NULL,  -- by key, when the input is complete (a B-tree keyed by
    ply       INTEGER NOT NULL,  -- position takes rows one by one at random places, and past
    move_id   INTEGER            -- the page cache every transaction rewrites nearly all of it)
)"""
"""The writer's staged rows, in a table of the connection's own (SQLite's temporary
database): in the results file they would leave it as many free pages once moved (135 MB at
100,000 Maka-Dai-Dai records), and they are of no use to another run (an input stopped before
its end is analysed again whole). Earlier releases staged in the file (``main``), and an
interrupted run of theirs may have left rows there: :meth:`PositionStore.forget` removes them
with their records'."""

CACHE_KIB = 65536
"""SQLite's page cache while the index grows (KiB): inserts by key land all over the table."""

STAGE_AFTER_ROWS = 250_000
"""How many ``positions`` rows of one input go straight into the table (none when the table is
empty as the input begins: see :meth:`PositionStore.flush`); the input's further rows are
staged (``positions_staged``) and moved into it sorted by key when the input is complete. A
row inserted by key lands at a random place in the table, and past the CPU's cache each
costs a miss, past :data:`CACHE_KIB` far more (the table's pages no longer stay in the page
cache, and each commit writes nearly every one of them again); staged and sorted
(:data:`SORT_CACHE_KIB`) it costs less from about 300,000 rows of an input on (a million
rows: 1.9 s of CPU inserted by key, 1.15 s staged and moved in), and about the same below,
where the move is short."""


SORT_THREADS = 1
"""Helper threads SQLite's sorter may use while the staged rows are moved into ``positions``
(``PRAGMA threads``), when the machine has a core to spare: the move comes at the end of the
input, when the workers are done, and most of it is the sort. With one, the sorter sorts
and writes each full batch of rows in the background while the next is read, for one batch
more in memory (:data:`SORT_CACHE_KIB`): 4.1 million made-up rows moved in 5.90 s instead of
6.67 s on 2 cores with the 64 MiB cache, 3.43 s with the small one
(``benchmarks/bench_staged_sort.py``)."""


SORT_CACHE_KIB = 1024
"""SQLite's page cache while the staged rows are moved into ``positions`` (KiB), instead of
:data:`CACHE_KIB`. The sorter writes its rows out in batches the size of the page cache and
sorts each in memory: a batch the size of a CPU's cache sorts far faster than one of
64 MiB, whose rows are scattered over memory, and merging more batches costs less than it
saves. The rows go into the table in its order, so they need few pages cached. 5.1 million
staged rows of a Maka-Dai-Dai archive moved in 4.0–4.3 s instead of 6.3–7.1 s on 2 cores,
with the helper thread (made-up rows: ``benchmarks/bench_staged_sort.py``)."""


def sort_threads() -> int:
    """How many helper threads the sorter gets: :data:`SORT_THREADS`, and at most one fewer
    than the cores this process may run on."""
    return max(0, min(SORT_THREADS, usable_cores() - 1))


MOVE_CACHE = 100_000
"""How many move texts the writer keeps the ids of, twice over: the texts met since it last
forgot some, and those met before that. A text met again after it was forgotten is stored
again under a new id, so the writer's memory stays the same whatever the archive (Game of
War's turns are nearly all distinct: 100,000 records hold some 3.5 million texts, about 13%
of which are stored more than once at this size)."""


ROWS_PER_STATEMENT = 64
"""The most rows one INSERT of the writer carries (a power of two; 320 parameters for
``positions``, well below SQLite's limit)."""

PENDING_ROWS = 32_768
"""``positions`` rows the writer gathers before it inserts them (and at the end of each
transaction): inserted in one go, between the other tables' rows of as many records, they
cost about a fifth less than record by record (the B-tree's pages stay in the CPU's caches);
about 5 MB of Python values at most."""


class RowInserter:
    """Inserts rows into one table several to a statement (``INSERT ... VALUES (...),
    (...)``): Python's ``executemany`` binds and steps one statement per row, and at a
    position index's hundreds of thousands of rows that costs about as much as SQLite's
    insert itself. A record's rows go in statements of 64, 32, 16, ... rows, so that a few
    statements, each prepared once, insert any number of rows."""

    def __init__(self, head: str, width: int) -> None:
        self._head = head
        self._width = width
        self._row = "(" + ",".join("?" * width) + ")"
        self._statements: dict[int, str] = {}

    def _statement(self, rows: int) -> str:
        found = self._statements.get(rows)
        if found is None:
            found = self._statements[rows] = f"{self._head} VALUES " + ",".join(
                [self._row] * rows)
        return found

    def insert(self, connection: sqlite3.Connection, values: list[Any]) -> None:
        """Insert the rows whose values ``values`` holds one after the other (row by row,
        each of the table's width), in their order."""
        width = self._width
        count = len(values) // width
        start, size = 0, ROWS_PER_STATEMENT
        while start < count:
            while size > count - start:
                size >>= 1
            connection.execute(self._statement(size),
                               values[start * width:(start + size) * width])
            start += size


_POSITION_ROWS = RowInserter("INSERT OR IGNORE INTO positions", 5)
_RECORD_KEYS = RowInserter("INSERT OR REPLACE INTO record_keys", 2)
_STAGED_ROWS = RowInserter("INSERT INTO temp.positions_staged", 5)
_COUNT_ROWS = {table: RowInserter(f"INSERT OR IGNORE INTO {table}", 4)
               for table in MATERIAL_ROWS_SCHEMA}
_MOVE_ROWS = RowInserter("INSERT INTO position_moves (id, text)", 2)
_MATERIAL_ROWS = RowInserter("INSERT OR REPLACE INTO position_material", 4)


def has_index_tables(connection: sqlite3.Connection) -> bool:
    """Whether the database holds the index's tables (a database made before them does not)."""
    return has_table(connection, "positions")


def create_index_tables(connection: sqlite3.Connection) -> None:
    """Add the index's tables when missing (statement by statement: inside the caller's
    transaction, which ``executescript`` would commit)."""
    for statement in INDEX_SCHEMA.split(";"):
        if statement.strip():
            connection.execute(statement)


class PositionStore:
    """Writes the index rows of the records a results database stores."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self._move_ids: dict[str | None, int] = {}  # None (no move) is never in it
        """The ids of the move texts met since the writer last forgot some."""
        self._older_move_ids: dict[str | None, int] = {}
        """The ids of the texts met before that (a text found here is kept again)."""
        self._next_move_id = 1
        self._signature_ids: dict[str, int] = {}
        self._with_rows: set[int] = set()
        self._pending: list[Any] = []
        """``positions`` rows not inserted yet (their values one after the other): the
        caller's transaction calls :meth:`flush` before it commits."""
        self._pending_counts: list[Any] = []
        """Rows of the new materials' counts (:class:`MaterialRows`) not inserted yet,
        likewise."""
        self._counts: MaterialRows | None = None
        """Where and how the database keeps its materials' counts (``None``: it has stored
        no material yet, and its first one will be the reference)."""
        self._pending_moves: list[Any] = []
        """New ``position_moves`` rows not inserted yet, their values one after the other
        (each of them is among the texts kept in memory until it is: a text looked for in
        the table is never one of them)."""
        self._pending_material: list[Any] = []
        """``position_material`` rows not inserted yet, likewise."""
        self._pending_keys: list[Any] = []
        """``record_keys`` rows not inserted yet, likewise."""
        self._input_rows = 0
        """``positions`` rows of the input being stored inserted or staged so far."""
        self._staged_rows = 0
        """Of them, those staged (:data:`STAGE_AFTER_ROWS`)."""
        self._stage_all = False
        """Whether ``positions`` was empty when the input's first rows came: all its rows
        are then staged (:meth:`flush`)."""
        self._ready = False

    def _prepare(self) -> None:
        if not self._ready:
            create_index_tables(self.connection)
            self.connection.execute(STAGED_SCHEMA)
            # SQLite as Debian builds it overwrites what it deletes (secure_delete): nothing
            # to hide in the connection's own temporary file, and emptying the staged table
            # took 0.3 s at 5 million rows with it, 0.06 s without.
            self.connection.execute("PRAGMA temp.secure_delete = OFF")
            self.connection.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
            retire_line_index(self.connection)
            # Made by releases that looked texts up by digest; only their writer used it,
            # and it would cost a random insert per text.
            self.connection.execute("DROP INDEX IF EXISTS position_moves_digest")
            # The texts stored last, as if met last: a run that adds records like those
            # before it stores few texts again (all of them, when the database holds fewer
            # than MOVE_CACHE, as Maka-Dai-Dai's archives do).
            self._move_ids = dict(self.connection.execute(
                "SELECT text, id FROM (SELECT text, id FROM position_moves ORDER BY id DESC "
                "LIMIT ?) ORDER BY id", (MOVE_CACHE,)))
            self._older_move_ids = {}
            self._next_move_id = (self.connection.execute(
                "SELECT max(id) FROM position_moves").fetchone()[0] or 0) + 1
            # The texts as stored: the workers send each signature written the same way.
            self._signature_ids = dict((counts, id_) for id_, counts in self.connection.execute(
                "SELECT id, counts FROM material_signatures"))
            self._counts = material_rows(self.connection)
            if self._counts is not None:  # a database indexed before material_pieces lacks it
                create_count_table(self.connection, self._counts.table)
            self._ready = True

    def _new_moves(self, texts: list[str | None]) -> None:
        """Know the ids of a record's move texts: those met recently (kept in memory: met
        since the writer last forgot, or before that), and new ids for the others, stored
        at the next flush in the order the record first writes them. Past
        :data:`MOVE_CACHE` texts met since it last forgot, the writer forgets those met
        before, and keeps only the record's own texts as met since: so a record has one id
        per text, and a text is stored again only when it was not met among the last
        MOVE_CACHE to 2 × MOVE_CACHE texts."""
        known, older = self._move_ids, self._older_move_ids
        new = []
        for text in dict.fromkeys(texts):
            if text is not None and text not in known:
                found = older.get(text)
                if found is None:
                    new.append(text)
                else:
                    known[text] = found
        if new:
            ids = range(self._next_move_id, self._next_move_id + len(new))
            self._pending_moves += chain.from_iterable(zip(ids, new))
            known.update(zip(new, ids))
            self._next_move_id = ids.stop
        if len(known) > MOVE_CACHE:
            self._older_move_ids = known
            self._move_ids = {text: known[text] for text in texts if text is not None}

    def add(self, input_id: int, record_id: int, positions: IndexedPositions) -> None:
        """Store a record's positions (inside the caller's transaction)."""
        self._prepare()
        if input_id not in self._with_rows:
            # Marked at its first rows, in their transaction, so that forget() finds them even
            # when the run stops before the input is complete (complete() says it is whole).
            self._with_rows.add(input_id)
            self.connection.execute("INSERT OR REPLACE INTO position_inputs VALUES (?, ?)",
                                    (input_id, int(positions.variations)))
        texts = positions.moves
        ids = list(map(self._move_ids.get, texts))  # None: the end of the main line has none
        # Every text known when no id is missing but the end of the main line's (one pass
        # in C: Maka-Dai-Dai's records mostly repeat known moves).
        if ids.count(None) != texts.count(None):
            self._new_moves(texts)  # which may replace the dictionary
            ids = list(map(self._move_ids.get, texts))
        # The rows zipped from the worker's columns, not built one by one in Python (the
        # keys come signed, and None, the end of the main line, has no move id), and kept
        # to be inserted many records at once.
        pending = self._pending
        pending += chain.from_iterable(zip(positions.keys, repeat(record_id), positions.lines,
                                           positions.plies, ids))
        main_line = main_line_keys(positions)
        if main_line:
            self._pending_keys += (record_id, main_line)
        if len(pending) >= PENDING_ROWS * 5:
            self.flush()
        if positions.material is not None:
            signature_id = self._signature_id
            self._pending_material += chain.from_iterable(
                (record_id, first, last, signature_id(signature))
                for first, last, signature in positions.material)

    def flush(self) -> None:
        """Insert the ``positions`` rows gathered (before the caller's transaction commits,
        and before anything reads the table): into the table, or past the input's first
        :data:`STAGE_AFTER_ROWS` rows into ``positions_staged`` (:meth:`complete` moves them
        into the table). When the table is empty as the input begins (the first input of a
        new database, or one stored again alone) every row is staged: moved in sorted, each
        then goes at the table's end, where SQLite finds its place on the last page instead
        of searching from the root (made-up rows of 100,000 Maka-Dai-Dai records: the 6.1
        million moved in with 4.7 s of CPU, against 6.6 s for the 5.85 million past the
        first 250,000, which go between those)."""
        self._flush_moves()
        if self._pending:
            rows = len(self._pending) // 5
            if self._input_rows == 0:
                self._stage_all = not self.connection.execute(
                    "SELECT 1 FROM positions LIMIT 1").fetchall()
            if self._stage_all or self._input_rows + rows > STAGE_AFTER_ROWS:
                _STAGED_ROWS.insert(self.connection, self._pending)
                self._staged_rows += rows
            else:
                _POSITION_ROWS.insert(self.connection, self._pending)
            self._input_rows += rows
            self._pending = []
        if self._pending_counts:
            assert self._counts is not None  # set with the first material's rows
            _COUNT_ROWS[self._counts.table].insert(self.connection, self._pending_counts)
            self._pending_counts = []
        if self._pending_material:
            _MATERIAL_ROWS.insert(self.connection, self._pending_material)
            self._pending_material = []
        if self._pending_keys:
            _RECORD_KEYS.insert(self.connection, self._pending_keys)
            self._pending_keys = []

    def _flush_moves(self) -> None:
        if self._pending_moves:
            _MOVE_ROWS.insert(self.connection, self._pending_moves)
            self._pending_moves = []

    def discard(self) -> None:
        """Forget the rows gathered (the caller's transaction was rolled back), and what was
        kept in memory of the tables, which may hold texts and materials rolled back: read
        again at the next record."""
        self._pending = []
        self._pending_counts = []
        self._pending_moves = []
        self._pending_material = []
        self._pending_keys = []
        self._older_move_ids = {}
        self._ready = False

    def complete(self, input_id: int, variations: bool) -> None:
        """Input ``input_id`` is stored whole with the index (inside the caller's transaction,
        the one that marks it complete): every record it has is indexed, however few (an input
        without a readable record is indexed too: it has nothing to index). Its staged rows
        go into ``positions`` now."""
        self._prepare()
        self.flush()
        if self._staged_rows:
            self._move_staged_rows(input_id)
        self.connection.execute("INSERT OR REPLACE INTO position_inputs VALUES (?, ?)",
                                (input_id, int(variations)))
        self.connection.execute("INSERT OR IGNORE INTO material_inputs VALUES (?)", (input_id,))

    def _move_staged_rows(self, input_id: int) -> None:
        """Move the staged rows into ``positions`` in the table's order, so that each of its
        pages is written once (with them, any this connection staged for an input stopped
        before its end, which is not indexed: :meth:`forget` finds them there as well)."""
        self.connection.execute(f"PRAGMA threads = {sort_threads()}")
        self.connection.execute(f"PRAGMA cache_size = -{SORT_CACHE_KIB}")
        try:
            self.connection.execute(
                "INSERT OR IGNORE INTO positions SELECT key, record_id, line, ply, move_id "
                "FROM temp.positions_staged ORDER BY key, record_id, line, ply")
        finally:
            self.connection.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
            self.connection.execute("PRAGMA threads = 0")
        self.connection.execute("DELETE FROM temp.positions_staged")
        self._staged_rows = 0

    def _signature_id(self, signature: str) -> int:
        found = self._signature_ids.get(signature)
        if found is None:
            found, self._counts, rows = new_material(self.connection, signature, self._counts)
            self._signature_ids[signature] = found
            # Gathered with the positions rows, and inserted with them (the same gain).
            self._pending_counts += chain.from_iterable(rows)
        return found

    def forget(self, path: str) -> None:
        """Remove the rows of the records of input ``path`` (before it is stored again), and
        begin a new input."""
        self._with_rows.clear()  # the input gets a new id, which may be an old one's
        self._input_rows = self._staged_rows = 0
        if not has_index_tables(self.connection):
            return
        ids = [row[0] for row in self.connection.execute(
            "SELECT records.id FROM records JOIN inputs ON inputs.id = records.input_id "
            "JOIN position_inputs ON position_inputs.input_id = inputs.id "
            "WHERE inputs.path = ?", (path,))]
        if ids:
            _forget_rows(self.connection, path, ids)
            # Rows staged for an input stopped before its end: by this connection (a store
            # closed early), or by an earlier release's interrupted run in the file.
            for schema in ("temp", "main"):
                if has_table(self.connection, "positions_staged", schema):
                    self.connection.execute(
                        f"DELETE FROM {schema}.positions_staged WHERE record_id IN "
                        "(SELECT value FROM json_each(?))", (_json_list(ids),))
            self.connection.execute(
                "DELETE FROM position_material WHERE record_id IN "
                "(SELECT value FROM json_each(?))", (_json_list(ids),))


FORGET_BY_KEYS_BELOW = 1 / 16
"""An input whose records hold less than this share of the main-line rows has its rows
deleted one by one by its records' keys; a larger one by one pass over the whole table,
which deletes in the table's order (100,000 Maka-Dai-Dai records, all of the table: 42.2 s
by keys, 2.9 s by a pass; a tenth of them by a pass 1.8 s)."""


def _forget_rows(connection: sqlite3.Connection, path: str, ids: list[int]) -> None:
    """Delete the ``positions`` rows of records ``ids`` (of input ``path``). The rows are
    keyed by position: a small input's main-line rows are found by its records' keys
    (``record_keys``), or through ``positions_line`` where an earlier release's database
    still has it; what neither finds is looked for in the whole table: the rows of the
    input's variations (when it indexed them), and of records without keys (indexed before
    either). A large input's rows are all deleted by a pass over the table
    (:data:`FORGET_BY_KEYS_BELOW`)."""
    keys_kept = has_table(connection, "record_keys")  # not in an earlier release's database
    if has_index(connection, "positions_line") or not keys_kept \
            or _forget_by_pass(connection, ids):
        _delete_rows(connection, ids)
        if keys_kept:
            connection.execute("DELETE FROM record_keys WHERE record_id IN "
                               "(SELECT value FROM json_each(?))", (_json_list(ids),))
        return
    keyed = set()
    for record_id, keys in connection.execute(
            "SELECT record_id, keys FROM record_keys WHERE record_id IN "
            "(SELECT value FROM json_each(?))", (_json_list(ids),)):
        keyed.add(record_id)
        connection.executemany(
            "DELETE FROM positions WHERE key = ? AND record_id = ? AND line = 0",
            zip(set(_keys_of(keys)), repeat(record_id)))
    connection.execute("DELETE FROM record_keys WHERE record_id IN "
                       "(SELECT value FROM json_each(?))", (_json_list(ids),))
    unkeyed = [record_id for record_id in ids if record_id not in keyed]
    if unkeyed:
        _delete_rows(connection, unkeyed)
    if keyed and connection.execute(
            "SELECT 1 FROM position_inputs JOIN inputs ON inputs.id = input_id "
            "WHERE inputs.path = ? AND variations = 1", (path,)).fetchall():
        _delete_rows(connection, sorted(keyed), lines="line > 0 AND ")


def _delete_rows(connection: sqlite3.Connection, ids: list[int], lines: str = "") -> None:
    """Delete the ``positions`` rows of records ``ids`` (only those matching ``lines``, an
    SQL condition ending in AND) by one pass over the table."""
    connection.execute(
        f"DELETE FROM positions WHERE {lines}record_id BETWEEN ? AND ? AND record_id IN "
        "(SELECT value FROM json_each(?))", (min(ids), max(ids), _json_list(ids)))


def _forget_by_pass(connection: sqlite3.Connection, ids: list[int]) -> bool:
    """Whether records ``ids`` hold at least :data:`FORGET_BY_KEYS_BELOW` of the main-line
    rows (their keys' lengths summed: the keys are not read)."""
    mine = connection.execute(
        "SELECT total(length(keys)) FROM record_keys WHERE record_id IN "
        "(SELECT value FROM json_each(?))", (_json_list(ids),)).fetchone()[0]
    everything = connection.execute(
        "SELECT total(length(keys)) FROM record_keys").fetchone()[0]
    return bool(everything > 0 and mine >= everything * FORGET_BY_KEYS_BELOW)


def main_line_keys(positions: IndexedPositions) -> bytes:
    """``record_keys.keys`` of a record: its main line's keys in ply order, 8 bytes each,
    signed and little-endian (the collector puts the main line first, plies 0, 1, ...)."""
    return _blob_of(positions.keys[:positions.lines.count(0)])


def _blob_of(keys: array[int]) -> bytes:
    """Keys as ``record_keys.keys`` holds them (``keys`` may be byte-swapped in place)."""
    if sys.byteorder != "little":
        keys.byteswap()
    return keys.tobytes()


def _keys_of(blob: bytes) -> array[int]:
    """The keys of a ``record_keys.keys`` value."""
    keys = array("q")
    keys.frombytes(blob)
    if sys.byteorder != "little":
        keys.byteswap()
    return keys


def key_of(blob: bytes | int | None) -> int | None:
    """A key read from ``record_keys`` (8 bytes; from ``positions_line`` already a number)."""
    if isinstance(blob, bytes):
        return int.from_bytes(blob, "little", signed=True)
    return blob


def retire_line_index(connection: sqlite3.Connection) -> None:
    """Give a database an earlier release indexed (with ``positions_line``) the keys of its
    records' main lines, and drop the index (inside the writer's transaction). An earlier
    release that writes to this database makes the index again, over every row, and
    writes its records without keys: the queries read the index while it is there, and the
    next run gives those records their keys."""
    if not has_index(connection, "positions_line"):
        return
    rows = connection.execute(
        "SELECT record_id, ply, key FROM positions INDEXED BY positions_line WHERE line = 0 "
        "AND record_id NOT IN (SELECT record_id FROM record_keys) AND record_id IN "
        "(SELECT id FROM records) ORDER BY record_id, line, ply")
    batch: list[Any] = []
    for record_id, plies in groupby(rows, key=lambda row: row[0]):
        found = array("q")
        for _, ply, key in plies:
            if ply != len(found):  # not a whole main line from ply 0: left without keys
                break
            found.append(key)
        else:
            batch += (record_id, _blob_of(found))
            if len(batch) >= 2 * PENDING_ROWS:
                _RECORD_KEYS.insert(connection, batch)
                batch = []
    _RECORD_KEYS.insert(connection, batch)
    connection.execute("DROP INDEX positions_line")


def _stored_material(counts: str) -> StoredMaterial:
    """:func:`~notation_tools.analysis.pattern.signature_material` of a stored signature, in
    one pass over its JSON (an archive of 100,000 records stores some 20,000 materials, and a
    new process reads them all at its first pattern search)."""
    rows = json.loads(counts)
    material = StoredMaterial({(side, piece): count for side, piece, count in rows})
    totals = [0, 0]
    for side, _, count in rows:
        totals[side] += count
    material.totals = totals
    return material


def _json_list(values: Iterable[int]) -> str:
    return "[" + ",".join(str(v) for v in values) + "]"


def is_indexed(connection: sqlite3.Connection, path: str, variations: bool) -> bool:
    """Whether input ``path`` is indexed (with its variations when ``variations``)."""
    if not has_index_tables(connection):
        return False
    if not has_table(connection, "material_inputs"):
        return False  # indexed before the material runs were stored: index it again
    rows = connection.execute(
        "SELECT position_inputs.variations FROM position_inputs JOIN inputs "
        "ON inputs.id = position_inputs.input_id JOIN material_inputs "
        "ON material_inputs.input_id = inputs.id WHERE inputs.path = ?", (path,)).fetchall()
    return bool(rows) and (rows[0][0] == 1 or not variations)


def index_coverage(connection: sqlite3.Connection) -> tuple[int, int]:
    """(inputs indexed, inputs stored): an input is indexed when it was stored complete
    with the index, whether or not it had anything to index (a run stopped in the middle of
    an input leaves it not indexed, and ``analyze`` does it again)."""
    stored = connection.execute("SELECT count(*) FROM inputs").fetchone()[0]
    if not has_index_tables(connection):
        return 0, stored
    indexed = connection.execute(
        "SELECT count(*) FROM position_inputs JOIN inputs ON inputs.id = position_inputs.input_id "
        "WHERE inputs.complete = 1").fetchone()[0]
    return indexed, stored


def has_table(connection: sqlite3.Connection, name: str, schema: str = "main") -> bool:
    """Whether the database has the table ``name`` (one made by an older version may not),
    in ``schema`` (``temp``: the connection's own tables)."""
    return bool(connection.execute(f"SELECT 1 FROM {schema}.sqlite_master WHERE type = "
                                   "'table' AND name = ?", (name,)).fetchall())


def _result_columns(results: tuple[str, str]) -> tuple[str, tuple[Any, ...]]:
    """SQL sums of the first and second side's wins, draws and the rest, over ``result``."""
    sql = ("sum(result = ?) AS first, sum(result = ?) AS second, sum(result = '1/2-1/2') AS "
           "draws, sum(result IS NULL OR result NOT IN (?, ?, '1/2-1/2')) AS other")
    return sql, (results[0], results[1], results[0], results[1])


_DATE = ("CASE WHEN instr(r.tags_json, '[\"Date\", \"') > 0 THEN nullif(substr(r.tags_json, "
         "instr(r.tags_json, '[\"Date\", \"') + 10, instr(substr(r.tags_json, "
         "instr(r.tags_json, '[\"Date\", \"') + 10), '\"') - 1), '????.??.??') END")
"""The record's Date tag, read from the stored tags as ``analyze`` writes them (no JSON
parsing per record: at the start position the explorer reads every record)."""


def move_text_count(connection: sqlite3.Connection, key: int) -> int:
    """How many move ids the records played from position ``key`` (main lines, any game):
    an upper bound for the number of one game's move texts (a text may have several ids)."""
    return int(connection.execute(
        "SELECT count(DISTINCT move_id) FROM positions WHERE key = ? AND line = 0",
        (key,)).fetchone()[0])


def next_keys(connection: sqlite3.Connection) -> str | None:
    """Where the key of the position after a record's move is read: ``"record"`` (its row
    of ``record_keys``), ``"line"`` (its next row, through ``positions_line``: a database
    an earlier release wrote last), or ``None`` (a database indexed before either: the
    explorer then plays the moves)."""
    if has_index(connection, "positions_line"):
        return "line"
    return "record" if has_table(connection, "record_keys") else None


def move_texts(connection: sqlite3.Connection, key: int, game: str
               ) -> list[tuple[int, int, int | None]] | None:
    """The move texts the records played from position ``key`` (main lines), each with
    only what choosing the moves to list needs: (the least of its move ids, records, the
    key after it when every record that played it went on to the same position, else
    ``None``; the text itself from :func:`move_spellings`, for the few texts read). One
    pass over the position's rows, each joined to its move's text and to the key after it
    (:func:`next_keys`), grouped by text in SQL: no result, date or example is read, so a
    position with tens of thousands of texts (Game of War's first turns, most played once)
    costs per record, not per text. ``None`` for a database without the keys after."""
    source = next_keys(connection)
    if source is None:
        return None
    of_game = "" if only_game(connection, game) else \
        " AND p.record_id IN (SELECT id FROM records WHERE game = ?)"
    rows = connection.execute(_TEXTS[source].format(game="", outer="", join="",
                                                    where=of_game),
                              (key, *([game] if of_game else []))).fetchall()
    return [(move_id, games, _child(least, most, whole))
            for move_id, games, least, most, whole in rows]


def move_texts_by_game(connection: sqlite3.Connection, key: int
                       ) -> list[tuple[str, int, int, int | None]]:
    """:func:`move_texts` of every game at once: (game, move id, records, key after it or
    ``None``), for ``analyze`` to keep (:mod:`~notation_tools.storage.busy_positions`). The
    records are joined only when the database holds records of several games."""
    source = next_keys(connection) or "record"  # the caller asks only when there are keys
    least_game, most_game = connection.execute(
        "SELECT min(game), max(game) FROM records").fetchone()
    if least_game == most_game:
        return [(least_game, move_id, games, _child(least, most, whole))
                for move_id, games, least, most, whole in connection.execute(
                    _TEXTS[source].format(game="", outer="", join="", where=""), (key,))
                ] if least_game is not None else []
    return [(game, move_id, games, _child(least, most, whole))
            for game, move_id, games, least, most, whole in connection.execute(
                _TEXTS[source].format(game="r.game, ", outer="game, ",
                                      join="JOIN records AS r ON r.id = p.record_id ",
                                      where=" AND r.game IS NOT NULL"), (key,))]


_AFTER = "nullif(substr(k.keys, 8 * p.ply + 9, 8), x'')"
"""The key after the move of row ``p`` in its record's ``record_keys`` row ``k`` (8 bytes;
``NULL`` where the main line ends)."""

_TEXTS = {
    "record": "SELECT {outer}min(move_id), count(DISTINCT record_id), min(after), max(after), "
              "count(after) = count(*) FROM (SELECT {game}p.move_id, p.record_id, m.text, "
              f"{_AFTER} AS after FROM positions AS p CROSS JOIN position_moves AS m "
              "ON m.id = p.move_id {join}LEFT JOIN record_keys AS k ON k.record_id = "
              "p.record_id WHERE p.key = ? AND p.line = 0{where} LIMIT -1) "
              "GROUP BY {outer}text",
    "line": "SELECT {game}min(p.move_id), count(DISTINCT p.record_id), min(c.key), "
            "max(c.key), count(c.key) = count(*) FROM positions AS p CROSS JOIN "
            "position_moves AS m ON m.id = p.move_id {join}LEFT JOIN positions AS c INDEXED "
            "BY positions_line ON c.record_id = p.record_id AND c.line = 0 AND c.ply = p.ply "
            "+ 1 WHERE p.key = ? AND p.line = 0{where} GROUP BY {game}m.text"}
""":func:`move_texts`'s pass over a position's rows, each joined to its move's text and to the
key after it, by where that key is read (:func:`next_keys`). The rows and the key after each
are read in a subquery of their own (``LIMIT -1``), so that the key is cut out of its record's
keys once per row, not once per aggregate."""


def _child(least: bytes | int | None, most: bytes | int | None, whole: int) -> int | None:
    """The key every record reached after a text, or ``None`` (they differ, or one ended)."""
    return key_of(least) if least == most and whole else None


def move_spellings(connection: sqlite3.Connection, ids: Iterable[int]) -> dict[int, str]:
    """Move id → the move's text (``position_moves``), for ``ids``."""
    return dict(connection.execute("SELECT id, text FROM position_moves WHERE id IN "
                                   "(SELECT value FROM json_each(?))", (_json_list(ids),)))


def next_moves(connection: sqlite3.Connection, key: int, game: str,
               results: tuple[str, str], *, move_ids: Iterable[int] | None = None
               ) -> list[dict[str, Any]]:
    """The moves the records played from position ``key`` (main lines), one row per move
    id: records (each record once per move), each side's wins, draws, the rest, final
    length in plies (``plies``, their sum, and ``average_plies``), first and last Date tag,
    the first record (``example``: its id, ``example_path`` and ``example_record``), and
    ``child``: the key of the position after the move when every record that played the
    text went on to the same position (``None`` otherwise, or in a database without the
    keys after each move: :func:`next_keys`).

    A text played in one position under one set of rules leads to one position (the rules
    engine is a function of the position), so the next position is read from one record per
    text (its ``record_keys``), not from every record: at the start position, where
    every record passes, that is one look-up per move instead of one per record. A text
    played under several rules (rare) is looked up once per rules. ``move_ids``: only the
    texts of these ids (those :func:`move_texts` chose to list, and any other ids of their
    texts).

    A text stored under several ids (:class:`PositionStore` met it again after it forgot
    it) has a row per id, each with its own records: a record plays a text under one id, so
    :func:`~notation_tools.analysis.explore.merge_moves` adds them up into one row of the
    text first."""
    sums, parameters = _result_columns(results)
    # Chosen texts are found by text: the ids given are one per text.
    only = "" if move_ids is None else (
        " AND move_id IN (SELECT p.move_id FROM positions AS p CROSS JOIN position_moves AS m "
        "ON m.id = p.move_id WHERE p.key = ? AND p.line = 0 AND m.text IN (SELECT text FROM "
        "position_moves WHERE id IN (SELECT value FROM json_each(?))))")
    keys_from = next_keys(connection)
    keyed = keys_from is not None
    child = _after_example(keys_from, _FIRST_PLY.format(record="s.example", move="s.move_id"))
    # The inner rows are one per record and move; LIMIT -1 keeps them a subquery of their
    # own, so that the date is read once per record, not once per min() and max().
    rows = connection.execute(
        "SELECT m.text, s.*, e.source, e.record_index, CASE WHEN s.rules = 0 OR (s.rules = "
        f"s.games AND s.least IS s.most) THEN {child} END FROM (SELECT move_id, count(*) AS "
        "games, " + sums + ", sum(plies), min(date), max(date), "
        "min(id) AS example, count(rules) AS rules, min(rules) AS least, max(rules) AS most "
        "FROM (SELECT p.move_id, r.id, r.result, r.plies, r.rules, "
        f"{_DATE} AS date FROM (SELECT record_id, move_id FROM positions WHERE key = ? "
        f"AND line = 0 AND move_id IS NOT NULL{only} GROUP BY record_id, move_id) AS p "
        "JOIN records AS r ON r.id = p.record_id WHERE r.game = ? LIMIT -1) "
        "GROUP BY move_id) AS s JOIN position_moves AS m ON m.id = s.move_id "
        "JOIN records AS e ON e.id = s.example",
        (*([key] if keyed else []), *parameters, key,
         *([] if move_ids is None else [key, _json_list(move_ids)]), game)).fetchall()
    found = []
    for row in rows:
        (text, move_id, games, first, second, draws, other, plies, first_date, last_date,
         example, ruled, least, most, source, index, after) = row
        if keyed and not (ruled == 0 or (ruled == games and least == most)):
            after = _child_by_rules(connection, key, game, move_id)
        else:
            after = key_of(after)
        found.append({"move": text, "games": games, "wins": [first, second], "draws": draws,
                      "unfinished": other, "plies": plies,
                      "average_plies": None if plies is None else plies / games,
                      "first_date": first_date,
                      "last_date": last_date, "example": example, "example_path": source,
                      "example_record": index, "child": after})
    return found


_FIRST_PLY = ("(SELECT min(ply) FROM positions WHERE key = ? AND record_id = {record} "
              "AND line = 0 AND move_id = {move})")
"""The first ply at which a record played a move from the position (main line)."""


def _after_example(source: str | None, ply: str) -> str:
    """SQL of the key after ply ``ply`` of record ``s.example``'s main line, read where
    :func:`next_keys` says (``NULL`` without keys, or where the main line ends)."""
    if source == "line":
        return (f"(SELECT c.key FROM positions AS c WHERE c.record_id = s.example AND "
                f"c.line = 0 AND c.ply = {ply} + 1)")
    if source == "record":
        return (f"(SELECT nullif(substr(k.keys, 8 * ({ply}) + 9, 8), x'') FROM record_keys "
                "AS k WHERE k.record_id = s.example)")
    return "NULL"


def _child_by_rules(connection: sqlite3.Connection, key: int, game: str,
                    move_id: int) -> int | None:
    """:func:`next_moves`'s ``child`` of a move text played under several rules: the
    position after it read from one record per rules, when they all agree."""
    after = _after_example(next_keys(connection),
                           _FIRST_PLY.format(record="s.example", move="?"))
    children = {key_of(row[0]) for row in connection.execute(
        f"SELECT {after} FROM (SELECT min(r.id) AS example FROM "
        "positions AS p JOIN records AS r ON r.id = p.record_id WHERE p.key = ? AND "
        "p.line = 0 AND p.move_id = ? AND r.game = ? GROUP BY r.rules) AS s",
        (key, move_id, key, move_id, game))}
    return children.pop() if len(children) == 1 else None


def has_index(connection: sqlite3.Connection, name: str) -> bool:
    """Whether the database has the index ``name`` (one made by an older version may not)."""
    return bool(connection.execute("SELECT 1 FROM sqlite_master WHERE type = 'index' "
                                   "AND name = ?", (name,)).fetchall())


def records_reaching(connection: sqlite3.Connection, key: int, game: str, *,
                     variations: bool = False, limit: int | None = None
                     ) -> list[tuple[Any, ...]]:
    """The records whose main line (or a variation, with ``variations``) reaches position
    ``key``, in database order (the first ``limit`` of them): (record id, source, record
    index, first ply, line, result, tags JSON, game)."""
    lines = "" if variations else " AND line = 0"
    # The rows of a key come in record order: with one game in the database, the first
    # ``limit`` records are found without grouping the others (every record at the start).
    first = " ORDER BY record_id LIMIT ?" if only_game(connection, game) else ""
    return connection.execute(
        "SELECT r.id, r.source, r.record_index, p.ply, p.line, r.result, r.tags_json, r.game "
        "FROM (SELECT record_id, min(line) AS line, min(ply) AS ply FROM positions "
        f"WHERE key = ?{lines} GROUP BY record_id{first}) AS p "
        "CROSS JOIN records AS r ON r.id = p.record_id WHERE r.game = ? ORDER BY r.id LIMIT ?",
        (key, *([-1 if limit is None else limit] if first else []), game,
         -1 if limit is None else limit)).fetchall()


def count_reaching(connection: sqlite3.Connection, key: int, game: str, *,
                   variations: bool = False) -> int:
    """How many records :func:`records_reaching` finds (without reading them)."""
    lines = "" if variations else " AND line = 0"
    if only_game(connection, game):  # every record with rows is the game's: no join
        return int(connection.execute(
            f"SELECT count(DISTINCT record_id) FROM positions WHERE key = ?{lines}",
            (key,)).fetchone()[0])
    return int(connection.execute(
        "SELECT count(DISTINCT p.record_id) FROM positions AS p JOIN records AS r "
        f"ON r.id = p.record_id WHERE p.key = ?{lines.replace('line', 'p.line')} "
        "AND r.game = ?", (key, game)).fetchone()[0])


def only_game(connection: sqlite3.Connection, game: str) -> bool:
    """Whether every record of a known game is of ``game`` (two look-ups in records_game)."""
    return bool(connection.execute("SELECT (SELECT min(game) FROM records) = ? AND "
                                   "(SELECT max(game) FROM records) = ?", (game, game)
                                   ).fetchone()[0] == 1)


def material_indexed_inputs(connection: sqlite3.Connection) -> set[int]:
    """The ids of the inputs whose records' material is indexed (``position_material``)."""
    if not has_table(connection, "material_inputs"):
        return set()
    return {row[0] for row in connection.execute("SELECT input_id FROM material_inputs")}


MaterialCheck = Callable[[dict[tuple[int, str], int]], bool]
"""Whether a stored material ((side, piece) → count) is wanted, tested in Python."""


@dataclasses.dataclass(frozen=True)
class MaterialRows:
    """Where a database keeps its materials' counts by side and piece, keyed so that a
    material condition reads the materials it accepts by key, in SQL: ``table`` holds a row
    (side, piece, count, material id) for each count of a material that differs from the
    ``reference`` material's (a piece absent from either counts 0), and each side's total
    (piece ``*``) for every material. A database indexed since ``material_differences``
    takes its first stored material as the reference: the others mostly differ from it in a
    few pieces (Maka-Dai-Dai's 20,515 materials of 100,000 generated records: 167,789 rows,
    against 2,083,320 with a row for each piece counted). One indexed before keeps
    ``material_pieces``, whose reference is no material: a row for each count above 0."""

    table: str
    reference: dict[tuple[int, str], int]


def material_rows(connection: sqlite3.Connection) -> MaterialRows | None:
    """The database's :class:`MaterialRows`: ``material_differences`` against its
    ``material_reference``; ``material_pieces`` in a database that has that table, or
    materials without either (indexed before both: the writer and :func:`fill_material_rows`
    give it ``material_pieces``); ``None`` in one without a material yet (its first is
    the reference: :func:`start_reference`)."""
    if has_table(connection, "material_reference"):
        # Read as untrusted (a file can be edited by hand): a row of another kind is left
        # out, not compared with the tests' counts.
        return MaterialRows("material_differences", {
            (side, piece): count for side, piece, count in connection.execute(
                "SELECT side, piece, count FROM material_reference")
            if type(side) is int and type(piece) is str and type(count) is int})
    if has_table(connection, "material_pieces") or (
            has_table(connection, "material_signatures") and connection.execute(
                "SELECT 1 FROM material_signatures LIMIT 1").fetchall()):
        return MaterialRows("material_pieces", {})
    return None


def create_count_table(connection: sqlite3.Connection, table: str) -> None:
    """Make ``table`` of :data:`MATERIAL_ROWS_SCHEMA` (with ``material_reference``) when
    missing."""
    for statement in MATERIAL_ROWS_SCHEMA[table].split(";"):
        connection.execute(statement)


def start_reference(connection: sqlite3.Connection, counts: str) -> MaterialRows:
    """Make ``material_differences`` with material ``counts`` (a signature's JSON, the
    first the database stores) as its reference (inside the writer's transaction)."""
    create_count_table(connection, "material_differences")
    reference = {(side, piece): count for side, piece, count in json.loads(counts)}
    connection.executemany("INSERT INTO material_reference VALUES (?, ?, ?)",
                           [(side, piece, count) for (side, piece), count in reference.items()])
    return MaterialRows("material_differences", reference)


def material_count_rows(signature_id: int, counts: str, reference: dict[tuple[int, str], int]
                        ) -> list[tuple[int, str, int, int]]:
    """The rows of a stored signature (its JSON ``counts``) against ``reference``
    (:class:`MaterialRows`): one per (side, piece) whose count differs from the reference's
    (0 included), and each side's total (piece ``*``, written even when 0, so that every
    signature has rows: :func:`complete_material_rows` counts them)."""
    material = {(side, piece): count for side, piece, count in json.loads(counts)}
    totals = [0, 0]
    for (side, _), count in material.items():
        totals[side] += count
    rows = [(side, piece, count, signature_id) for (side, piece), count in material.items()
            if reference.get((side, piece)) != count]
    rows += [(side, piece, 0, signature_id) for (side, piece), count in reference.items()
             if count and (side, piece) not in material]
    rows += [(side, "*", total, signature_id) for side, total in enumerate(totals)]
    return rows


def new_material(connection: sqlite3.Connection, counts: str, layout: MaterialRows | None
                 ) -> tuple[int, MaterialRows, list[tuple[int, str, int, int]]]:
    """Store a new material (its signature's JSON ``counts``) in a database whose
    :class:`MaterialRows` are ``layout`` (``None``: it has no material yet, and this one
    becomes the reference), inside the writer's transaction: its id, the layout, and its
    rows, for the caller to insert."""
    signature_id = connection.execute("INSERT INTO material_signatures (counts) VALUES (?)",
                                      (counts,)).lastrowid or 0
    if layout is None:
        layout = start_reference(connection, counts)
    return signature_id, layout, material_count_rows(signature_id, counts, layout.reference)


def store_material(connection: sqlite3.Connection, counts: str) -> int:
    """Store a new material with its rows at once (:func:`new_material`; the writer gathers
    the rows), and give its id."""
    signature_id, layout, rows = new_material(connection, counts, material_rows(connection))
    create_count_table(connection, layout.table)
    _COUNT_ROWS[layout.table].insert(connection, list(chain.from_iterable(rows)))
    return signature_id


def complete_material_rows(connection: sqlite3.Connection) -> MaterialRows | None:
    """The database's :class:`MaterialRows` when every stored material has its rows there
    (else ``None``: a database indexed before ``material_pieces`` has none, and
    :func:`fill_material_rows` adds them). A database that also has the other layout's
    table, complete (an earlier release wrote to it), is answered from that one."""
    found = material_rows(connection)
    if found is None:
        return None
    layouts = [found]
    if found.table != "material_pieces" and has_table(connection, "material_pieces"):
        layouts.append(MaterialRows("material_pieces", {}))
    for layout in layouts:
        if has_table(connection, layout.table) and connection.execute(
                "SELECT (SELECT count(*) FROM material_signatures) = (SELECT count(*) FROM "
                f"{layout.table} WHERE side = 0 AND piece = '*')").fetchone()[0]:
            return layout
    return None


def fill_material_rows(connection: sqlite3.Connection) -> int:
    """Add the rows of the stored materials without them (:func:`material_rows`; the
    table too, when missing), and say how many materials got them. The caller commits."""
    found = material_rows(connection)
    if found is None:
        return 0  # no material stored: nothing to add
    create_count_table(connection, found.table)
    missing = connection.execute(
        "SELECT id, counts FROM material_signatures WHERE id NOT IN (SELECT signature_id "
        f"FROM {found.table} WHERE side = 0 AND piece = '*')").fetchall()
    rows = [row for id_, counts in missing
            for row in material_count_rows(id_, counts, found.reference)]
    rows.sort()  # in key order: the table grows at its end instead of all over
    connection.executemany(f"INSERT OR IGNORE INTO {found.table} VALUES (?, ?, ?, ?)", rows)
    return len(missing)


@dataclasses.dataclass(frozen=True)
class SignatureFilter:
    """The stored materials a pattern's material tests (and with ``squares`` its square
    tests' prefilter) accept: :meth:`query`, their ids in SQL over a database's
    :class:`MaterialRows`, and ``accepts``, the same test in Python, for a database whose
    rows are missing or incomplete (indexed before them)."""

    accepts: MaterialCheck
    pattern: Pattern
    squares: bool

    def query(self, rows: MaterialRows) -> tuple[str, tuple[Any, ...]]:
        """The query of the ids of the materials accepted, over ``rows``, and its
        parameters.

        A material without a row for a piece has the reference's count of it. A test the
        reference's count passes (with no reference, a count of 0: ``Ln<2``, ``FK=0``) is
        therefore "every material but those with a row that fails it", the others "those
        with a row that passes it"; every material has its sides' ``*`` rows. The tests'
        sets are intersected in SQL."""
        table, reference = rows.table, rows.reference
        selects: list[str] = []
        parameters: list[Any] = []
        for test in self.pattern.material:
            op = "=" if test.op == "==" else test.op
            held: dict[tuple[int, str], int] = {}
            if test.piece != "*":
                held = {(test.side, test.piece): reference.get((test.side, test.piece), 0)}
            if test.holds(held, [0, 0]):  # the reference's count passes it
                selects.append("SELECT id FROM material_signatures EXCEPT SELECT "
                               f"signature_id FROM {table} WHERE side = ? AND piece = ? "
                               f"AND NOT (count {op} ?)")
            else:
                selects.append(f"SELECT signature_id FROM {table} WHERE side = ? AND "
                               f"piece = ? AND count {op} ?")
            parameters.extend((test.side, test.piece, test.count))
        for square in self.pattern.squares if self.squares else ():
            if square.empty:
                continue
            # A piece of the side (of either side) and kind the square must hold.
            piece = "*" if square.piece is None else square.piece
            sides = []
            for side in (0, 1) if square.side is None else (square.side,):
                if piece != "*" and reference.get((side, piece), 0) >= 1:
                    sides.append("SELECT id FROM material_signatures EXCEPT SELECT "
                                 f"signature_id FROM {table} WHERE side = ? AND piece = ? "
                                 "AND count < 1")
                else:
                    sides.append(f"SELECT signature_id FROM {table} WHERE side = ? AND "
                                 "piece = ? AND count >= 1")
                parameters.extend((side, piece))
            selects.append(" UNION ".join(f"SELECT * FROM ({select})" for select in sides))
        if not selects:
            selects.append("SELECT id FROM material_signatures")
        return " INTERSECT ".join(f"SELECT * FROM ({select})" for select in selects), \
            tuple(parameters)


def signature_filter(pattern: Pattern, *, squares: bool) -> SignatureFilter:
    """The :class:`SignatureFilter` of ``pattern``'s material tests (``squares``: and of its
    square tests' prefilter, :meth:`~notation_tools.analysis.pattern.Pattern.may_hold`)."""
    return SignatureFilter(pattern.may_hold if squares else pattern.material_holds, pattern,
                           squares)


def wanted_signatures(connection: sqlite3.Connection, wanted: MaterialCheck | SignatureFilter,
                      known: dict[int, dict[tuple[int, str], int]] | None
                      ) -> tuple[str, tuple[Any, ...]]:
    """A query of the ids of the stored materials that ``wanted`` accepts and its
    parameters: over the materials' rows when ``wanted`` is a :class:`SignatureFilter` and
    they are complete (:func:`complete_material_rows`), else a JSON list of the ids the
    Python test accepts. ``known``: the materials read by an earlier call on this
    connection (id → material), kept up to date (a material's row never changes once
    written, so only the rows added since are read)."""
    if isinstance(wanted, SignatureFilter):
        rows = complete_material_rows(connection)
        if rows is not None:
            return wanted.query(rows)
        wanted = wanted.accepts
    known = {} if known is None else known
    for id_, counts in connection.execute("SELECT id, counts FROM material_signatures "
                                          "WHERE id > ?", (max(known, default=0),)):
        known[id_] = _stored_material(counts)
    return "SELECT value FROM json_each(?)", \
        (_json_list(id_ for id_, material in known.items() if wanted(material)),)


def _ply_range(plies: tuple[int | None, int | None]) -> tuple[int, int]:
    low, high = plies
    return 0 if low is None else low, (1 << 62) if high is None else high


def material_runs(connection: sqlite3.Connection, game: str,
                  wanted: MaterialCheck | SignatureFilter,
                  plies: tuple[int | None, int | None], *,
                  known: dict[int, dict[tuple[int, str], int]] | None = None
                  ) -> dict[int, list[tuple[int, int]]]:
    """Record id → the runs of main-line plies (first, last; within ``plies``, in order)
    where the record's material is one that ``wanted`` accepts, for the records of
    ``game`` in material-indexed inputs. ``known``: as :func:`material_first_plies`."""
    signatures, given = wanted_signatures(connection, wanted, known)
    low, high = _ply_range(plies)
    found: dict[int, list[tuple[int, int]]] = {}
    for record_id, first, last in connection.execute(
            "SELECT m.record_id, max(m.first_ply, ?), min(m.last_ply, ?) FROM position_material "
            "AS m JOIN records AS r ON r.id = m.record_id WHERE r.game = ? AND m.signature_id "
            f"IN ({signatures}) AND m.first_ply <= ? AND m.last_ply >= ? "
            "ORDER BY m.record_id, m.first_ply", (low, high, game, *given, high, low)):
        runs = found.get(record_id)
        if runs is None:
            found[record_id] = [(first, last)]
        else:
            runs.append((first, last))
    return found


def material_first_plies(connection: sqlite3.Connection, game: str,
                         wanted: MaterialCheck | SignatureFilter,
                         plies: tuple[int | None, int | None], *,
                         known: dict[int, dict[tuple[int, str], int]] | None = None
                         ) -> dict[int, int]:
    """Record id → the first main-line ply (within ``plies``) where the record's material is
    one that ``wanted`` accepts (the first ply of :func:`material_runs`, found in SQL: a
    pattern that half the archive matches costs no Python per run). ``known``: the materials
    read by an earlier call on this connection (id → material), kept up to date."""
    signatures, given = wanted_signatures(connection, wanted, known)
    low, high = _ply_range(plies)
    # Grouped by r.id: the records come in id order from records_game, so SQLite groups
    # them as they come instead of sorting every run first.
    return dict(connection.execute(
        "SELECT r.id, max(min(m.first_ply), ?) FROM records AS r JOIN position_material AS m "
        f"ON m.record_id = r.id WHERE r.game = ? AND m.signature_id IN ({signatures}) "
        "AND m.first_ply <= ? AND m.last_ply >= ? GROUP BY r.id",
        (low, game, *given, high, low)).fetchall())
