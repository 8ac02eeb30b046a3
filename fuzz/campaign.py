"""The long fuzz campaign: hostile inputs through every target of ``fuzz.targets`` for a time
budget, counting inputs, diagnostics, findings (tracebacks) and hangs, and the peak memory.

Run:  python -m fuzz.campaign [--seconds 600] [--seed 1] [--inputs N] [--timeout 10]
      [--only move,position]

A finding is any exception other than the toolkit's own refusals, or an input that runs longer
than ``--timeout`` seconds (a hang); each is written to ``fuzz/out/`` with its seed so it can be
replayed: ``python -m fuzz.campaign --replay fuzz/out/<file>``. Exits 1 when there is a finding.
Not a test: the bounded version runs in tests/test_fuzz.py.
"""

from __future__ import annotations

import argparse
import collections
import random
import resource
import signal
import sys
import time
import traceback
from pathlib import Path

from fuzz.targets import TARGETS

OUT = Path(__file__).resolve().parent / "out"
WEIGHTS = {"move": 30, "json-move": 10, "position": 25, "rules": 10, "pgn": 10, "json": 8,
           "nested": 2, "bytes": 6, "convert": 4, "batch": 2}
"""How often each target is drawn: the cheap, deep parsers most."""


class Hang(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise Hang()


def run_one(name: str, seed: int, timeout: int) -> tuple[str, int, str]:
    """Run target ``name`` on the input of ``seed``: ("ok" | "finding" | "hang", diagnostics,
    the traceback of a finding)."""
    signal.alarm(timeout)
    try:
        return "ok", TARGETS[name](random.Random(seed)), ""
    except Hang:
        return "hang", 0, f"input ran longer than {timeout} s"
    except Exception:  # noqa: BLE001 - this is what the campaign looks for
        return "finding", 0, traceback.format_exc()
    finally:
        signal.alarm(0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--inputs", type=int, default=None, help="stop after this many inputs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=int, default=10, help="seconds before a hang")
    parser.add_argument("--only", default=None, help="comma-separated target names")
    parser.add_argument("--replay", default=None, help="a finding file to run again")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    if args.replay:
        name, seed = Path(args.replay).read_text().split("\n", 2)[:2]
        status, _, trace = run_one(name.strip(), int(seed), args.timeout)
        print(status, trace)
        return 0 if status == "ok" else 1
    names = args.only.split(",") if args.only else list(TARGETS)
    weights = [WEIGHTS.get(name, 1) for name in names]
    picker = random.Random(args.seed)
    counts: collections.Counter[str] = collections.Counter()
    diagnostics: collections.Counter[str] = collections.Counter()
    findings = hangs = 0
    start = time.monotonic()
    OUT.mkdir(exist_ok=True)
    while time.monotonic() - start < args.seconds and (
            args.inputs is None or sum(counts.values()) < args.inputs):
        name = picker.choices(names, weights)[0]
        seed = picker.getrandbits(48)
        status, found, trace = run_one(name, seed, args.timeout)
        counts[name] += 1
        diagnostics[name] += found
        if status != "ok":
            findings += status == "finding"
            hangs += status == "hang"
            (OUT / f"{status}-{name}-{seed}.txt").write_text(f"{name}\n{seed}\n{trace}")
            print(f"{status}: {name} seed {seed}\n{trace}", file=sys.stderr)
    elapsed = time.monotonic() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    total = sum(counts.values())
    print(f"fuzz campaign: seed {args.seed}, {elapsed:.0f} s, {total:,} inputs "
          f"({total / elapsed:,.0f}/s), {sum(diagnostics.values()):,} diagnostics, "
          f"{findings} findings (tracebacks), {hangs} hangs, peak RSS {peak:.0f} MiB")
    for name in names:
        print(f"  {name:10} {counts[name]:>10,} inputs {diagnostics[name]:>12,} diagnostics")
    return 1 if findings or hangs else 0


if __name__ == "__main__":
    sys.exit(main())
