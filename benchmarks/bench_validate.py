"""Whole-process validation speed of every game, as a user runs it (issue #14). Not a test.

Generates (once, cached in ``benchmarks/out/``) ``--count`` random games per game with
``notation-tools generate --seed``, then times ``notation-tools validate FILE`` as a separate
process, best of ``--repeat`` runs, and prints plies/s per game against the issue's target.
When python-chess is installed (the ``bench`` extra) it also generates as many random chess
games and times a small process that reads and replays them with python-chess
(``chess.pgn.read_game`` and ``board.push`` of the main line): Maka's rate over that one is
the issue's ratio. It then times ``notation-tools --help`` and ``analyze``/``stats`` against
``validate`` on the same inputs: the three commands take turns on each input, ``--repeat``
rounds, so that a busy spell of a shared machine weighs on all three. Each ratio is given two
ways: of the commands' best times, and as the median (and range) of the ratios within each
round; when the two disagree, or the range is wide, the machine was too busy to tell.

Each run is measured twice: wall-clock seconds and the process's CPU seconds (user + system,
from ``wait4``). On a machine shared with other work the CPU seconds are the stable figure, so
the ratios use them unless ``--clock wall`` says otherwise. Usage:

    python benchmarks/bench_validate.py [--repeat 3] [--count 500] [--seed 14] [--clock cpu]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"
GAMES = ("maka", "gow", "shih", "elevation", "shuriken")
TARGETS = {"gow": 25_000, "shih": 25_000, "elevation": 40_000, "shuriken": 200_000}
"""The issue's plies/s targets; Maka's is python-chess's rate measured in the same run."""
TODAY = {"maka": 24_000, "gow": 10_000, "shih": 7_700, "elevation": 16_000, "shuriken": 80_000}
"""The rates the issue measured before the work, for the 2.5x check."""
HELP_TARGET = 0.15
ANALYZE_LIMIT, STATS_LIMIT = 1.3, 1.2
CHESS_REPLAY = """\
import sys
import chess.pgn

plies = 0
with open(sys.argv[1], encoding="utf-8") as handle:
    while (game := chess.pgn.read_game(handle)) is not None:
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            plies += 1
print(plies)
"""


def command() -> list[str]:
    """How a user starts the program: the installed script, else ``python -m``."""
    script = Path(sys.executable).with_name("notation-tools")
    if script.exists():
        return [str(script)]
    found = shutil.which("notation-tools")
    return [found] if found else [sys.executable, "-m", "notation_tools"]


# As a user runs it: Python may cache compiled modules (a developer's shell often says not to).
ENVIRONMENT = {name: value for name, value in os.environ.items()
               if name != "PYTHONDONTWRITEBYTECODE"}


def run_once(argv: list[str]) -> tuple[float, float, bytes]:
    """(wall seconds, CPU seconds, standard output) of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               env=ENVIRONMENT)
    out = process.stdout.read() if process.stdout else b""
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed with status {process.returncode}")
    return wall, usage.ru_utime + usage.ru_stime, out


def best(argv: list[str], repeat: int) -> tuple[float, float]:
    """The best wall and the best CPU seconds of ``repeat`` runs, after one untimed run (which
    leaves the compiled modules and the input in the caches)."""
    return best_interleaved([argv], repeat)[0]


def rounds_interleaved(commands: list[list[str]], repeat: int) -> list[list[tuple[float, float]]]:
    """``repeat`` rounds that run every command once in turn, after one untimed round: per
    round, the wall and CPU seconds of each command. Taking turns spreads a busy spell of a
    shared machine over all the commands, so the ratios of their times hold better than when
    each command's runs come one after another."""
    for argv in commands:
        run_once(argv)
    return [[run_once(argv)[:2] for argv in commands] for _ in range(repeat)]


def best_of(rounds: list[list[tuple[float, float]]]) -> list[tuple[float, float]]:
    """The best wall and the best CPU seconds of each command over ``rounds``."""
    return [(min(r[index][0] for r in rounds), min(r[index][1] for r in rounds))
            for index in range(len(rounds[0]))]


def best_interleaved(commands: list[list[str]], repeat: int) -> list[tuple[float, float]]:
    """The best wall and the best CPU seconds of each command over :func:`rounds_interleaved`."""
    return best_of(rounds_interleaved(commands, repeat))


def generated(game: str, count: int, seed: int) -> Path:
    """The cached file of ``count`` random ``game`` games (made on first use)."""
    path = OUT / f"{game}-{count}-seed{seed}.pgn"
    if not path.exists():
        OUT.mkdir(exist_ok=True)
        partial = path.with_suffix(".part")
        started = time.perf_counter()
        subprocess.run([*command(), "generate", "--game", game, "--count", str(count),
                        "--seed", str(seed), "-o", str(partial)], check=True)
        partial.rename(path)
        print(f"  (generated {path.name} in {time.perf_counter() - started:.0f} s)",
              file=sys.stderr)
    return path


def plies_of(path: Path) -> int:
    """Main-line plies replayed in ``path``; every record must be valid."""
    _, _, out = run_once([*command(), "validate", "-q", "-f", "jsonl", str(path)])
    reports = [json.loads(line) for line in out.decode().splitlines() if line.strip()]
    invalid = sum(1 for report in reports if not report["valid"])
    if invalid:
        raise SystemExit(f"{path}: {invalid} invalid records; the benchmark needs valid ones")
    return sum(report["plies"] for report in reports)


