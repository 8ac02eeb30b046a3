"""The long fuzz campaign: hostile inputs through every target of the harness (the library's,
``fuzz.targets``, and the commands', ``fuzz.cases``) for a time or input budget.

Run:  python -m fuzz.campaign [--seconds 600] [--inputs N] [--seed 1] [--workers 1]
      [--timeout 10] [--memory-mib 1536] [--only cli-read,pgn] [--no-shrink]
      python -m fuzz.campaign --replay cli-read:123456      (or a fuzz/out/ folder)

Inputs run in worker processes that this one watches: an input still running after
``--timeout`` seconds is a hang, and a worker whose resident memory grows ``--memory-mib``
past what it started with (a forked worker starts with its parent's) is a memory finding;
either way the worker is killed and a new one goes on. A worker that dies (a crash of
compiled code) is a finding too. Every other finding is what
:func:`fuzz.cli.faults` and the targets raise: an exception, ``E-INTERNAL``, the CLI's
last-resort line, a traceback or ``Exception ignored`` on standard error, an exit status
outside 0-2, a case's own check.

Each distinct finding (its signature: kind, exception type and where) gets a folder
``fuzz/out/<kind>-<target>-<seed>/``: ``finding.txt``, and for a command its smallest input
found (``files/``) and ``command.sh``. Exits 1 when there is a finding. The printed summary
gives inputs, findings, hangs and peak resident memory, overall and per target with each
target's rate. Not a test: the bounded version runs in tests/test_fuzz.py.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import multiprocessing
import os
import random
import re
import resource
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent / "out"
WEIGHTS = {
    # the library: cheap and deep, they carry the count
    "move": 300, "json-move": 60, "position": 250, "rules": 150, "pgn": 80, "json": 80,
    "nested": 4, "bytes": 40, "convert": 15, "batch": 10, "select": 10, "svar": 15,
    "foreign": 20, "json-types": 30,
    # the commands: fewer, each a whole run
    "cli-read": 1.5, "cli-round-trip": 0.8, "cli-json-types": 0.8, "cli-archive": 0.6,
    "cli-position": 0.6, "cli-options": 0.4, "cli-database": 0.4,
    # mostly real subprocesses (permissions, a full disk, --jobs 2) or many drawings
    "cli-files": 0.08, "cli-output": 0.08, "cli-viewer": 0.04, "cli-store": 0.08,
    "cli-subprocess": 0.04,
}
"""How often each target is drawn (relative)."""


@dataclasses.dataclass
class Tally:
    """Per target: inputs, seconds spent, diagnostics or statuses, findings, peak memory."""

    inputs: int = 0
    seconds: float = 0.0
    findings: int = 0
    peak_rss: int = 0

    def add(self, other: Tally) -> None:
        self.inputs += other.inputs
        self.seconds += other.seconds
        self.findings += other.findings
        self.peak_rss = max(self.peak_rss, other.peak_rss)


@dataclasses.dataclass
class Found:
    """One finding as a worker sends it."""

    kind: str
    signature: str
    target: str
    seed: int
    detail: str
    folder: str | None = None


def _rss_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _peak_rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _children_peak() -> int:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024


def classify(error: BaseException) -> Any:
    """The :class:`fuzz.cli.Finding` an exception out of a target is."""
    from fuzz.cli import Finding, exception_signature

    if isinstance(error, Finding):
        return error
    return Finding("exception", "".join(traceback.format_exception(error)),
                   exception_signature("exception", error))


def _folder_name(kind: str, target: str, seed: int) -> Path:
    return OUT / re.sub(r"[^A-Za-z0-9_.-]", "_", f"{kind}-{target}-{seed}")


def record_finding(found: Any, target: str, seed: int, *, shrink: bool,
                   heartbeat: Any = None) -> Found:
    """Write a finding's folder (its case shrunk first, when it has one)."""
    from fuzz.cli import shrink as shrink_case, work_directory, write_reproducer

    folder = _folder_name(found.kind, target, seed)
    case = getattr(found, "case", None)
    if case is not None:
        if shrink:
            if heartbeat is not None:
                heartbeat()
            case = shrink_case(case, found.signature, work_directory() / "case", runs=150,
                               seconds=20)
        write_reproducer(case, found, folder, target=target, seed=seed)
    else:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "finding.txt").write_text(
            f"{found.signature}\n\nreplay: python -m fuzz.campaign --replay {target}:{seed}\n\n"
            f"{found.detail}\n", encoding="utf-8", errors="replace")
    return Found(found.kind, found.signature, target, seed, found.detail[:3000], str(folder))


