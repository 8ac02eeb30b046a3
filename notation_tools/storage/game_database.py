"""``notation_tools.Database``: a results database read as a game database (docs/api.md).

A plain class over one ``sqlite3`` connection to a database that ``analyze --db FILE --index
positions`` wrote: :meth:`Database.search` lists the records that reach a position,
:meth:`Database.explore` what was played from it, :meth:`Database.pattern` the records where
a pattern of squares and material holds. Every answer is a list of plain dicts (one per
record or move), so ``pandas.DataFrame(answer)`` takes it as it is.

Uses Python's ``sqlite3`` only. Does not print.
"""

from __future__ import annotations

import functools
import json
import operator
import os
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from notation_tools.analysis.explore import (PositionError, choose_listed, merge_moves, reach,
                                             split_moves)
from notation_tools.analysis.pattern import Pattern, PatternVisitor, parse_pattern
from notation_tools.games.base import EngineError, Game, Position, get_game
from notation_tools.records.model import Record
from notation_tools.storage import busy_positions
from notation_tools.storage.errors import DatabaseError
from notation_tools.storage.position_index import (complete_material_rows, count_reaching,
                                                    fill_material_rows, has_index_tables,
                                                    index_coverage, material_first_plies,
                                                    material_indexed_inputs, material_runs,
                                                    move_spellings, move_text_count,
                                                    move_texts,
                                                    next_moves, records_reaching,
                                                    signature_filter, wanted_signatures)
from notation_tools.storage.square_index import square_first_plies, square_indexed_inputs


MMAP_BYTES = 1 << 34
"""How much of the database file a query may read through a memory map (all of any file
this size or smaller; SQLite maps no more than the file holds)."""


