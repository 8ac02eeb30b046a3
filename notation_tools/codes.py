"""Diagnostic codes as data: the type every table of codes uses, and the shared codes.

The container, the sources and the replay driver raise the codes of :data:`SHARED_CODES`;
each game declares its own in ``Game.codes``. A test fails when the package raises a code
that neither declares, and ``notation-tools games [GAME] --codes`` lists them.

Does not raise, print or decide exit statuses.
"""

from __future__ import annotations

import dataclasses

ERROR = "error"
WARNING = "warning"
NOTE = "note"


@dataclasses.dataclass(frozen=True, slots=True)
class Code:
    """One diagnostic code: ``code`` (``E-``/``W-``/``I-`` prefix for error, warning, note),
    its severity, a one-line meaning, and the rules section that defines it (``None`` for
    container codes, which no game's rules define)."""

    code: str
    severity: str
    meaning: str
    section: str | None = None

    def __post_init__(self) -> None:
        expected = {"E": ERROR, "W": WARNING, "I": NOTE}.get(self.code[:1])
        if expected != self.severity or self.code[1:2] != "-":
            raise ValueError(f"code {self.code}: prefix and severity {self.severity} disagree")


def severity_of(code: str) -> str:
    """The severity a code's prefix gives: ``E-`` error, ``W-`` warning, ``I-`` note.

    >>> severity_of("W-RESULT-MISSING")
    'warning'
    """
    return {"W": WARNING, "I": NOTE}.get(code[:1], ERROR)


SHARED_CODES: tuple[Code, ...] = (
    Code("E-SYNTAX", ERROR, "a token, comment, bracket or JSON shape that does not parse"),
    Code("E-BAD-TAG", ERROR, "a malformed tag pair, a bad Result or FirstPlayer value, "
         "SetUp without FEN"),
    Code("E-UNKNOWN-VARIANT", ERROR, "the Variant tag names no installed game, or the record "
         "names none"),
    Code("E-BAD-RULES", ERROR, "unknown profile or option, bad value, or options that "
         "contradict each other"),
    Code("E-BAD-POSITION", ERROR, "a position string (FEN tag, --fen) the game rejects"),
    Code("E-TAG-CONFLICT", ERROR, "tags that contradict each other (FEN and FirstPlayer)"),
    Code("E-NUMBER", ERROR, "a move number out of sequence"),
    Code("E-ILLEGAL-MOVE", ERROR, "a move the rules forbid; the message says which rule"),
    Code("E-AMBIGUOUS", ERROR, "a move text that fits more than one legal move"),
    Code("E-MOVE-AFTER-END", ERROR, "a move after the game ended"),
    Code("E-RESULT-MISMATCH", ERROR, "the result contradicts the game's end, or the tag "
         "contradicts the movetext"),
    Code("W-RESULT-MISSING", WARNING, "the game is over but the result is * or absent"),
    Code("E-ENCODING", ERROR, "text that is not UTF-8 (located at the bad byte)"),
    Code("E-IO", ERROR, "a file or archive member that cannot be read"),
    Code("E-LIMIT", ERROR, "input beyond a limit of the run (line or record size, nesting, "
         "moves, decompressed size or ratio): the rest is not read; --limit changes it"),
    Code("E-WORKER", ERROR, "a worker process died twice while replaying a batch of records "
         "(killed, out of memory): they are not reported"),
    Code("I-MORE-DIAGNOSTICS", NOTE, "a record has more diagnostics than the limit; the rest "
         "are counted, not shown"),
    Code("E-CANNOT-WRITE", ERROR, "convert: the target container cannot hold the record as it "
         "is (a tag value with a line break, a malformed NAG, ...); it is not written"),
    Code("E-PLACEHOLDER", ERROR, "a placeholder token where no move may be missing"),
    Code("E-INTERNAL", ERROR, "an engine fault; the record is reported and the run goes on"),
    Code("E-BAD-NOTATION", ERROR, "convert: the record's game has no such notation or file "
         "format"),
    Code("W-IGNORED-WORD", WARNING, "a word another program writes between moves that carries "
         "no move, skipped"),
    Code("I-FIXED-TAG", NOTE, "a repair (--fix-tags): a malformed tag pair read as the tag it "
         "plainly is"),
    Code("I-FIXED-RESULT", NOTE, "a repair (--fix-result): the result made to say how the "
         "replayed game ended"),
    Code("I-FIXED-NUMBER", NOTE, "a repair (--fix-numbers): a missing or wrong move number "
         "written as PGN numbers the move"),
    Code("I-FIXED-MOVE", NOTE, "a repair (--fix-moves): a move text written in the canonical "
         "spelling of its move"),
    Code("I-KEPT-BROKEN", NOTE, "a repair (--keep-broken): the moves from an unplayable one on "
         "kept as a comment"),
    Code("I-NOT-FORMATTED", NOTE, "fmt: a record left as written (not read whole, game "
         "unknown, or not holdable as PGN)"),
    Code("W-AMBIGUOUS", WARNING, "several readings of a move text play to the end of the line; "
         "the first is kept"),
)
"""The codes of the container, the sources and the replay driver, shared by every game."""