# ---- the worker ----------------------------------------------------------------------------

def _worker(number: int, generation: int, names: list[str], weights: list[float],
            seed: int, shared: Any, connection: Any, stop: Any, options: dict[str, Any],
            known: set[str]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from fuzz.cases import ALL_TARGETS

    picker = random.Random(f"{seed}-{number}-{generation}")
    tallies = {name: Tally() for name in names}
    seen = set(known)  # findings already written (by this worker's predecessors too)
    last = time.monotonic()
    memory = options["memory"]
    known_peak = 0
    inherited = _peak_rss()  # a forked worker's high-water mark starts at its parent's

    def heartbeat() -> None:
        shared[2] = time.monotonic_ns()

    def send() -> None:
        connection.send(("tally", {n: dataclasses.astuple(t) for n, t in tallies.items()
                                   if t.inputs}))
        for tally in tallies.values():
            tally.inputs, tally.seconds, tally.findings = 0, 0.0, 0

    while not stop.value:
        name = picker.choices(names, weights)[0]
        input_seed = picker.getrandbits(48)
        shared[0], shared[1], shared[3] = names.index(name), input_seed, 0
        heartbeat()
        start = time.perf_counter()
        found = None
        try:
            ALL_TARGETS[name](random.Random(input_seed))
        except Exception as error:  # noqa: BLE001 - what the campaign looks for
            found = classify(error)
        tally = tallies[name]
        tally.seconds += time.perf_counter() - start
        tally.inputs += 1
        peak = max(_peak_rss(), _children_peak())
        if peak > known_peak:  # this input raised the high-water mark
            tally.peak_rss, known_peak = max(tally.peak_rss, peak), peak
        if found is not None:
            tally.findings += 1
            if found.signature not in seen:
                seen.add(found.signature)
                shared[3] = 1  # shrinking: a hang now is not this input's
                report = record_finding(found, name, input_seed, shrink=options["shrink"],
                                        heartbeat=heartbeat)
                connection.send(("finding", report))
            else:
                connection.send(("again", (found.signature, name, input_seed)))
        if _peak_rss() - inherited > memory:
            connection.send(("memory", (name, input_seed, _peak_rss())))
            send()
            return  # a fresh worker goes on
        if time.monotonic() - last > 0.5:
            send()
            last = time.monotonic()
    send()


# ---- the supervisor ------------------------------------------------------------------------

@dataclasses.dataclass
class Worker:
    number: int
    generation: int
    process: Any
    connection: Any
    shared: Any


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--inputs", type=int, default=None, help="stop after this many inputs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=10, help="seconds before a hang")
    parser.add_argument("--memory-mib", type=int, default=1536,
                        help="growth of a worker's resident memory that is a finding")
    parser.add_argument("--only", default=None, help="comma-separated target names")
    parser.add_argument("--no-shrink", action="store_true",
                        help="write findings as found, without making their input smaller")
    parser.add_argument("--replay", default=None,
                        help="TARGET:SEED or a fuzz/out/ folder: run that input again")
    args = parser.parse_args(argv)
    from fuzz.cases import ALL_TARGETS

    if args.replay:
        return replay(args.replay)
    names = args.only.split(",") if args.only else list(ALL_TARGETS)
    unknown = [name for name in names if name not in ALL_TARGETS]
    if unknown:
        parser.error(f"unknown targets: {', '.join(unknown)} (known: {', '.join(ALL_TARGETS)})")
    weights = [WEIGHTS.get(name, 1) for name in names]
    OUT.mkdir(exist_ok=True)
    _warm_up(names)
    context = multiprocessing.get_context("fork")
    stop = context.Value("b", 0, lock=False)
    options = {"memory": args.memory_mib << 20, "shrink": not args.no_shrink}
    tallies = {name: Tally() for name in names}
    distinct: dict[str, list[Any]] = {}
    hangs: list[tuple[str, int, str]] = []
    memory: list[tuple[str, int, int]] = []
    crashes: list[tuple[str, int, int]] = []
    generations = collections.Counter[int]()

    def spawn(number: int) -> Worker:
        generations[number] += 1
        shared = context.Array("q", 4, lock=False)
        shared[2] = time.monotonic_ns()
        ours, theirs = context.Pipe(duplex=False)
        process = context.Process(target=_worker, args=(
            number, generations[number], names, weights, args.seed, shared, theirs, stop,
            options, set(distinct)), daemon=True)
        process.start()
        theirs.close()
        return Worker(number, generations[number], process, ours, shared)

    def drain(worker: Worker) -> None:
        while worker.connection.poll():
            try:
                kind, payload = worker.connection.recv()
            except (EOFError, OSError):
                return
            if kind == "tally":
                for name, values in payload.items():
                    tallies[name].add(Tally(*values))
            elif kind == "finding":
                entry = distinct.setdefault(payload.signature, [payload, 0])
                entry[1] += 1
                print(f"finding: {payload.signature} ({payload.target} seed {payload.seed})"
                      f" -> {payload.folder}", file=sys.stderr, flush=True)
            elif kind == "again":
                signature, target, seed = payload
                if signature in distinct:
                    distinct[signature][1] += 1
                else:  # another worker found it first; its report is on the way
                    distinct[signature] = [Found("?", signature, target, seed, ""), 1]
            elif kind == "memory":
                memory.append(payload)
                _write_lost(f"memory-{payload[0]}-{payload[1]}", payload[0], payload[1],
                            f"resident memory {payload[2] >> 20} MiB, past the bound")

    def total() -> int:
        return sum(t.inputs for t in tallies.values())

    def interrupted(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupted)  # a kill ends the workers too, with a summary
    start = time.monotonic()
    shown = start
    inherited = _rss_bytes(os.getpid())  # what a worker holds of its parent's when forked
    workers = [spawn(number) for number in range(args.workers)]
    try:
        while time.monotonic() - start < args.seconds and (
                args.inputs is None or total() < args.inputs):
            time.sleep(0.1)
            if time.monotonic() - shown > 30:
                shown = time.monotonic()
                print(f"... {shown - start:.0f} s, {total():,} inputs, {len(distinct)} distinct "
                      f"findings, {len(hangs)} hangs", file=sys.stderr, flush=True)
            for index, worker in enumerate(workers):
                drain(worker)
                now = time.monotonic_ns()
                name = names[worker.shared[0]]
                seed = worker.shared[1]
                shrinking = worker.shared[3] == 1
                limit = args.timeout * (12 if shrinking else 1)
                if (now - worker.shared[2]) / 1e9 > limit:
                    _kill(worker)
                    drain(worker)
                    if not shrinking:
                        hangs.append((name, seed, f"ran longer than {args.timeout:g} s"))
                        _write_lost(f"hang-{name}-{seed}", name, seed,
                                    f"input ran longer than {args.timeout:g} s")
                        print(f"hang: {name} seed {seed}", file=sys.stderr, flush=True)
                    workers[index] = spawn(worker.number)
                elif _rss_bytes(worker.process.pid) - inherited > options["memory"] * 1.5:
                    _kill(worker)
                    drain(worker)
                    memory.append((name, seed, _rss_bytes(worker.process.pid)))
                    _write_lost(f"memory-{name}-{seed}", name, seed, "resident memory past "
                                f"{args.memory_mib * 1.5:.0f} MiB while running")
                    workers[index] = spawn(worker.number)
                elif not worker.process.is_alive():
                    drain(worker)
                    code = worker.process.exitcode
                    if code not in (0, None) and (not memory or memory[-1][:2] != (
                            name, seed)):
                        crashes.append((name, seed, code))
                        _write_lost(f"crash-{name}-{seed}", name, seed,
                                    f"the worker died (exit code {code})")
                    workers[index] = spawn(worker.number)
    except KeyboardInterrupt:
        pass
    stop.value = 1
    for worker in workers:
        worker.process.join(timeout=args.timeout + 5)
        if worker.process.is_alive():
            _kill(worker)
        drain(worker)
    elapsed = time.monotonic() - start
    return _summary(args, names, tallies, distinct, hangs, memory, crashes, elapsed)


