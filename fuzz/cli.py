"""Command-line runs for the fuzz harness: a :class:`Case` is one ``notation-tools`` command
with the files it reads, run in a fresh directory in this process (Click's test runner: fast)
or through a real subprocess (the installed program: its last-resort line and exit status end
to end), and judged.

What counts as a finding, whatever the command (:func:`faults`):

- an exception out of the command (in a real run, the last-resort line ``notation-tools:
  internal error (...)``, exit 2), and that line itself on standard error;
- an ``E-INTERNAL`` diagnostic anywhere in what the run printed or wrote;
- a Python traceback or ``Exception ignored`` on standard error, or an unraisable exception
  (a generator or file closed by the garbage collector, reported with ``sys.unraisablehook``);
- an exit status outside 0, 1 and 2 (a signal: a negative status);
- ``notation-tools: out of memory`` (a subprocess run under its memory cap);
- what the case's own check says (``Case.check``: records lost, an input overwritten, ...).

Hangs and memory beyond the bound are found by the campaign, which watches the process from
outside. :func:`shrink` makes a finding's input smaller while the finding stays the same, and
:func:`write_reproducer` writes it as files and a shell command.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import os
import re
import resource
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

LAST_RESORT = "notation-tools: internal error ("
OUT_OF_MEMORY = "notation-tools: out of memory"
STATUSES = (0, 1, 2)
UNPRIVILEGED = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]
"""The prefix of a run that file permissions bind even as root (root reads a chmod 000 file
and writes into a read-only directory unless it drops these two capabilities)."""
PROGRAM = Path(sys.executable).with_name("notation-tools")


class Finding(Exception):
    """What the harness looks for: ``kind`` (``internal-error``, ``E-INTERNAL``, ``traceback``,
    ``exit-status``, ``memory``, ``check``, ...) and the evidence."""

    def __init__(self, kind: str, detail: str, signature: str | None = None) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind, self.detail = kind, detail
        first = detail.splitlines()[0] if detail else ""
        self.signature = signature or f"{kind}: {_normalize(first)}"
        self.case: Case | None = None
        """The command-line case that found it (``None`` for a library target)."""


def _normalize(text: str) -> str:
    """A finding's first line with what varies between inputs (numbers, quoted text, paths)
    blanked, so that one fault found by many inputs is one signature."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", text)
    text = re.sub(r"/tmp/\S+|\S+\.(pgn|json|jsonl|kfen|txt|svar|tsa|zip|tar|gz|xz|bz2)\b",
                  "PATH", text)
    return re.sub(r"\d+", "N", text)[:160]


