"""The file formats of Maka-Dai-Dai Shogi beside the PGN container (§9.9): ShogiVar's save file.

ShogiVar's text score (``.txt``, Moves > Print Moves) is read as a record dialect
(``notation.DIALECT``); its save file (``.svar``, Game > Save Game) is a file format, read
only: the codec is :mod:`notation_tools.games.maka.svar`.
"""

from __future__ import annotations

from notation_tools.games.file_formats import FileFormat
from notation_tools.games.maka.svar import read_svar, sniff_svar

FILE_FORMATS = (
    FileFormat("svar", "ShogiVar save file (Game > Save Game), one game; read only (§9.9)",
               sniff_svar, read_svar, None, suffixes=(".svar",), file_suffix=".svar"),
)

__all__ = ["FILE_FORMATS"]