def _kill(worker: Worker) -> None:
    try:
        os.kill(worker.process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    worker.process.join(timeout=5)


def _warm_up(names: list[str]) -> None:
    """Build the shared material once, before the workers fork (they inherit it)."""
    from fuzz.cases import pristine_database, seeds
    from fuzz.targets import material
    from notation_tools.games.base import all_games

    for game in all_games():
        material(game)
    seeds()
    if any(name in ("cli-database",) for name in names):
        pristine_database()


def _write_lost(stem: str, target: str, seed: int, what: str) -> None:
    """A hang, a crash or a memory finding: the input's case (built again from its seed)
    without shrinking, or the replay line."""
    from fuzz.cases import CASES
    from fuzz.cli import write_reproducer

    folder = _folder_name(stem.split("-", 1)[0], target, seed)
    if target in CASES:
        case = CASES[target](random.Random(seed))
        write_reproducer(case, what, folder, target=target, seed=seed)
    else:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "finding.txt").write_text(
            f"{what}\n\nreplay: python -m fuzz.campaign --replay {target}:{seed}\n")


def _summary(args: Any, names: list[str], tallies: dict[str, Tally],
             distinct: dict[str, list[Any]], hangs: list[Any], memory: list[Any],
             crashes: list[Any], elapsed: float) -> int:
    inputs = sum(t.inputs for t in tallies.values())
    findings = sum(t.findings for t in tallies.values())
    peak = max([t.peak_rss for t in tallies.values()] + [0])
    print(f"fuzz campaign: seed {args.seed}, {args.workers} worker(s), {elapsed:.0f} s, "
          f"{inputs:,} inputs ({inputs / max(elapsed, 1e-9):,.0f}/s), {findings:,} findings "
          f"({len(distinct)} distinct), {len(hangs)} hangs, {len(memory)} over "
          f"{args.memory_mib} MiB, {len(crashes)} crashes, peak RSS {peak / 2**20:.0f} MiB")
    print(f"  {'target':16} {'inputs':>10} {'per s':>9} {'findings':>9} {'peak RSS':>9}")
    for name in names:
        tally = tallies[name]
        rate = tally.inputs / tally.seconds if tally.seconds else 0
        print(f"  {name:16} {tally.inputs:>10,} {rate:>9,.1f} {tally.findings:>9,} "
              f"{tally.peak_rss / 2**20:>8.0f}M")
    if distinct:
        print("distinct findings (count, first input, reproducer):")
        for signature, (found, count) in sorted(distinct.items(), key=lambda i: -i[1][1]):
            print(f"  {count:>6,}  {signature}\n          {found.target} seed {found.seed}"
                  f" -> {found.folder or '(written by another worker)'}")
    for label, rows in (("hangs", hangs), ("memory", memory), ("crashes", crashes)):
        for row in rows:
            print(f"  {label}: {row[0]} seed {row[1]} ({row[2]})")
    return 1 if findings or hangs or memory or crashes else 0


def replay(what: str) -> int:
    """Run one input again: ``TARGET:SEED``, or a folder the campaign wrote (its command is
    its ``command.sh``: run that instead when it has one)."""
    from fuzz.cases import ALL_TARGETS

    path = Path(what)
    if path.is_dir():
        name, _, seed = path.name.partition("-")[2].rpartition("-")
        if (path / "command.sh").exists():
            print(f"run {path / 'command.sh'} (the smallest input found), or "
                  f"--replay {name}:{seed} (the input as drawn)")
        target, number = name, int(seed)
    else:
        target, _, text = what.rpartition(":")
        number = int(text)
    try:
        ALL_TARGETS[target](random.Random(number))
    except Exception as error:  # noqa: BLE001
        found = classify(error)
        print(f"{found.signature}\n\n{found.detail}")
        case = getattr(found, "case", None)
        if case is not None:
            print(f"command: {case.command()}")
        return 1
    print("no finding")
    return 0


if __name__ == "__main__":
    sys.exit(main())
