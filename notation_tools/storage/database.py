"""A results database: every record's results in SQLite, kept across runs.

``analyze --db FILE`` writes, for every input file, one row in ``inputs`` (its path, size and
content digest, whether it was analysed to the end), one row per record in ``records`` (where
it is, its game, effective rules, plies, result, end reason, verdict and the digest of its
replayed main line), its tags in ``tags``, its diagnostics in ``diagnostics`` and its
statistics in ``figures``. An input's rows are written in transactions and marked complete
only at its end, so an interrupted run leaves a database whose complete inputs are whole; the
next run analyses again every input that is new, changed (another digest) or incomplete, and
reads the others back from the database. ``report`` rebuilds the printed report from the
database alone.

Uses Python's ``sqlite3`` only. Does not print.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from notation_tools.version import __version__
from notation_tools.parallel.batch import RecordReport, Settings
from notation_tools.analysis.foreign import game_suffixes
from notation_tools.analysis.square_runs import SquarePositions
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.sources import encodable, input_files, input_size, split_member
from notation_tools.sources.streams import shown
from notation_tools.storage.busy_positions import forget_busy_moves, refresh_busy_moves
from notation_tools.storage.errors import DatabaseError as DatabaseError  # where it was
from notation_tools.storage.position_index import PositionStore, is_indexed
from notation_tools.storage.square_index import SquareStore, squares_indexed

SCHEMA_VERSION = 1
"""Bumped whenever a table or column changes meaning; another version is refused."""

SCHEMA = """
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE inputs (
    id        INTEGER PRIMARY KEY,
    path      TEXT NOT NULL UNIQUE,   -- as given on the command line or found by a walk
    size      INTEGER,                -- bytes; NULL for standard input
    digest    TEXT,                   -- BLAKE2b-128 of the content; NULL for standard input
    complete  INTEGER NOT NULL,       -- 1 once every record of the input is stored
    records   INTEGER NOT NULL DEFAULT 0,
    analyzed  TEXT NOT NULL,          -- when, UTC
    rules     TEXT                    -- the --game/--rules overrides of the run, if any
);
CREATE TABLE records (
    id              INTEGER PRIMARY KEY,
    input_id        INTEGER NOT NULL REFERENCES inputs(id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL, -- order within the input, from 1
    source          TEXT NOT NULL,    -- the path diagnostics print: file or archive:member
    member          TEXT,             -- the archive member, NULL for a plain file
    record_index    INTEGER NOT NULL, -- 1-based index within its file or member
    line            INTEGER NOT NULL,
    byte_offset     INTEGER,          -- in the file or member after decompression; NULL unknown
    game            TEXT,
    rules           TEXT,             -- the effective rules, canonical
    plies           INTEGER NOT NULL,
    result          TEXT,
    end_reason      TEXT,             -- NULL while the game is unfinished
    valid           INTEGER NOT NULL,
    errors          INTEGER NOT NULL,
    warnings        INTEGER NOT NULL,
    movetext_digest TEXT,             -- the replayed main line's identity (select --dedupe's)
    tags_json       TEXT NOT NULL,    -- [[name, value], ...] in the record's order
    figures_json    TEXT NOT NULL     -- {name: value, ...}: the game's statistics
);
CREATE INDEX records_input ON records(input_id, seq);
CREATE INDEX records_game ON records(game);
CREATE INDEX records_digest ON records(movetext_digest);
CREATE TABLE diagnostics (
    input_id  INTEGER NOT NULL REFERENCES inputs(id) ON DELETE CASCADE,
    record_id INTEGER REFERENCES records(id) ON DELETE CASCADE, -- NULL: the input's own fault
    seq       INTEGER NOT NULL,       -- order within the input
    code      TEXT NOT NULL,
    severity  TEXT NOT NULL,
    path      TEXT NOT NULL,
    line      INTEGER NOT NULL,
    col       INTEGER NOT NULL,
    ply       INTEGER,
    number    INTEGER,
    side      TEXT,
    move      TEXT,
    message   TEXT NOT NULL,
    rule      TEXT,
    record_index INTEGER
);
CREATE INDEX diagnostics_code ON diagnostics(code);
CREATE INDEX diagnostics_record ON diagnostics(record_id);
CREATE INDEX diagnostics_input ON diagnostics(input_id, seq);
-- A record's tags and figures are stored with it, as JSON, and read as the long tables
-- tags(record_id, position, name, value) and figures(record_id, name, value, kind): one
-- write per record instead of one per figure keeps the database's cost small.
CREATE VIEW tags AS
    SELECT records.id AS record_id, CAST(j.key AS INTEGER) AS position,
           json_extract(j.value, '$[0]') AS name, json_extract(j.value, '$[1]') AS value
    FROM records, json_each(records.tags_json) AS j;