def exception_signature(kind: str, error: BaseException) -> str:
    """``kind: Type at file:line`` of the innermost frame of the toolkit's code."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if "notation_tools" in f.filename] or frames
    where = f"{Path(ours[-1].filename).name}:{ours[-1].lineno}" if ours else "?"
    return f"{kind}: {type(error).__name__} at {where}"


# ---- cases ---------------------------------------------------------------------------------

Special = tuple[str, str]
"""A file-system set-up ``(kind, path)``: ``fifo``, ``loop`` (a symlink to itself),
``dir-loop`` (a symlink to its own directory), ``unreadable`` (chmod 000), ``readonly-dir``
(chmod 555)."""


@dataclasses.dataclass
class Case:
    """One command: ``argv`` after the program name (paths relative to the case's directory),
    the files to lay out there (path → bytes; a path ending in ``/`` is a directory),
    standard input, the file-system set-ups, and how it is run.

    ``check(outcome)`` returns what is wrong beyond a crash (records lost, an input
    overwritten), or ``None``. ``unprivileged`` runs it as an unprivileged user (through a
    subprocess, without the capabilities that let root read and write whatever the modes say).
    ``file_size`` caps every file the run writes (``RLIMIT_FSIZE``, subprocess only): a full
    disk for that run.
    """

    argv: list[str]
    files: dict[str, bytes] = dataclasses.field(default_factory=dict)
    stdin: bytes = b""
    special: list[Special] = dataclasses.field(default_factory=list)
    subprocess: bool = False
    unprivileged: bool = False
    file_size: int | None = None
    check: Callable[[Outcome], str | None] | None = None
    note: str = ""
    keep: tuple[str, ...] = ()
    """Arguments the shrinker must not drop (with the option before each): what the check
    is about, such as the output ``/dev/full``."""

    def command(self) -> str:
        """The shell command a user would type (run in the case's directory)."""
        text = shlex.join(["notation-tools", *self.argv])
        return text + (" < stdin.bin" if self.stdin else "")


@dataclasses.dataclass
class Outcome:
    """What a run did: its exit status, standard output and error, the exception that left
    the command (in-process runs only), the unraisable exceptions it caused, its wall time
    and peak memory (subprocess runs: the child's), and its directory."""

    status: int
    stdout: str
    stderr: str
    exception: BaseException | None
    unraisable: list[str]
    seconds: float
    peak_rss: int
    directory: Path
    case: Case | None = None
    """The case that ran (:func:`run` sets it): a check compares with its inputs."""

    def written(self) -> Iterator[tuple[Path, bytes]]:
        """Every regular file in the case's directory (what the run wrote, and its inputs)."""
        for root, _, names in os.walk(self.directory):
            for name in names:
                path = Path(root, name)
                try:
                    if stat.S_ISREG(path.lstat().st_mode) and path.stat().st_size < 64 << 20:
                        yield path, path.read_bytes()
                except OSError:
                    continue


def lay_out(case: Case, directory: Path) -> None:
    """Write the case's files and set-ups into ``directory`` (empty)."""
    for name, data in case.files.items():
        path = directory / name
        if name.endswith("/"):
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    for kind, name in case.special:
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "loop":
            os.symlink(path.name, path)
        elif kind == "dir-loop":
            os.symlink(".", path)
        elif kind == "unreadable":
            os.chmod(path, 0)
        elif kind == "readonly-dir":
            path.mkdir(exist_ok=True)
            os.chmod(path, 0o555)


def clear(directory: Path) -> None:
    """Empty ``directory`` whatever the case left in it (modes included)."""
    for root, dirs, files in os.walk(directory):
        for name in dirs:
            path = os.path.join(root, name)
            if not os.path.islink(path):
                with contextlib.suppress(OSError):
                    os.chmod(path, 0o755)
    for entry in os.scandir(directory):
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                os.unlink(entry.path)


# ---- running -------------------------------------------------------------------------------

_work: dict[int, Path] = {}


def work_directory() -> Path:
    """This process's scratch directory (made on first use, removed at exit)."""
    pid = os.getpid()
    if pid not in _work:
        import atexit

        path = Path(tempfile.mkdtemp(prefix=f"notation-fuzz-{pid}-"))
        (path / "case").mkdir()
        _work[pid] = path
        atexit.register(_remove_work, path, pid)
    return _work[pid]


def _remove_work(path: Path, pid: int) -> None:
    if os.getpid() == pid:
        clear(path)
        shutil.rmtree(path, ignore_errors=True)


_unraisable: list[str] = []


def _hook(unraisable: Any) -> None:
    text = "".join(traceback.format_exception(unraisable.exc_type, unraisable.exc_value,
                                              unraisable.exc_traceback))
    _unraisable.append(f"Exception ignored in: {unraisable.object!r}\n{text}")


@contextlib.contextmanager
def _in_directory(directory: Path) -> Iterator[None]:
    before = os.getcwd()
    os.chdir(directory)
    try:
        yield
    finally:
        os.chdir(before)


def run_in_process(case: Case, directory: Path) -> Outcome:
    """Run ``case`` through Click's test runner, in ``directory``."""
    from click.testing import CliRunner

    from notation_tools.cli import main

    runner = CliRunner()
    # What lives now (modules, caches, earlier runs' survivors) is left out of collections,
    # so that collecting after the run costs what the run made, not the whole heap.
    gc.freeze()
    previous = sys.unraisablehook
    sys.unraisablehook = _hook
    _unraisable.clear()
    start = time.perf_counter()
    try:
        with _in_directory(directory):
            result = runner.invoke(main, case.argv, input=case.stdin, catch_exceptions=True,
                                   prog_name="notation-tools")
        # What a run left for the collector (generators, files) is finalized here, so an
        # "Exception ignored" belongs to this input.
        gc.collect()
    finally:
        sys.unraisablehook = previous
    seconds = time.perf_counter() - start
    exception = result.exception
    if isinstance(exception, SystemExit):
        exception = None
    status = result.exit_code if isinstance(result.exit_code, int) else 1
    return Outcome(status, _text(result.stdout_bytes), _text(result.stderr_bytes), exception,
                   list(_unraisable), seconds, 0, directory)


def _text(data: bytes | None) -> str:
    return (data or b"").decode("utf-8", "backslashreplace")


def _limits(case: Case, memory: int) -> Callable[[], None]:
    def apply() -> None:
        os.setsid()
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        if case.file_size is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (case.file_size, case.file_size))
    return apply


class Hang(Exception):
    """A run that did not end in time."""


def run_subprocess(case: Case, directory: Path, *, timeout: float = 30,
                   memory: int = 4 << 30) -> Outcome:
    """Run ``case`` as the installed program, in ``directory``, under a memory cap; raises
    :class:`Hang` past ``timeout`` seconds (the process group is killed)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", COLUMNS="100")
    env.pop("PYTHONWARNINGS", None)
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        prefix = UNPRIVILEGED if case.unprivileged and os.geteuid() == 0 else []
        process = subprocess.Popen([*prefix, str(PROGRAM), *case.argv], cwd=directory, env=env,
                                   stdin=subprocess.PIPE, stdout=out, stderr=err,
                                   preexec_fn=_limits(case, memory))
        try:
            process.communicate(case.stdin, timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            raise Hang(f"ran longer than {timeout:g} s") from None
        except BrokenPipeError:
            process.wait()
        seconds = time.perf_counter() - start
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.seek(0)
        err.seek(0)
        stdout, stderr = _text(out.read()), _text(err.read())
    return Outcome(process.returncode, stdout, stderr, None, [], seconds,
                   usage.ru_maxrss * 1024, directory)


def run(case: Case, directory: Path, *, timeout: float = 30) -> Outcome:
    """Lay ``case`` out in ``directory`` (emptied first) and run it as it asks."""
    clear(directory)
    lay_out(case, directory)
    if case.subprocess or case.unprivileged or case.file_size is not None:
        outcome = run_subprocess(case, directory, timeout=timeout)
    else:
        outcome = run_in_process(case, directory)
    outcome.case = case
    return outcome


# ---- judging -------------------------------------------------------------------------------

_TRACEBACK = "Traceback (most recent call last)"
_IGNORED = "Exception ignored"


def faults(case: Case, outcome: Outcome) -> Finding | None:
    """The first finding of a run (see the module's introduction), or ``None``."""
    if outcome.exception is not None:
        detail = "".join(traceback.format_exception(outcome.exception))
        return Finding("internal-error", detail,
                       exception_signature("internal-error", outcome.exception))
    err = outcome.stderr
    if LAST_RESORT in err:
        line = err[err.index(LAST_RESORT):].split("\n", 1)[0]
        return Finding("internal-error", line + "\n" + err[-4000:],
                       "internal-error: " + _normalize(line[len(LAST_RESORT):].split(":")[0]))
    if OUT_OF_MEMORY in err:
        return Finding("memory", err[-2000:], "memory: out of memory")
    for marker, kind in ((_TRACEBACK, "traceback"), (_IGNORED, "exception-ignored")):
        if marker in err:
            tail = err[err.index(marker):]
            last = [line for line in tail.splitlines() if line and not line.startswith(" ")]
            return Finding(kind, tail[:6000], f"{kind}: {_normalize(last[-1] if last else '')}")
    if outcome.unraisable:
        first = outcome.unraisable[0]
        last = [line for line in first.splitlines() if line and not line.startswith(" ")]
        return Finding("exception-ignored", first,
                       f"exception-ignored: {_normalize(last[-1] if last else '')}")
    if outcome.status not in STATUSES:
        return Finding("exit-status", f"exit status {outcome.status}\n{err[-3000:]}",
                       f"exit-status: {outcome.status}")
    internal = _find_internal(outcome)
    if internal is not None:
        return Finding("E-INTERNAL", internal, "E-INTERNAL: " + _normalize(
            internal.split("E-INTERNAL", 1)[1][:200]))
    if case.check is not None:
        problem = case.check(outcome)
        if problem:
            return Finding("check", problem, "check: " + _normalize(problem.splitlines()[0]))
    return None


def _find_internal(outcome: Outcome) -> str | None:
    for where, text in (("stderr", outcome.stderr), ("stdout", outcome.stdout)):
        if "E-INTERNAL" in text:
            return f"{where}: " + _line_with(text, "E-INTERNAL")
    for path, data in outcome.written():
        if b"E-INTERNAL" in data:
            return f"{path.name}: " + _line_with(_text(data), "E-INTERNAL")
    return None


def _line_with(text: str, needle: str) -> str:
    index = text.index(needle)
    start = text.rfind("\n", 0, index) + 1
    end = text.find("\n", index)
    return text[start: end if end >= 0 else None][:2000]


# ---- shrinking and reproducers --------------------------------------------------------------

def _ddmin(parts: list[bytes], still: Callable[[list[bytes]], bool], budget: list[int]) -> \
        list[bytes]:
    """Delta debugging: drop chunks of ``parts`` while ``still`` holds (``budget[0]`` runs)."""
    size = max(1, len(parts) // 2)
    while parts and size >= 1 and budget[0] > 0:
        index = 0
        removed = False
        while index < len(parts) and budget[0] > 0:
            trial = parts[:index] + parts[index + size:]
            budget[0] -= 1
            if trial != parts and still(trial):
                parts, removed = trial, True
            else:
                index += size
        if not removed:
            if size == 1:
                break
            size //= 2
    return parts


def shrink(case: Case, signature: str, directory: Path, *, runs: int = 300,
           seconds: float = 60, timeout: float = 30) -> Case:
    """A smaller case with the same finding signature: each file's lines (then characters)
    and standard input, then the arguments one by one, within ``runs`` runs or ``seconds``."""
    deadline = time.monotonic() + seconds
    budget = [runs]

    def same(candidate: Case) -> bool:
        if time.monotonic() > deadline:
            budget[0] = 0
            return False
        try:
            found = faults(candidate, run(candidate, directory, timeout=timeout))
        except Hang:
            return False
        return found is not None and found.signature == signature

    for name in sorted(case.files):
        data = case.files[name]
        if name.endswith("/") or len(data) > 4 << 20 or _binary(name, data):
            continue
        for split in (_lines, _chars):
            parts = split(case.files[name])
            if len(parts) < 2:
                continue
            kept = _ddmin(parts, lambda p: same(dataclasses.replace(
                case, files={**case.files, name: b"".join(p)})), budget)
            case = dataclasses.replace(case, files={**case.files, name: b"".join(kept)})
    if case.stdin and not _binary("stdin", case.stdin):
        kept = _ddmin(_lines(case.stdin), lambda p: same(
            dataclasses.replace(case, stdin=b"".join(p))), budget)
        case = dataclasses.replace(case, stdin=b"".join(kept))
    index = 1
    while index < len(case.argv) and budget[0] > 0:
        for width in (2, 1):
            dropped = case.argv[index:index + width + 1]
            if any(kept in dropped for kept in case.keep):
                continue
            trial = case.argv[:index] + case.argv[index + width:]
            if len(trial) >= 1 and same(dataclasses.replace(case, argv=trial)):
                case = dataclasses.replace(case, argv=trial)
                break
        else:
            index += 1
    return case


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def _chars(data: bytes) -> list[bytes]:
    return [data[i:i + 1] for i in range(len(data))] if len(data) <= 4000 else [data]


def _binary(name: str, data: bytes) -> bool:
    return name.endswith((".gz", ".xz", ".bz2", ".zip", ".tar", ".tgz", ".sqlite", ".db")) \
        or b"\0" in data[:8192]


def write_reproducer(case: Case, finding: Finding | str, folder: Path, *,
                     target: str, seed: int) -> Path:
    """``folder`` gets the case's files (``files/``), standard input, and ``command.sh``:
    the set-ups and the command, to run in that folder; plus ``finding.txt``."""
    if folder.exists():
        clear(folder)
    files = folder / "files"
    files.mkdir(parents=True, exist_ok=True)
    for name, data in case.files.items():
        path = files / name
        if name.endswith("/"):
            path.mkdir(parents=True, exist_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    if case.stdin:
        (files / "stdin.bin").write_bytes(case.stdin)
    setups = []
    for kind, name in case.special:
        quoted = shlex.quote(name)
        setups.append({"fifo": f"mkfifo {quoted}", "loop": f"ln -s {shlex.quote(Path(name).name)}"
                       f" {quoted}", "dir-loop": f"ln -s . {quoted}",
                       "unreadable": f"chmod 000 {quoted}",
                       "readonly-dir": f"mkdir -p {quoted} && chmod 555 {quoted}"}[kind])
    lines = ["#!/bin/sh", f"# fuzz target {target}, seed {seed}; {case.note}".rstrip("; "),
             "cd \"$(dirname \"$0\")/files\" || exit", *setups]
    prefix = ""
    if case.file_size is not None:
        prefix = f"ulimit -f {max(1, case.file_size // 512)}; "
    command = case.command()
    if case.unprivileged:
        command = f"{shlex.join(UNPRIVILEGED)} {command}  # root bypasses file modes otherwise"
    lines.append(prefix + command)
    (folder / "command.sh").write_text("\n".join(lines) + "\n", encoding="utf-8",
                                       errors="surrogateescape")
    os.chmod(folder / "command.sh", 0o755)
    text = finding if isinstance(finding, str) else f"{finding.signature}\n\n{finding.detail}"
    (folder / "finding.txt").write_text(text + "\n", encoding="utf-8", errors="replace")
    return folder
