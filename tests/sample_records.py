"""Sample files through the real pipeline (sources, container, replay), for the game tests."""

from __future__ import annotations

from pathlib import Path

from notation_tools.parallel.batch import iter_records
from notation_tools.analysis.replay import Replay, replay
from notation_tools.records.diagnostics import Diagnostic

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"


def replay_file(path: Path) -> list[Replay]:
    """Every record of ``path`` replayed; an unreadable file fails the test."""
    results = []
    for item in iter_records([str(path)]):
        assert not isinstance(item, Diagnostic), str(item)
        results.append(replay(item))
    return results


def first_error(path: Path) -> str | None:
    """The code of the first error in the file (by record, line, column), or None."""
    errors = [(r.record.index, d.line, d.column, d.code) for r in replay_file(path)
              for d in r.diagnostics if d.is_error]
    return min(errors)[3] if errors else None
