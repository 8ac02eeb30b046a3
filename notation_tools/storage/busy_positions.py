"""The move texts of the busiest positions of a position index, kept by ``analyze``
(docs/database.md, "A position with thousands of move texts").

At a position the records left by thousands of different move texts (Game of War's start:
tens of thousands of first turns in 100,000 records), ``explore`` chooses the moves to list
from each text's records and the position it leads to (:func:`move_texts`), which costs a
pass over the position's rows, each joined to the row after it. ``analyze`` writes those
counts at the end of a run into ``busy_moves`` for every such position, and the explorer
reads them there instead.

The table is right for the index as it was when it was written: ``busy_state`` holds a
stamp of the stored inputs (their ids, paths, content digests, overrides, completeness,
record counts and how they are indexed) and of the last record id, and the explorer uses the
table only while the database still has that stamp; the writer also clears the stamp
whenever it stores an input again (:meth:`ResultsDatabase.store`, in the transaction that
removes the input's rows), and the run's end writes the table again. A database without the
table (indexed before it), or whose stamp is gone or no longer matches (a run that did not
finish, another program's change), is answered by the pass, with the same answers.

Uses Python's ``sqlite3`` only. Does not print.
"""

from __future__ import annotations

import hashlib
import sqlite3

from notation_tools.storage.position_index import (has_index_tables, next_keys,
                                                    move_text_count, move_texts_by_game)

MANY_TEXTS = 2000
"""Above this many move texts at a position, ``explore`` with a limit chooses the moves to
list from the texts' counts (:func:`~notation_tools.analysis.explore.choose_listed`) before
reading any in full, and ``analyze`` keeps those counts in ``busy_moves``: a pass over the
position's records costs less than reading every text only when there are thousands (Game
of War's first turns: 56,652 texts for 100,000 records; Maka-Dai-Dai's first moves: 75)."""

ROWS_LAYOUT = "one row per text, under its least id"
"""How ``busy_moves`` holds the texts, part of :func:`index_stamp`: releases before texts
could be stored under several ids kept a row per id, and asked for only the ids listed. A
table written by one is not read by the other (its stamp does not match), and the explorer
makes the pass instead, with the same answers."""

BUSY_SCHEMA = """
CREATE TABLE IF NOT EXISTS busy_moves (
    key     INTEGER NOT NULL,  -- a position with more than MANY_TEXTS move texts (main lines)
    game    TEXT NOT NULL,     -- records(game) of the records that played the text
    move_id INTEGER NOT NULL,  -- position_moves(id)
    records INTEGER NOT NULL,  -- the records of the game that played it from the position
    child   INTEGER,           -- the key after it when all of them went on to one position
    PRIMARY KEY (key, game, move_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS busy_state (
    stamp TEXT NOT NULL  -- index_stamp() when busy_moves was written (no row: not written)
);
"""


def index_stamp(connection: sqlite3.Connection) -> str:
    """What the position index holds, in short: a digest of every stored input's id, path,
    content digest, overrides, completeness, record count and index mode, the last record
    id, :data:`MANY_TEXTS` and :data:`ROWS_LAYOUT` (texts read as hexadecimal: a
    hand-edited text that is not UTF-8 reads too)."""
    rows = connection.execute(
        "SELECT i.id, hex(i.path), hex(i.digest), i.complete, hex(i.rules), i.records, "
        "p.variations FROM inputs AS i LEFT JOIN position_inputs AS p ON p.input_id = i.id "
        "ORDER BY i.id").fetchall()
    last = connection.execute("SELECT max(id) FROM records").fetchone()[0]
    return hashlib.blake2b(repr((ROWS_LAYOUT, MANY_TEXTS, last, rows)).encode("ascii"),
                           digest_size=16).hexdigest()


def _has_busy_tables(connection: sqlite3.Connection) -> bool:
    return bool(connection.execute(
        "SELECT count(*) = 2 FROM sqlite_master WHERE type = 'table' AND "
        "name IN ('busy_moves', 'busy_state')").fetchone()[0])


def forget_busy_moves(connection: sqlite3.Connection) -> None:
    """The index is about to change: ``busy_moves`` is no longer right (inside the caller's
    transaction)."""
    if _has_busy_tables(connection):
        connection.execute("DELETE FROM busy_state")


def refresh_busy_moves(connection: sqlite3.Connection) -> bool:
    """Write ``busy_moves`` again when the index changed since it was written (or it never
    was), in one transaction of its own; whether it was written. A database without the
    index, or indexed before the keys after each move were kept (``record_keys``, or an
    earlier release's ``positions_line``), gets nothing (the explorer reads as before).
    Finding the busy positions is one pass over ``positions`` in key order (a position's
    rows lie together), then :func:`move_texts_by_game` for each."""
    if not has_index_tables(connection) or next_keys(connection) is None:
        return False
    stamp = index_stamp(connection)
    if _has_busy_tables(connection) and connection.execute(
            "SELECT 1 FROM busy_state WHERE stamp = ?", (stamp,)).fetchall():
        return False
    connection.execute("BEGIN")
    try:
        for statement in BUSY_SCHEMA.split(";"):
            if statement.strip():
                connection.execute(statement)
        connection.execute("DELETE FROM busy_state")
        connection.execute("DELETE FROM busy_moves")
        # More rows than MANY_TEXTS is needed for more texts: only those are counted.
        crowded = [key for (key,) in connection.execute(
            "SELECT key FROM positions WHERE line = 0 GROUP BY key HAVING count(*) > ?",
            (MANY_TEXTS,))]
        for key in crowded:
            if move_text_count(connection, key) > MANY_TEXTS:
                connection.executemany(
                    "INSERT INTO busy_moves VALUES (?, ?, ?, ?, ?)",
                    ((key, game, move_id, games, child)
                     for game, move_id, games, child in move_texts_by_game(connection, key)))
        connection.execute("INSERT INTO busy_state VALUES (?)", (stamp,))
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")
    return True


def busy_moves_current(connection: sqlite3.Connection) -> bool:
    """Whether the database holds ``busy_moves`` written for its index as it is now."""
    if not _has_busy_tables(connection):
        return False
    stored = connection.execute("SELECT stamp FROM busy_state").fetchall()
    return len(stored) == 1 and stored[0][0] == index_stamp(connection)


def busy_moves(connection: sqlite3.Connection, key: int, game: str
               ) -> list[tuple[int, int, int | None]]:
    """:func:`~notation_tools.storage.position_index.move_texts` of position ``key`` as
    ``analyze`` kept it: the same rows when the position has more than :data:`MANY_TEXTS`
    texts, ``[]`` when it has fewer; only when :func:`busy_moves_current` (else ask
    :func:`move_texts`)."""
    return connection.execute(
        "SELECT move_id, records, child FROM busy_moves WHERE key = ? AND game = ?",
        (key, game)).fetchall()
