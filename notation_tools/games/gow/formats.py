"""Game of War's foreign file formats as the toolkit's :class:`~base.FileFormat` rows (§14).

Recognition follows spec §14: a JSON object with ``kfen_version`` is a pykrieg ``.kfen``
record; a first line ``<w>;<h>`` is an ebarjou save; a single line of at least 20
``/``-separated fields of KFEN characters is a KFEN string. Reading and writing are the codecs
of ``kfen.py`` and ``ebarjou.py``; this module only adapts them. Does not open files.
"""

from __future__ import annotations

import dataclasses

import re
from collections.abc import Mapping, Sequence
from typing import Any

from notation_tools.games.file_formats import FileFormat, ForeignRecord
from notation_tools.games.gow.ebarjou import read_ebarjou, write_ebarjou
from notation_tools.games.gow.kfen import read_kfen, read_kfen_json, write_kfen, write_kfen_json

_KFEN_CHARS = re.compile(r"[A-Za-z0-9_(){}\[\],/]+")
_EBARJOU_HEAD = re.compile(r"\d+;\d+")


def sniff_kfen_json(head: str) -> bool:
    """``{ ... "kfen_version" ...``: a pykrieg game record.

    >>> sniff_kfen_json('{"kfen_version": "1.0", "board_info": {}}')
    True
    """
    stripped = head.lstrip()
    return stripped.startswith("{") and '"kfen_version"' in stripped[:4096]


def sniff_ebarjou(head: str) -> bool:
    """A first line ``<w>;<h>``.

    >>> sniff_ebarjou("25;20\\n1;5\\n")
    True
    """
    first = head.lstrip("\ufeff").split("\n", 1)[0].strip()
    return bool(_EBARJOU_HEAD.fullmatch(first))


def sniff_kfen(head: str) -> bool:
    """One line of at least 20 ``/``-separated fields made of KFEN characters."""
    lines = [line for line in head.strip().split("\n") if line.strip()]
    if len(lines) != 1:
        return False
    text = lines[0].strip()
    return text.count("/") >= 19 and bool(_KFEN_CHARS.fullmatch(text))


def _write_kfen(start: Any, moves: Sequence[Any], tags: Mapping[str, str], final: Any) -> str:
    return write_kfen(final) + "\n"


def _write_ebarjou(start: Any, moves: Sequence[Any], tags: Mapping[str, str], final: Any) -> str:
    text = write_ebarjou(final)
    return text if text.endswith("\n") else text + "\n"


def _write_kfen_json(start: Any, moves: Sequence[Any], tags: Mapping[str, str],
                     final: Any) -> str:
    return write_kfen_json(start, moves, tags) + "\n"


def _read_kfen(text: str) -> ForeignRecord:
    return read_kfen(text).as_record()


def _read_ebarjou(text: str) -> ForeignRecord:
    # JeuDeLaGuerre's save is judged by the rules JeuDeLaGuerre plays (§12.2, §14.4); a
    # --rules option still overrides the tag.
    found = read_ebarjou(text).as_record()
    return dataclasses.replace(found, tags={**found.tags, "Rules": "jeudelaguerre"})


FILE_FORMATS = (
    FileFormat("kfen-json", "pykrieg .kfen game record (JSON), one game per document (§14.3)",
               sniff_kfen_json, read_kfen_json, _write_kfen_json, suffixes=(".kfen",),
               file_suffix=".kfen"),
    FileFormat("ebarjou", "ebarjou/JeuDeLaGuerre save file (x;y lines), one position (§14.4)",
               sniff_ebarjou, _read_ebarjou, _write_ebarjou, positional=True,
               file_suffix=".txt"),
    FileFormat("kfen", "pykrieg KFEN position string, one position (§14.2)",
               sniff_kfen, _read_kfen, _write_kfen, positional=True,
               file_suffix=".kfen.txt"),
)

__all__ = ["FILE_FORMATS"]
