"""Diagnostics: what the toolkit says about a record, as data, and its compiler-style line.

Does not decide exit codes (the CLI does) and does not print.
"""

from __future__ import annotations

import dataclasses
from typing import Any

ERROR = "error"
WARNING = "warning"
NOTE = "note"


@dataclasses.dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding, located at a file, line and column.

    ``code`` is stable (``E-ILLEGAL-MOVE``); ``rule`` names the spec section broken; ``ply``
    (1-based), ``number`` (the move number as the movetext counts it), ``side`` and ``move``
    are set for findings about a move; ``record`` is the record's 1-based index in its file.
    """

    code: str
    message: str
    path: str
    line: int
    column: int
    severity: str = ERROR
    ply: int | None = None
    number: int | None = None
    side: str | None = None
    move: str | None = None
    rule: str | None = None
    record: int | None = None

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def __str__(self) -> str:
        """``path:line:col: error[CODE]: move 7 (White) token: message [§4.3]``.

        >>> str(Diagnostic("E-ILLEGAL-MOVE", "c3 is only 1 level above d4", "a.pgn", 3, 9,
        ...                ply=5, number=3, side="White", move="c3:b2>b3,c3xd4", rule="§4.3"))
        'a.pgn:3:9: error[E-ILLEGAL-MOVE]: move 3 (White) c3:b2>b3,c3xd4: c3 is only 1 level above d4 [§4.3]'
        """
        where = ""
        if self.move is not None:
            number = f"move {self.number} " if self.number else ""
            side = f"({self.side}) " if self.side else ""
            where = f"{number}{side}{self.move}: "
        rule = f" [{self.rule}]" if self.rule else ""
        return (f"{self.path}:{self.line}:{self.column}: {self.severity}[{self.code}]: "
                f"{where}{self.message}{rule}")

    def to_json(self) -> dict[str, Any]:
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}