class Database:
    """A results database, opened read-only (but for one write: a database indexed before
    its materials' counts were kept by piece gets them at its first pattern search, when
    the file may be written; docs/database.md).

    >>> import os, tempfile
    >>> from notation_tools.storage.database import ResultsDatabase
    >>> path = os.path.join(tempfile.mkdtemp(), "empty.sqlite")
    >>> ResultsDatabase(path).close()
    >>> Database(path).games()
    []
    """

    def __init__(self, path: str) -> None:
        self.path = path
        if not os.path.isfile(path):
            raise DatabaseError(f"{path}: no such database")
        try:
            self.connection = sqlite3.connect(f"file:{_quoted(path)}?mode=ro", uri=True)
            tables = {row[0] for row in self.connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as error:
            raise DatabaseError(f"{path} is not an SQLite results database ({error})") from None
        if "records" not in tables or "meta" not in tables:
            raise DatabaseError(f"{path} is not a notation-tools results database")
        # Read through a memory map: a query at the start position visits every record's
        # row, and copying each page into SQLite's own cache costs more than the query.
        self.connection.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
        self._materials: dict[int, dict[tuple[int, str], int]] = {}
        """The position index's materials read so far, where their rows by piece cannot
        answer (pattern search reads each once)."""
        self._rows_checked = False
        self._busy_checked: tuple[int, bool] | None = None
        """(``PRAGMA data_version`` when the kept move texts were checked, whether they
        were right then): checked again only after another connection wrote."""

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- what the database holds ----------------------------------------------------------

    def games(self) -> list[str]:
        """The ids of the games the database holds records of."""
        return [row[0] for row in self.connection.execute(
            "SELECT DISTINCT game FROM records WHERE game IS NOT NULL ORDER BY game")]

    def coverage(self) -> tuple[int, int]:
        """(inputs in the position index, inputs stored)."""
        return index_coverage(self.connection)

    def game(self, name: str | None = None) -> Game[Any, Any]:
        """The game ``name`` (id or alias), or the one game the database holds."""
        if name is not None:
            return get_game(name)
        held = self.games()
        if len(held) != 1:
            raise PositionError("the database holds records of "
                                + (", ".join(held) if held else "no game")
                                + ": say which game")
        return get_game(held[0])

    def position(self, fen: str | None = None, *, moves: str | Sequence[str] = (),
                 game: str | None = None, rules: str | None = None
                 ) -> tuple[Game[Any, Any], Position[Any]]:
        """The game and the position of ``fen`` (default: the start) after ``moves``."""
        chosen = self.game(game)
        try:
            parsed_rules = chosen.parse_rules(rules)
        except EngineError as error:
            raise PositionError(f"rules: {error}") from None
        texts = split_moves(moves) if isinstance(moves, str) else list(moves)
        return chosen, reach(chosen, parsed_rules, fen=fen, moves=texts)

    def require_index(self) -> None:
        if not has_index_tables(self.connection):
            raise DatabaseError(f"{self.path} has no position index: analyze into it with "
                                "--index positions")

    # ---- queries --------------------------------------------------------------------------

    def search(self, fen: str | None = None, *, moves: str | Sequence[str] = (),
               game: str | None = None, rules: str | None = None,
               variations: bool = False, limit: int | None = None) -> list[dict[str, Any]]:
        """The records that reach the position (by any move order), one dict each: path,
        record (index in its file), ply (first reached), line (0: the main line), result,
        game and tags (a dict); the first ``limit`` of them (``None``: all), in database
        order (:meth:`count` says how many there are)."""
        self.require_index()
        chosen, position = self.position(fen, moves=moves, game=game, rules=rules)
        rows = records_reaching(self.connection, chosen.position_key(position), chosen.id,
                                variations=variations, limit=limit)
        return [{"path": source, "record": index, "ply": ply, "line": line, "result": result,
                 "game": game_id, "tags": dict(json.loads(tags)), "id": record_id}
                for record_id, source, index, ply, line, result, tags, game_id in rows]

    def count(self, fen: str | None = None, *, moves: str | Sequence[str] = (),
              game: str | None = None, rules: str | None = None,
              variations: bool = False) -> int:
        """How many records :meth:`search` finds, without reading them."""
        self.require_index()
        chosen, position = self.position(fen, moves=moves, game=game, rules=rules)
        return count_reaching(self.connection, chosen.position_key(position), chosen.id,
                              variations=variations)

    def explore(self, fen: str | None = None, *, moves: str | Sequence[str] = (),
                game: str | None = None, rules: str | None = None,
                fens: bool = True, limit: int | None = None) -> dict[str, Any]:
        """What the archive played from the position: ``moves``, one dict per move (most
        played first, then by name) with ``games``, ``wins`` (per side), ``draws``,
        ``unfinished``, ``average_plies`` (final length), ``first_date``, ``last_date``,
        ``example`` (path and record of one record), ``spellings`` (the move's texts in the
        records, the first played here first), ``key`` and ``fen`` after it
        (``fens=False``: no ``fen``, which a game with many moves here takes long to
        write); the first ``limit`` moves (``None``: all) and in ``rest`` how many
        ``moves`` were left out and their ``games``; and the position's own ``fen``,
        ``key``, ``game`` and ``games`` (records that reach it)."""
        self.require_index()
        chosen, position = self.position(fen, moves=moves, game=game, rules=rules)
        return self.explore_position(chosen, position, fens=fens, limit=limit)

    def explore_position(self, game: Game[Any, Any], position: Position[Any], *,
                         fens: bool = True, limit: int | None = None) -> dict[str, Any]:
        """:meth:`explore` of a position already reached."""
        key = game.position_key(position)
        texts: list[tuple[int, int, int | None]] | None = None
        if limit is not None:
            # What analyze kept of a busy position ([] when it is not busy), else the pass.
            if self._busy_moves_current():
                texts = busy_positions.busy_moves(self.connection, key, game.id) or None
            elif move_text_count(self.connection, key) > busy_positions.MANY_TEXTS:
                texts = move_texts(self.connection, key, game.id)
        listing = choose_listed(game, position, texts, limit,
                                functools.partial(move_spellings, self.connection)) \
            if texts is not None and limit is not None and len(texts) > limit else None
        rows, rest = merge_moves(game, position, next_moves(
            self.connection, key, game.id, game.results,
            move_ids=None if listing is None else listing.move_ids), fens=fens, limit=limit)
        if listing is not None:  # the moves not chosen were counted, not read
            rest = {"moves": listing.moves - len(rows),
                    "games": listing.games - sum(row["games"] for row in rows)}
        for row in rows:
            row["example"] = {"path": row.pop("example_path"),
                              "record": row.pop("example_record")}
        reaching = count_reaching(self.connection, key, game.id)
        return {"game": game.id, "fen": game.format_position(position), "key": key,
                "side": game.sides[position.turn], "games": reaching, "moves": rows,
                "rest": rest}

    def _busy_moves_current(self) -> bool:
        """Whether ``analyze`` kept the busy positions' move texts for the index as it is
        (:func:`~notation_tools.storage.busy_positions.busy_moves_current`; an explorer
        page asks at every position, and the stamp reads every input)."""
        version = self.connection.execute("PRAGMA data_version").fetchone()[0]
        if self._busy_checked is None or self._busy_checked[0] != version:
            self._busy_checked = (version, busy_positions.busy_moves_current(self.connection))
        return self._busy_checked[1]

    def pattern(self, *, squares: Sequence[str] = (), material: str | None = None,
                at: str | None = None, game: str | None = None,
                limit: int | None = None) -> list[dict[str, Any]]:
        """The records whose main line matches a pattern at some ply (docs/pattern.md):
        ``squares`` (``"10j=White:Ln"``), ``material`` (``"Black: Ln>=1"``), ``at``
        (``"10..40"``). Each dict: path, record, ply (the first that matches), result, game,
        tags; the first ``limit`` of them (``None``: all), in database order
        (:meth:`pattern_count` says how many there are). Where the position index holds the
        records' material, material conditions are answered from it; where the square index
        holds their squares (``analyze --index squares``), square conditions too. Otherwise
        square conditions are checked by replaying only the records whose material allows a
        match, only at those plies, and the other records are read again from the
        database's inputs and replayed (with the --game/--rules overrides ``analyze`` was
        given). Raises :class:`~notation_tools.analysis.pattern.PatternError` for a pattern
        that does not read."""
        return self.pattern_counted(squares=squares, material=material, at=at, game=game,
                                    limit=limit)[0]

    def pattern_counted(self, *, squares: Sequence[str] = (), material: str | None = None,
                        at: str | None = None, game: str | None = None,
                        limit: int | None = None) -> tuple[list[dict[str, Any]], int]:
        """:meth:`pattern`'s records and how many there are in all (one search for both)."""
        game_id, found = self._pattern_matches(squares, material, at, game)
        listed = found if limit is None else found[:limit]
        # Only the listed records are read (their tags are JSON): the others were counted.
        rows = {row[0]: row for row in self.connection.execute(
            f"SELECT {_COLUMNS} FROM records WHERE id IN (SELECT value FROM json_each(?))",
            (_json_ids(item[1] for item in listed if isinstance(item[2], int)),))}
        return [item[2] if isinstance(item[2], dict) else _match(game_id, rows[item[1]], item[2])
                for item in listed], len(found)

    def pattern_count(self, *, squares: Sequence[str] = (), material: str | None = None,
                      at: str | None = None, game: str | None = None) -> int:
        """How many records :meth:`pattern` finds, without reading them."""
        return len(self._pattern_matches(squares, material, at, game)[1])

    def _pattern_matches(self, squares: Sequence[str], material: str | None, at: str | None,
                         game: str | None
                         ) -> tuple[str, list[tuple[int, int, int | dict[str, Any]]]]:
        """The game and :meth:`pattern`'s matches in database order: (input id, record id,
        the first ply that matches), or (…, the record's dict) for a record replayed."""
        chosen = self.game(game)
        wanted = parse_pattern(chosen, squares=squares, material=material, at=at)
        indexed = material_indexed_inputs(self.connection)
        squared = square_indexed_inputs(self.connection) if wanted.squares else set()
        runs: dict[int, list[tuple[int, int]]] = {}
        if wanted.squares:  # the square index answers for its inputs, if any
            if indexed:
                self._material_rows()
            if not squared.issuperset(indexed):  # the replay's candidates: by material
                runs = material_runs(self.connection, chosen.id,
                                     signature_filter(wanted, squares=True), wanted.plies,
                                     known=self._materials)
            covered = squared
            found: list[tuple[int, int, int | dict[str, Any]]] = list(square_first_plies(
                self.connection, chosen.id, wanted,
                wanted_signatures(self.connection, signature_filter(wanted, squares=False),
                                  self._materials) if wanted.material else None
            )) if squared else []
        else:  # material only: the position index's material runs answer
            covered = indexed
            if indexed:
                self._material_rows()
            answered = material_first_plies(
                self.connection, chosen.id, signature_filter(wanted, squares=False),
                wanted.plies, known=self._materials) if indexed else {}
            # The answered records are of the game; their inputs come from records_input (a
            # narrow index: the records' own rows are wide, and half the archive may match).
            found = [(input_id, record_id, answered[record_id]) for record_id, input_id in
                     self.connection.execute(
                         "SELECT id, input_id FROM records INDEXED BY records_input WHERE id "
                         "IN (SELECT value FROM json_each(?))", (_json_ids(answered),))
                     if input_id in covered]
        uncovered = [row[0] for row in self.connection.execute(
            "SELECT id FROM inputs WHERE id NOT IN (SELECT value FROM json_each(?))",
            (_json_ids(covered),))]
        to_replay: dict[tuple[str, int], tuple[Any, ...]] = {}
        for row in self.connection.execute(
                f"SELECT {_COLUMNS} FROM records WHERE game = ? AND input_id IN "
                "(SELECT value FROM json_each(?)) ORDER BY id", (chosen.id, _json_ids(uncovered))
        ) if uncovered else ():  # none: the query would read every record's row to say so
            if row[1] not in indexed or row[0] in runs:  # else its material rules it out
                to_replay[(row[2], row[3])] = row
        if to_replay:
            found.extend(self._replayed(chosen.id, wanted, to_replay, runs))
        found.sort(key=_database_order)
        return chosen.id, found

    def _material_rows(self) -> None:
        """Give the stored materials their rows by piece when the database was indexed
        before those were kept (once, when the file may be written: material conditions
        are then answered in SQL; otherwise each material is read and tested in Python, as
        before, with the same answers)."""
        if self._rows_checked:
            return
        self._rows_checked = True
        if complete_material_rows(self.connection) is not None or \
                not os.access(self.path, os.W_OK):
            return
        try:
            writer = sqlite3.connect(self.path, timeout=0.2)
            try:
                with writer:
                    fill_material_rows(writer)
            finally:
                writer.close()
        except sqlite3.Error:
            pass  # busy (an analyze run) or read-only: the Python test answers

    def _replayed(self, game_id: str, wanted: Pattern, listed: dict[tuple[str, int], tuple[Any, ...]],
                  runs: dict[int, list[tuple[int, int]]]
                  ) -> list[tuple[int, int, dict[str, Any]]]:
        """The ``listed`` records (by source and index) where ``wanted`` holds, read again
        from their inputs and replayed as ``analyze`` replayed them (its --game and --rules)
        (only at the plies of ``runs`` where a record has)."""
        # Imported here: the archive readers and the replay come with the parallel runner,
        # which a database whose index answers every query never needs.
        from notation_tools.analysis.replay import replay
        from notation_tools.parallel.batch import iter_records
        input_ids = sorted({row[1] for row in listed.values()})
        inputs = self.connection.execute(
            "SELECT path, rules FROM inputs WHERE id IN (SELECT value FROM json_each(?)) "
            "ORDER BY id", ("[" + ",".join(map(str, input_ids)) + "]",)).fetchall()
        missing = [path for path, _ in inputs if not os.path.isfile(path)]
        if missing:  # its records would be left out of the answer without a word
            raise DatabaseError(
                f"{missing[0]}: not found (stored as analyze was given it); this pattern is "
                "checked by reading the records again: run the search where analyze ran, "
                "or analyze with --index squares" + (f" ({len(missing) - 1} more inputs "
                                                     "not found)" if len(missing) > 1 else ""))
        found = []
        for path, overrides in inputs:
            game_name, rules_text = input_overrides(overrides)
            for record in iter_records([path]):
                row = listed.get((record.path, record.index)) \
                    if isinstance(record, Record) else None
                if isinstance(record, Record) and row is not None:
                    visitor = PatternVisitor({game_id: wanted}, only=runs.get(row[0]))
                    visitor.finish(replay(record, game_name=game_name, rules_text=rules_text,
                                          visitor=visitor))
                    if visitor.ply is not None:
                        found.append((row[1], row[0], _match(game_id, row, visitor.ply)))
        return found

    def suggest(self, count: int, *, game: str | None = None, min_plies: int = 2,
                max_plies: int = 12) -> list[dict[str, Any]]:
        """The ``count`` most played move sequences from the start (main lines, ``min_plies``
        to ``max_plies`` long), as candidates for names: ``moves`` (as the first record
        writes them), ``plies``, ``games``. A sequence counts when no longer one is played
        as often (the deepest prefix shared by the same records)."""
        return suggest_prefixes(self, count, game=game, min_plies=min_plies,
                                max_plies=max_plies)


def suggest_prefixes(database: Database, count: int, *, game: str | None,
                     min_plies: int, max_plies: int) -> list[dict[str, Any]]:
    """:meth:`Database.suggest`: a walk of the tree of positions from the start, each node's
    count the records that pass through it along their main line in that order."""
    database.require_index()
    chosen, start = database.position(game=game)
    frontier: list[tuple[Position[Any], list[str], int | None]] = [(start, [], None)]
    found: list[dict[str, Any]] = []
    for _ in range(max_plies):
        deeper: list[tuple[Position[Any], list[str], int | None]] = []
        for position, path, games in frontier:
            explored = database.explore_position(chosen, position, fens=False)
            for move in explored["moves"]:
                if move["key"] is None or move["games"] < 2:
                    continue
                after = position.copy()
                after.push(chosen.resolve_move(move["spellings"][0], position).move)
                deeper.append((after, [*path, move["move"]], move["games"]))
            if games is not None and len(path) >= min_plies and not any(
                    d[2] == games and d[1][:-1] == path for d in deeper):
                found.append({"moves": " ".join(path), "plies": len(path), "games": games})
        deeper.sort(key=lambda item: -(item[2] or 0))
        frontier = deeper[:count * 4]
    for position, path, games in frontier:
        if len(path) >= min_plies:
            found.append({"moves": " ".join(path), "plies": len(path), "games": games})
    found.sort(key=lambda row: (-row["games"], -row["plies"], row["moves"]))
    return found[:count]


_COLUMNS = "id, input_id, source, record_index, result, tags_json"
"""The columns of :func:`_match`'s rows."""


_database_order = operator.itemgetter(0, 1)
"""A match's place in :meth:`Database.pattern`'s answer: its input, then its record."""


def _json_ids(ids: Iterable[int]) -> str:
    return "[" + ",".join(map(str, ids)) + "]"


def _match(game_id: str, row: tuple[Any, ...], ply: int) -> dict[str, Any]:
    """:meth:`Database.pattern`'s dict of a record (``row``: id, input id, source, index,
    result, tags JSON) that matches first at ``ply``."""
    record_id, _, source, index, result, tags = row
    return {"path": source, "record": index, "ply": ply, "line": 0, "result": result,
            "game": game_id, "tags": dict(json.loads(tags)), "id": record_id}


def input_overrides(text: str | None) -> tuple[str | None, str | None]:
    """The --game and --rules of an input's stored overrides (``inputs.rules``, as
    ``analyze`` writes them: ``--game GAME; --rules RULES; --openings ...``)."""
    found: dict[str, str] = {}
    for part in (text or "").split("; --"):
        name, _, value = part.removeprefix("--").partition(" ")
        found[name] = value
    return found.get("game"), found.get("rules")


def _quoted(path: str) -> str:
    return path.replace("%", "%25").replace("?", "%3f").replace("#", "%23")


def index_lookup(database: Database, targets: dict[str, str]) -> Callable[[Record], bool | None]:
    """``select --reaches --db``: for a record read from the same files, whether the index
    says it reaches the target position of its game (``targets``: game id → position
    string), or ``None`` when the index does not hold it."""
    database.require_index()
    reached: set[tuple[str, int]] = set()
    for game_id, fen in targets.items():
        chosen, position = database.position(fen, game=game_id)
        reached.update((row[1], row[2]) for row in records_reaching(
            database.connection, chosen.position_key(position), chosen.id))
    indexed = {(source, index) for source, index in database.connection.execute(
        "SELECT r.source, r.record_index FROM records AS r JOIN position_inputs AS i "
        "ON i.input_id = r.input_id")}

    def says(record: Record) -> bool | None:
        where = (record.path, record.index)
        return True if where in reached else False if where in indexed else None

    return says