CREATE VIEW figures AS
    SELECT records.id AS record_id, j.key AS name, j.value AS value,
           CASE j.type WHEN 'integer' THEN 'int' WHEN 'real' THEN 'float'
                       WHEN 'true' THEN 'bool' WHEN 'false' THEN 'bool' ELSE 'text' END AS kind
    FROM records, json_each(records.figures_json) AS j;
"""

OPENINGS_SCHEMA = """
CREATE TABLE IF NOT EXISTS openings (
    record_id INTEGER PRIMARY KEY REFERENCES records(id) ON DELETE CASCADE,
    name      TEXT NOT NULL           -- the deepest catalogue line the main line begins with
);
"""
"""Added after version 1 was released, and additive: a version-1 database without the table
gets it when it is opened (an older notation-tools ignores it), so the version stays 1."""

RUN_FAULTS = frozenset({"E-WORKER", "E-INTERNAL"})
"""The codes of an input's diagnostics that are faults of the run, not of the input (a
worker process died on a batch of its records): such an input is stored incomplete."""

_COMMIT_EVERY = 2000
"""Records per transaction inside one input: bounds the journal of a huge archive."""


def digest_file(path: str) -> str:
    """The BLAKE2b-128 digest of a file's content (read in blocks)."""
    digest = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as stream:
        while block := stream.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def _figures_json(figures: dict[str, Any]) -> str:
    """A record's figures as JSON; a value JSON cannot hold (NaN, infinity, an object) is
    stored as its text, so SQLite's JSON functions can always read the column."""
    clean = {name: (value if isinstance(value, (bool, int, str)) or value is None
                    or (isinstance(value, float) and math.isfinite(value)) else str(value))
             for name, value in figures.items()}
    return json.dumps(clean, ensure_ascii=False)


def _storable(*values: Any) -> tuple[Any, ...]:
    """A row's values as SQLite can store them: texts with what UTF-8 cannot encode (a lone
    surrogate from a JSON record's tag) escaped (:func:`notation_tools.sources.encodable`); in a
    JSON column the escape reads back as the same character."""
    return tuple(encodable(value) if isinstance(value, str) else value for value in values)


def _text(value: bytes) -> str:
    return value.decode("utf-8", "replace")


_FAULTS = (sqlite3.Error, UnicodeDecodeError)
"""What a damaged file raises: SQLite's errors, and a decoding error where SQLite's message
about it quotes bytes that are not UTF-8 (Python's sqlite3 decodes messages strictly)."""


