"""The canonical form of PGN records: what ``notation-tools fmt`` writes.

A record that replays without an error is written in its canonical form: the seven-tag
roster first (:data:`ROSTER`, the game's sides in place of White and Black), then the game's tags (:data:`GAME_TAGS`), then the others in
alphabetical order (a name written twice keeps its entries' order); every move in its
canonical spelling in the record's notation (:func:`~notation_tools.analysis.repairs.
record_notation`, or the one asked for); move numbers as PGN gives them (the first player's
moves, and the second player's where a line starts or follows a comment or variations);
comments and NAGs after the move they follow, variations after those; movetext wrapped at
``width`` columns; one result token. Text inside comments is never changed.

A record that replays with an error is laid out only: its tags ordered, its move texts and
numbers as written, so that it replays to the same error. A record the reader could not read
whole, that names no game by its tags (a score known only by its look: ``convert --to pgn``
names it), or that PGN cannot hold as it is, is left as written, byte for byte, with a note.
Every record written is read back and replayed: it must replay to the same main line (the
same digest, :func:`~notation_tools.analysis.replay.movetext_digest`) and verdict, or it is
left as written. Formatting twice gives what formatting once gave.

``format_text`` formats a whole file's text: records are separated by one blank line, lines
starting with ``%`` (PGN escape lines) are kept before the record that follows them, the
newline style (LF or CRLF) of the text is kept. Does not read files or print.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from notation_tools.analysis.convert import add_result_tag
from notation_tools.analysis.repairs import (Repairs, record_notation, renumber,
                                             repair_record, survey)
from notation_tools.analysis.replay import replay
from notation_tools.limits import DEFAULT, Limits
from notation_tools.records.diagnostics import NOTE, Diagnostic
from notation_tools.records.model import Record, Tag
from notation_tools.records.pgn import parse_chunk, pgn_problems, split_chunks, write_record

ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
"""PGN's seven-tag roster, written first, in this order."""
GAME_TAGS = ("Variant", "Rules", "FirstPlayer", "SetUp", "FEN")
"""The tags that say which game is played and from where, written after the roster."""
DEFAULT_WIDTH = 79
"""The column movetext is wrapped at, unless asked otherwise."""


@dataclasses.dataclass(frozen=True)
class FormatOptions:
    """How to format: the movetext's ``width``, the ``notation`` moves are written in
    (default: each record's own), the ``--game``/``--rules`` overrides (written into the
    ``Variant``/``Rules`` tags, as ``convert`` writes them) and the repairs to make first."""

    width: int = DEFAULT_WIDTH
    notation: str | None = None
    game: str | None = None
    rules: str | None = None
    repairs: Repairs = Repairs()
    limits: Limits = DEFAULT


@dataclasses.dataclass
class FormattedRecord:
    """One record formatted: ``text`` is ``None`` when it is left as written; ``record`` is
    the record as read, its diagnostics the replay's findings and the formatter's notes."""

    record: Record
    text: str | None
    changed: bool = False
    """Whether the text differs from the record's text as written (``fmt --check``)."""


def tag_order(tags: list[Tag], sides: tuple[str, ...] = ("White", "Black")) -> list[Tag]:
    """The tags in canonical order (a stable sort: a name written twice keeps its order):
    the roster, with the players' tags named by ``sides`` (a game's sides, first player
    first) in the place of ``White`` and ``Black``, then :data:`GAME_TAGS`, then the rest
    alphabetically.

    >>> [t.name for t in tag_order([Tag("Zeta", ""), Tag("Variant", ""), Tag("Alpha", ""),
    ...                             Tag("Result", ""), Tag("Event", "")])]
    ['Event', 'Result', 'Variant', 'Alpha', 'Zeta']
    >>> [t.name for t in tag_order([Tag("South", ""), Tag("Round", ""), Tag("North", "")],
    ...                            ("North", "South"))]
    ['Round', 'North', 'South']
    """
    roster = (*ROSTER[:4], *sides, *ROSTER[6:])
    rank = {name: index for index, name in enumerate(dict.fromkeys(roster + GAME_TAGS))}
    return sorted(tags, key=lambda tag: (rank.get(tag.name, len(rank)),
                                         "" if tag.name in rank else tag.name))


def _note(record: Record, message: str) -> Diagnostic:
    return Diagnostic("I-NOT-FORMATTED", message, record.path, record.line, 1, severity=NOTE,
                      record=record.index)