def chess_games(count: int, seed: int, max_plies: int = 200) -> Path | None:
    """The cached PGN of ``count`` random chess games, or None without python-chess."""
    try:
        import chess
        import chess.pgn
    except ImportError:
        return None
    path = OUT / f"chess-{count}-seed{seed}.pgn"
    if path.exists():
        return path
    OUT.mkdir(exist_ok=True)
    rng = random.Random(seed)
    with open(path.with_suffix(".part"), "w", encoding="utf-8") as handle:
        for index in range(1, count + 1):
            board = chess.Board()
            while len(board.move_stack) < max_plies and not board.is_game_over():
                board.push(rng.choice(list(board.legal_moves)))
            game = chess.pgn.Game.from_board(board)
            game.headers["Event"] = "random"
            game.headers["Round"] = str(index)
            print(game, file=handle, end="\n\n")
    path.with_suffix(".part").rename(path)
    return path


def rate(plies: int, seconds: float) -> str:
    return f"{plies / seconds:,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", "-n", type=int, default=3, help="runs per figure (best kept)")
    parser.add_argument("--count", type=int, default=500, help="games per game")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="which seconds the rates and ratios use (both are printed)")
    args = parser.parse_args()
    use = 1 if args.clock == "cpu" else 0
    program = command()
    print(f"notation-tools validate, whole process, best of {args.repeat}; "
          f"{args.count} generated games each (seed {args.seed}); rates use {args.clock} time")
    files = {game: generated(game, args.count, args.seed) for game in args.games}
    chess_file = chess_games(args.count, args.seed)

    chess_rate = None
    if chess_file is not None:
        script = OUT / "chess_replay.py"
        script.write_text(CHESS_REPLAY, encoding="utf-8")
        _, _, out = run_once([sys.executable, str(script), str(chess_file)])
        chess_plies = int(out)
        times = best([sys.executable, str(script), str(chess_file)], args.repeat)
        chess_rate = chess_plies / times[use]
        print(f"\npython-chess (read_game + push), {chess_plies} plies: wall {times[0]:.2f} s "
              f"({rate(chess_plies, times[0])} plies/s), cpu {times[1]:.2f} s "
              f"({rate(chess_plies, times[1])} plies/s)")
    else:
        print("\npython-chess is not installed (pip install '.[bench]'): no Maka ratio")

    print(f"\n{'game':10} {'plies':>7} {'wall s':>7} {'cpu s':>7} {'plies/s':>9} "
          f"{'target':>9} {'ratio':>6} {'x today':>7}")
    validate_times, analyze_times, stats_times = {}, {}, {}
    round_ratios: dict[str, list[tuple[float, float]]] = {}
    for game, path in files.items():
        plies = plies_of(path)
        # validate, analyze and stats take turns, so that their ratios below compare runs
        # made in the same spell of the machine.
        rounds = rounds_interleaved(
            [[*program, "validate", str(path)],
             [*program, "analyze", "--jobs", "1", str(path)],
             [*program, "stats", "-f", "csv", str(path)]], args.repeat)
        times, analyze_times[game], stats_times[game] = best_of(rounds)
        round_ratios[game] = [(r[1][use] / r[0][use], r[2][use] / r[0][use]) for r in rounds]
        validate_times[game] = times
        per_second = plies / times[use]
        target = chess_rate if game == "maka" else TARGETS[game]
        ratio = f"{per_second / target:6.2f}" if target else "     -"
        target_text = f"{target:9,.0f}" if target else "        -"
        print(f"{game:10} {plies:7} {times[0]:7.2f} {times[1]:7.2f} {per_second:9,.0f} "
              f"{target_text} {ratio} {per_second / TODAY[game]:7.2f}")
    print("(maka's target is python-chess's rate above; 'x today' is over the issue's "
          "'today' figure, which was measured on wall time)")

    help_times = best([*program, "--help"], max(args.repeat, 5))
    print(f"\nnotation-tools --help: wall {help_times[0]:.3f} s, cpu {help_times[1]:.3f} s "
          f"(target < {HELP_TARGET} s)")

    print(f"\n{'game':10} {'analyze/validate':>17} {'stats/validate':>15}   "
          f"(limits {ANALYZE_LIMIT} and {STATS_LIMIT}; analyze --jobs 1)")
    print(f"{'':10} {'best':>6} {'median':>10} {'best':>6} {'median':>8}   (best: of each "
          "command's best times; median: of the rounds' own ratios, lowest-highest)")
    for game in files:
        base = validate_times[game][use]
        analyze, stats = analyze_times[game][use], stats_times[game][use]
        spreads = [_spread(sorted(ratios)) for ratios in zip(*round_ratios[game])]
        print(f"{game:10} {analyze / base:6.2f} {spreads[0]:>10} {stats / base:6.2f} "
              f"{spreads[1]:>8}")


def _spread(ratios: list[float]) -> str:
    """The median of sorted ``ratios`` and their range, as ``1.23 (1.20-1.31)``."""
    return f"{statistics.median(ratios):.2f} ({ratios[0]:.2f}-{ratios[-1]:.2f})"


if __name__ == "__main__":
    main()