class ResultsDatabase:
    """One SQLite results database (created when missing).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "results.sqlite")
    >>> with ResultsDatabase(path) as db:
    ...     db.schema_version()
    1
    """

    def __init__(self, path: str) -> None:
        self.path = path
        try:
            self.connection = sqlite3.connect(path, isolation_level=None)
            # Text this program stores is UTF-8 (what UTF-8 cannot encode is stored escaped);
            # text that is not (a file edited by hand) reads with U+FFFD where it breaks.
            self.connection.text_factory = _text
            self.connection.execute("PRAGMA foreign_keys = ON")
            self._check_or_create()
            self.positions = PositionStore(self.connection)
            self.squares = SquareStore(self.connection)
        except _FAULTS as error:
            raise DatabaseError(self._message(error)) from None

    def _message(self, error: BaseException) -> str:
        if isinstance(error, UnicodeDecodeError):
            return (f"{self.path} is not a readable SQLite results database (damaged: what "
                    "SQLite says of it is not UTF-8)")
        text = str(error)
        if "file is not a database" in text or "malformed" in text:
            return f"{self.path} is not an SQLite results database ({text})"
        if "disk is full" in text:
            # The staged index rows and SQLite's sorts go to its temporary directory, which
            # is often smaller than the results file's disk.
            return (f"{self.path}: {text} (the results file's disk, or SQLite's temporary "
                    "directory: set SQLITE_TMPDIR to a directory with more room)")
        return f"{self.path}: {text}"

    def _check_or_create(self) -> None:
        tables = {row[0] for row in self.connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            # One script, one transaction: a database is created whole or not at all.
            self.connection.executescript(
                "BEGIN;\n" + SCHEMA + OPENINGS_SCHEMA
                + "\nINSERT INTO meta VALUES ('schema_version', '"
                f"{SCHEMA_VERSION}');\nINSERT INTO meta VALUES ('created_by', "
                f"'notation-tools {__version__}');\nCOMMIT;")
            return
        if "meta" not in tables:
            raise DatabaseError(f"{self.path} is an SQLite database but not a notation-tools "
                                "results database (it has no meta table)")
        version = self.schema_version()
        if version != SCHEMA_VERSION:
            which = f"results schema version {version}" if version is not None else \
                "no readable results schema version"
            raise DatabaseError(f"{self.path} has {which}; this notation-tools "
                                f"({__version__}) reads version {SCHEMA_VERSION}: analyze into "
                                "a new file")
        if "openings" not in tables:
            self.connection.executescript("BEGIN;\n" + OPENINGS_SCHEMA + "COMMIT;")

    def schema_version(self) -> int | None:
        rows = self._query("SELECT value FROM meta WHERE key = 'schema_version'")
        try:
            return int(rows[0][0]) if rows else None
        except (ValueError, TypeError):
            return None

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        self.connection.execute("BEGIN")
        try:
            yield
        except BaseException:
            self.connection.execute("ROLLBACK")
            raise
        self.connection.execute("COMMIT")

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> ResultsDatabase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- inputs ---------------------------------------------------------------------------

    def _query(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[Any]:
        """Rows of a query; a damaged database is a :class:`DatabaseError`."""
        try:
            return self.connection.execute(sql, parameters).fetchall()
        except _FAULTS as error:
            raise DatabaseError(self._message(error)) from None

    def is_current(self, path: str, digest: str | None, overrides: str | None = None) -> bool:
        """Whether ``path`` is stored complete with this content digest, analysed with the
        same --game/--rules overrides."""
        if digest is None:
            return False
        rows = self._query("SELECT digest, complete, rules FROM inputs WHERE path = ?",
                           (path,))
        row = rows[0] if rows else None
        return row is not None and row[0] == digest and row[1] == 1 and row[2] == overrides

    def store(self, path: str, size: int | None, digest: str | None, overrides: str | None,
              items: Iterable[RecordReport | Diagnostic], *,
              index: str | None = None) -> Iterator[RecordReport | Diagnostic]:
        """Replace what is stored of ``path`` with ``items`` (passed through as they are
        stored); the input is marked complete once ``items`` is exhausted, unless the run
        lost some of its records (:data:`RUN_FAULTS`), and indexed when ``index`` (the run's
        ``--index``) was asked."""
        try:
            with self._transaction():
                self.positions.forget(path)
                self.squares.forget(path)
                forget_busy_moves(self.connection)
                self.connection.execute("DELETE FROM inputs WHERE path = ?", (path,))
                inserted = self.connection.execute(
                    "INSERT INTO inputs (path, size, digest, complete, analyzed, rules) "
                    "VALUES (?, ?, ?, 0, datetime('now'), ?)",
                    _storable(path, size, digest, overrides)).lastrowid
                assert inserted is not None  # an INSERT that succeeded gives its row's id
                input_id = inserted
        except _FAULTS as error:
            raise DatabaseError(self._message(error)) from None
        seq = records = 0
        pending = 0
        lost = False
        self.connection.execute("BEGIN")
        try:
            for item in items:
                seq += 1
                if isinstance(item, Diagnostic):
                    self._insert_diagnostic(input_id, None, seq, item)
                    lost = lost or item.code in RUN_FAULTS
                else:
                    records += 1
                    self._insert_record(input_id, seq, path, item)
                pending += 1
                if pending >= _COMMIT_EVERY:
                    self.positions.flush()
                    self.connection.execute("COMMIT")
                    self.connection.execute("BEGIN")
                    pending = 0
                yield item
            # Records this run lost (a worker died on them) are reported, but the input is not
            # complete: the next run analyses it again rather than keep the loss.
            self.connection.execute("UPDATE inputs SET complete = ?, records = ? WHERE id = ?",
                                    (0 if lost else 1, records, input_id))
            if index is not None:
                self.positions.complete(input_id, index == "variations")
                if index == "squares":
                    self.squares.complete(input_id)
            self.positions.flush()
            self.connection.execute("COMMIT")
        except sqlite3.DatabaseError as error:
            self._rollback()
            raise DatabaseError(self._message(error)) from None
        except BaseException:
            # Interrupted (Ctrl-C, a fault upstream): what was committed stays, marked
            # incomplete, and the next run analyses this input again.
            self._rollback()
            raise

    def refresh_busy_moves(self) -> None:
        """The end of a run: write again the move texts of the busiest positions when the
        index changed (:func:`~notation_tools.storage.busy_positions.refresh_busy_moves`)."""
        try:
            refresh_busy_moves(self.connection)
        except _FAULTS as error:
            raise DatabaseError(self._message(error)) from None

    def _rollback(self) -> None:
        self.positions.discard()  # the rows it gathered were the transaction's
        with contextlib.suppress(sqlite3.Error):
            self.connection.execute("ROLLBACK")

    def _insert_record(self, input_id: int, seq: int, path: str, item: RecordReport) -> None:
        member = item.path[len(path) + 1:] if item.path.startswith(path + ":") else None
        errors = sum(1 for d in item.diagnostics if d.is_error)
        record_id = self.connection.execute(
            "INSERT INTO records (input_id, seq, source, member, record_index, line, "
            "byte_offset, game, rules, plies, result, end_reason, valid, errors, warnings, "
            "movetext_digest, tags_json, figures_json) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            _storable(input_id, seq, item.path, member, item.index, item.line,
                      item.offset if item.offset >= 0 else None, item.game, item.rules,
                      item.plies, item.result, item.end, int(item.is_valid), errors,
                      len(item.diagnostics) - errors, item.digest,
                      json.dumps(item.tags or [], ensure_ascii=False),
                      _figures_json(item.figures))).lastrowid
        for number, diagnostic in enumerate(item.diagnostics):
            self._insert_diagnostic(input_id, record_id, number, diagnostic)
        if item.opening is not None:
            self.connection.execute("INSERT INTO openings VALUES (?, ?)",
                                    _storable(record_id, item.opening))
        if item.positions is not None and record_id is not None:
            self.positions.add(input_id, record_id, item.positions)
            if isinstance(item.positions, SquarePositions) and item.positions.squares is not None:
                self.squares.add(record_id, item.positions.squares)

    def _insert_diagnostic(self, input_id: int, record_id: int | None, seq: int,
                           d: Diagnostic) -> None:
        self.connection.execute(
            "INSERT INTO diagnostics (input_id, record_id, seq, code, severity, path, line, "
            "col, ply, number, side, move, message, rule, record_index) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            _storable(input_id, record_id, seq, d.code, d.severity, d.path, d.line, d.column,
                      d.ply, d.number, d.side, d.move, d.message, d.rule, d.record))

    # ---- reading back ---------------------------------------------------------------------

    def inputs(self) -> list[tuple[str, bool]]:
        """Every stored input and whether it is complete, in the order first stored."""
        return [(row[0], bool(row[1])) for row in self._query(
            "SELECT path, complete FROM inputs ORDER BY id")]

    def reports(self, paths: Iterable[str] | None = None) -> Iterator[RecordReport | Diagnostic]:
        """The stored reports of the complete inputs (of ``paths``, in that order; else of
        all, in the order stored), as analyze gave them.

        The rows are read as untrusted input (a database can be edited by hand): a row whose
        value is not of its column's kind becomes one ``E-IO`` diagnostic naming the table,
        row and column, in place of the record it held, and the report goes on."""
        if paths is None:
            ids = [row[0] for row in self._query(
                "SELECT id FROM inputs WHERE complete = 1 ORDER BY id")]
        else:
            ids = []
            for path in paths:
                ids += [row[0] for row in self._query(
                    "SELECT id FROM inputs WHERE path = ? AND complete = 1", (path,))]
        for input_id in ids:
            try:
                yield from self._reports_of(input_id)
            except _FAULTS as error:
                # a damaged file (a missing table or column): a clear error, not a wrong report
                raise DatabaseError(f"{self.path}: a stored result cannot be read "
                                    f"({type(error).__name__}: {error}); analyze into a new "
                                    "file") from None

    def _reports_of(self, input_id: int) -> Iterator[RecordReport | Diagnostic]:
        own: dict[int, Diagnostic] = {}
        for row in self.connection.execute(
                "SELECT rowid, seq, code, severity, path, line, col, ply, number, side, move, "
                "message, rule, record_index FROM diagnostics "
                "WHERE input_id = ? AND record_id IS NULL", (input_id,)):
            try:
                seq = _checked(row[1], int, "seq")
                own[seq] = self._diagnostic(row[2:])
            except _BadValue as bad:
                own[seq if isinstance(row[1], int) else -row[0]] = self._bad_row(
                    "diagnostics", row[0], bad)
        records = self.connection.execute(
            "SELECT id, seq, source, record_index, line, game, rules, plies, result, "
            "end_reason, byte_offset, movetext_digest, tags_json, figures_json, "
            "(SELECT name FROM openings WHERE record_id = records.id) FROM records "
            "WHERE input_id = ? ORDER BY seq", (input_id,)).fetchall()
        pending = sorted(own)  # the input's own diagnostics, by their place among records
        for row in records:
            record_id, seq = row[0], row[1]
            while pending and isinstance(seq, int) and pending[0] < seq:
                yield own.pop(pending.pop(0))
            try:
                yield self._record(row)
            except _BadValue as bad:
                yield self._bad_row(bad.table or "records", record_id, bad)
        for seq in pending:
            yield own[seq]

    def _record(self, row: tuple[Any, ...]) -> RecordReport:
        (record_id, seq, source, index, line, game, rules, plies, result, end, offset,
         digest, tags_json, figures_json, opening) = row
        _checked(seq, int, "seq")
        diagnostics = []
        for diagnostic_row in self.connection.execute(
                "SELECT rowid, code, severity, path, line, col, ply, number, side, move, "
                "message, rule, record_index FROM diagnostics WHERE record_id = ? ORDER BY seq",
                (record_id,)):
            try:
                diagnostics.append(self._diagnostic(diagnostic_row[1:]))
            except _BadValue as bad:
                raise _BadValue(bad.column, bad.value, bad.wanted, "diagnostics",
                                diagnostic_row[0]) from None
        plies = _checked(plies, int, "plies")
        if plies < 0:
            raise _BadValue("plies", plies, "a count")
        figures = _json(figures_json, "figures_json")
        if not isinstance(figures, dict) or not all(
                isinstance(value, (bool, int, str)) or value is None
                or (isinstance(value, float) and math.isfinite(value))
                for value in figures.values()):
            raise _BadValue("figures_json", figures_json, "a JSON object of numbers and texts")
        tags = _json(tags_json, "tags_json")
        if not isinstance(tags, list) or not all(
                isinstance(pair, list) and len(pair) == 2
                and all(isinstance(part, str) for part in pair) for pair in tags):
            raise _BadValue("tags_json", tags_json, "a JSON list of [name, value] pairs")
        offset = _checked(offset, int, "byte_offset", optional=True)
        return RecordReport(
            _checked(source, str, "source"), _checked(index, int, "record_index"),
            _checked(line, int, "line"), _checked(game, str, "game", optional=True),
            _checked(rules, str, "rules", optional=True), plies,
            _checked(result, str, "result", optional=True),
            _checked(end, str, "end_reason", optional=True), diagnostics, figures,
            offset=offset if offset is not None else -1,
            digest=_checked(digest, str, "movetext_digest", optional=True),
            tags=[(name, value) for name, value in tags],
            opening=_checked(opening, str, "openings.name", optional=True))

    def _bad_row(self, table: str, row_id: Any, bad: _BadValue) -> Diagnostic:
        where = bad.row if bad.row is not None else row_id
        return Diagnostic("E-IO", f"{table} row {where}: column {bad.column} holds "
                          f"{str(bad.value)[:40]!r}, not {bad.wanted}: the row is left out of "
                          "the report (was the database edited?)", shown(self.path), 0, 0)

    @staticmethod
    def _diagnostic(row: tuple[Any, ...]) -> Diagnostic:
        code, severity, path, line, column, ply, number, side, move, message, rule, index = row
        if severity not in ("error", "warning", "note"):
            raise _BadValue("severity", severity, "error, warning or note")
        return Diagnostic(
            _checked(code, str, "code"), _checked(message, str, "message"),
            _checked(path, str, "path"), _checked(line, int, "line"),
            _checked(column, int, "col"), severity=severity,
            ply=_checked(ply, int, "ply", optional=True),
            number=_checked(number, int, "number", optional=True),
            side=_checked(side, str, "side", optional=True),
            move=_checked(move, str, "move", optional=True),
            rule=_checked(rule, str, "rule", optional=True),
            record=_checked(index, int, "record_index", optional=True))