def format_record(record: Record, options: FormatOptions = FormatOptions()) -> FormattedRecord:
    """Format one record (changed in place): its text, or ``None`` with a note saying why
    it is left as written. The repairs ``options`` asks for are made first."""
    if options.repairs.any:
        repair_record(record, dataclasses.replace(options.repairs, notation=options.notation),
                      game=options.game, rules=options.rules)
    if any(d.is_error for d in record.diagnostics):
        record.diagnostics.append(_note(record, "the record could not be read whole: it is "
                                        "left as written"))
        return FormattedRecord(record, None)
    if options.game is None and record.find_tag("Variant") is None \
            and record.find_tag("Game") is None:
        record.diagnostics.append(_note(record, "the record names no game by a Variant tag "
                                        "(convert --to pgn or --game adds it): it is left as "
                                        "written"))
        replay(record)  # its findings are reported all the same
        return FormattedRecord(record, None)
    original = record.copy()
    result, seen = survey(record, game=options.game, rules=options.rules)
    record.diagnostics = result.record.diagnostics
    game = result.game
    if game is None:
        record.diagnostics.append(_note(record, "the record's game is unknown: it is left as "
                                        "written"))
        return FormattedRecord(record, None)
    if options.game is not None:
        record.set_tag("Variant", options.game)
    if options.rules is not None and result.rules is not None:
        record.set_tag("Rules", result.rules.describe())
    if result.is_valid:
        notation = options.notation or record_notation(seen)
        if notation not in game.notations:
            record.diagnostics.append(Diagnostic(
                "E-BAD-NOTATION", f"{game.id} has no notation {notation!r} (it has "
                f"{', '.join(game.notations)}): the record is left as written", record.path,
                record.line, 1, record=record.index))
            return FormattedRecord(record, None)
        for key, spellings in seen.spellings.items():
            seen.nodes[key].text = spellings[notation]
        renumber(record, result, seen)
        add_result_tag(record)
    record.tags.entries()[:] = tag_order(record.tags.entries(), tuple(game.sides))
    problems = pgn_problems(record)
    if problems:
        record.diagnostics.append(_note(record, f"PGN cannot hold it as it is "
                                        f"({'; '.join(problems[:3])}): it is left as written"))
        return FormattedRecord(record, None)
    text = write_record(record, width=options.width, compact=True)
    if not _same_game(text, result.digest, result.is_valid, options):
        record.diagnostics.append(Diagnostic(
            "E-INTERNAL", "formatting would change the record's moves or verdict: it is left "
            "as written; please report this record", record.path, record.line, 1,
            record=record.index))
        record.tags, record.moves = original.tags, original.moves
        return FormattedRecord(record, None)
    return FormattedRecord(record, text)


def _same_game(text: str, digest: str | None, valid: bool, options: FormatOptions) -> bool:
    """Whether ``text`` reads back as one record with the main line ``digest`` and the
    verdict ``valid``."""
    chunks = list(split_chunks(text.splitlines()))
    records = [r for chunk in chunks for r in parse_chunk("-", chunk, limits=options.limits)]
    if len(records) != 1:
        return False
    again = replay(records[0], game_name=options.game, rules_text=options.rules, digest=True)
    return again.digest == digest and again.is_valid == valid


@dataclasses.dataclass
class FormattedText:
    """A text formatted: the new ``text`` and each record's outcome, in order."""

    text: str
    records: list[FormattedRecord]

    @property
    def diagnostics(self) -> Iterator[Diagnostic]:
        for item in self.records:
            yield from item.record.diagnostics


def format_text(text: str, options: FormatOptions = FormatOptions(), *,
                path: str = "-") -> FormattedText:
    """Format every record of a PGN file's text (see the module's description).

    >>> print(format_text('[Variant "elevation"]\\n[Event "x"]\\n1.c1:c2>b2,c1-c2  *').text, end="")
    [Event "x"]
    [Result "*"]
    [Variant "elevation"]
    <BLANKLINE>
    1. c1:c2>b2,c1-c2 *
    """
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.replace("\r\n", "\n").split("\n")
    in_chunks: set[int] = set()
    pieces: list[tuple[int, str]] = []
    formatted: list[FormattedRecord] = []
    for index, chunk in enumerate(split_chunks(lines), start=1):
        first, tag_lines, movetext_lines = chunk
        numbers = [number for number, _ in tag_lines + movetext_lines]
        last = max(numbers)
        in_chunks.update(numbers)
        done = [format_record(record, options)
                for record in parse_chunk(path, chunk, index, limits=options.limits)]
        formatted += done
        span = range(first, last + 1)
        verbatim = "\n".join(lines[n - 1] for n in span).rstrip() + "\n\n"
        if any(item.text is None for item in done):
            in_chunks.update(span)
            pieces.append((first, verbatim))
        else:
            written = "".join(item.text or "" for item in done)
            for item in done:
                item.changed = written != verbatim
            pieces.append((first, written))
    pieces += [(number, line + "\n") for number, line in enumerate(lines, start=1)
               if line.startswith("%") and number not in in_chunks]
    pieces.sort(key=lambda piece: piece[0])
    out = "".join(piece for _, piece in pieces).rstrip("\n")
    out = out + "\n" if out else ""
    return FormattedText(out.replace("\n", newline), formatted)

