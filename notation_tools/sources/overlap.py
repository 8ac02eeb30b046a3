"""Whether a command's outputs would write over its own inputs, checked before anything is
opened for writing.

Opening an output truncates it, so ``convert same.pgn -o same.pgn`` would empty its input
before reading it. The outputs are compared with every file the inputs reach (through a
directory walk, an ``archive:member`` path, and standard input when it is a file) by device
and inode, so a symlink or a hard link to an input is caught as well as the same name; an
output directory must not hold an input among the files a command writes there. Two outputs
that are the same file are refused too. Does not open, read or write any file.
"""

from __future__ import annotations

import dataclasses
import os
import stat
from collections.abc import Iterable
from typing import BinaryIO

from notation_tools.sources.paths import Suffixes, input_files, split_member, wanted_in_walk
from notation_tools.sources.streams import shown


@dataclasses.dataclass(frozen=True)
class Output:
    """One output of a command: ``option`` names it (``--output``); ``path`` is a file, or,
    with ``suffixes``, a directory the command writes files ending so into (``recursive``:
    in its subdirectories too). ``-`` (standard output) is never an input's file."""

    option: str
    path: str
    suffixes: tuple[str, ...] | None = None
    recursive: bool = False


class OutputOverInput(ValueError):
    """An output that is one of the inputs, or the same file as another output; ``option``
    names the output, ``message`` says which file it is."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option
        self.message = message


_Identity = tuple[int, int]


def _identity(path: str) -> _Identity | None:
    """The device and inode of a regular file (a symlink followed), ``None`` for what is not
    one (missing, a directory, a device such as ``/dev/null``)."""
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return None
    return (found.st_dev, found.st_ino) if stat.S_ISREG(found.st_mode) else None


def _stdin_identity(stdin: BinaryIO | None) -> _Identity | None:
    if stdin is None:
        return None
    try:
        found = os.fstat(stdin.fileno())
    except (OSError, ValueError, AttributeError):
        return None  # not a file descriptor (a test's stream)
    return (found.st_dev, found.st_ino) if stat.S_ISREG(found.st_mode) else None


def input_identities(paths: Iterable[str], suffixes: Suffixes = (),
                     stdin: BinaryIO | None = None) -> dict[_Identity, str]:
    """Every regular file the inputs reach, by identity → the input as reports name it."""
    found: dict[_Identity, str] = {}
    for path in input_files(paths, suffixes):
        if path == "-":
            identity = _stdin_identity(stdin)
            name = "standard input"
        else:
            parts = split_member(path)
            identity = _identity(parts[0] if parts else path)
            name = shown(parts[0] if parts else path)
        if identity is not None:
            found.setdefault(identity, name)
    return found


def _written_in(output: Output) -> Iterable[str]:
    """The files already in an output directory that the command may write over."""
    assert output.suffixes is not None
    if not os.path.isdir(output.path):
        return
    if output.recursive:
        for root, _, names in os.walk(output.path):
            yield from (os.path.join(root, name) for name in sorted(names)
                        if name.lower().endswith(output.suffixes))
        return
    try:
        names = sorted(os.listdir(output.path))
    except OSError:
        return  # an unreadable directory: writing into it will fail and say so
    yield from (os.path.join(output.path, name) for name in names
                if name.lower().endswith(output.suffixes))


def _walked_into(output: Output, inputs: Iterable[str], suffixes: Suffixes) -> str | None:
    """The input directory whose walk would read what ``output`` writes (a file it walks
    into, or files of a kind it reads in a directory under it), if any: the output would be
    read as an input while it is written, and a selection would read its own output forever."""
    target = os.path.realpath(output.path)
    names = ([f"output{suffix}" for suffix in output.suffixes] if output.suffixes is not None
             else [os.path.basename(target)])
    for path in inputs:
        if path == "-" or not os.path.isdir(path):
            continue
        top = os.path.realpath(path)
        # The directory test comes first: asking what a walk reads may ask every game for
        # its file endings (importing them all), which a command on named files never needs.
        if ((target == top or target.startswith(top.rstrip(os.sep) + os.sep))
                and any(wanted_in_walk(name, suffixes) for name in names)):
            return path
    return None


def check_outputs(outputs: Iterable[Output], inputs: Iterable[str], *, suffixes: Suffixes = (),
                  stdin: BinaryIO | None = None) -> None:
    """Raise :class:`OutputOverInput` for the first output that is an input file or the same
    file as an earlier output; ``inputs`` and ``suffixes`` as the command reads them."""
    wanted = [output for output in outputs if output.path and output.path != "-"]
    if not wanted:
        return
    inputs = list(inputs)
    known = input_identities(inputs, suffixes, stdin)
    taken: dict[object, str] = {}
    for output in wanted:
        identity = None
        if output.suffixes is not None:
            _check_directory(output, known)
        else:
            identity = _identity(output.path)
            if identity is not None and identity in known:
                same = known[identity]
                also = "" if same == shown(output.path) else f" ({same})"
                raise OutputOverInput(output.option, (
                    f"{shown(output.path)} is also an input{also}: writing it would destroy "
                    "it before it is read; nothing was written"))
        walked = _walked_into(output, inputs, suffixes)
        if walked is not None:
            raise OutputOverInput(output.option, (
                f"{shown(output.path)} is inside the input directory {shown(walked)}, whose "
                "walk would read what is written there as input; write it elsewhere"))
        if output.suffixes is not None or (identity is None and os.path.exists(output.path)):
            continue  # a directory, or a device (/dev/null) or a FIFO: it destroys no file
        key = identity if identity is not None else os.path.realpath(output.path)
        if key in taken:
            raise OutputOverInput(output.option, (
                f"{shown(output.path)} is also the file of {taken[key]}: each output needs a "
                "file of its own; nothing was written"))
        taken[key] = output.option


def _check_directory(output: Output, known: dict[_Identity, str]) -> None:
    for path in _written_in(output):
        identity = _identity(path)
        if identity in known:
            same = known[identity]
            also = "" if same == shown(path) else f" (as {shown(path)})"
            raise OutputOverInput(output.option, (
                f"the directory {shown(output.path)} holds the input {same}{also}, which "
                "writing into it could destroy; nothing was written"))