class _BadValue(Exception):
    """A stored value that is not of its column's kind."""

    def __init__(self, column: str, value: Any, wanted: str, table: str | None = None,
                 row: Any = None) -> None:
        super().__init__(column)
        self.column, self.value, self.wanted, self.table, self.row = (column, value, wanted,
                                                                      table, row)


_KINDS = {int: "a whole number", str: "a text"}


def _checked(value: Any, kind: type, column: str, *, optional: bool = False) -> Any:
    """``value`` when it is of ``kind`` (or NULL, when ``optional``); else :class:`_BadValue`."""
    if (value is None and optional) or (isinstance(value, kind)
                                        and not isinstance(value, bool)):
        return value
    raise _BadValue(column, value, _KINDS[kind] + (" or NULL" if optional else ""))


def _json(text: Any, column: str) -> Any:
    if not isinstance(text, str):
        raise _BadValue(column, text, "JSON text")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise _BadValue(column, text, "JSON text") from None


def _belongs(item_path: str, path: str) -> bool:
    """Whether a report's path (a file, ``archive:member``) comes from input ``path``."""
    return (item_path == path or item_path.startswith(path + ":")
            or (split_member(path) is not None and item_path.startswith(path + "/")))


def analyze_into(database: ResultsDatabase, paths: list[str], settings: Settings, *,
                 analyze: Callable[[list[str]], Iterator[RecordReport | Diagnostic]],
                 overrides: str | None = None) -> Iterator[RecordReport | Diagnostic]:
    """Every report of ``paths``, in input order, with the database kept up to date.

    Inputs are the files a walk of ``paths`` finds (an archive is one input). An input stored
    complete with the same content digest and the same ``overrides`` (the run's --game and
    --rules) is read back from the database; every other one is given to ``analyze`` (one
    call for all of them, so a process pool or a cluster serves them all) and stored as its
    reports arrive. A directory that cannot be read is reported first (it is no input, so it
    is not stored).
    """
    walk_problems: list[Diagnostic] = []
    files = input_files(paths, game_suffixes, walk_problems)
    yield from walk_problems
    # An input is stored under its path as reports show it (a file name's bytes that are not
    # UTF-8 escaped, :func:`notation_tools.sources.shown`): the reports' own paths are so.
    plan: list[tuple[str, str, int | None, str | None, bool]] = []
    for path in files:
        digest = None
        if path != "-" and os.path.isfile(path):
            try:
                digest = digest_file(path)
            except OSError:
                digest = None  # the analysis reports why it cannot be read
        key = shown(path)
        current = digest is not None and database.is_current(key, digest, overrides) and (
            settings.index is None or is_indexed(database.connection, key,
                                                 settings.index == "variations")) and (
            settings.index != "squares" or squares_indexed(database.connection, key))
        plan.append((path, key, input_size(path), digest, current))
    todo = [path for path, _, _, _, current in plan if not current]
    items = _Peekable(analyze(todo) if todo else iter(()))
    for path, key, size, digest, current in plan:
        if current:
            yield from database.reports([key])
            continue

        def of_input(key: str = key) -> Iterator[RecordReport | Diagnostic]:
            while items.peek() is not None and _belongs(items.peek().path, key):
                yield items.next()

        yield from database.store(key, size, digest, overrides, of_input(),
                                  index=settings.index)
    yield from items  # nothing is expected here; never drop a report
    database.refresh_busy_moves()


class _Peekable:
    def __init__(self, iterator: Iterator[Any]) -> None:
        self.iterator = iterator
        self.head: Any = None
        self.has_head = False

    def peek(self) -> Any:
        if not self.has_head:
            self.head = next(self.iterator, None)
            self.has_head = True
        return self.head

    def next(self) -> Any:
        value = self.peek()
        self.has_head = False
        return value

    def __iter__(self) -> Iterator[Any]:
        while (value := self.next()) is not None:
            yield value
