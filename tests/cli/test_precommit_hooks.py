"""The repository's .pre-commit-hooks.yaml, run as a pre-commit user runs it (issue #28):
``pre-commit try-repo`` installs this repository into its own environment (from PyPI: the
network is needed) and runs the hooks on a sample repository of records. Slow (two
minutes, mostly the installs): run with -m slow."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_games"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def _try_repo(repo: Path) -> subprocess.CompletedProcess[str]:
    """Every hook of the repository (one install of it), on every file of ``repo``."""
    env = {**os.environ, "PRE_COMMIT_HOME": str(repo.parent / "pre-commit-cache"),
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(ROOT),
                           "--all-files"], cwd=repo, env=env, capture_output=True, text=True,
                          timeout=600)


def _outcome(output: str, hook: str) -> str:
    """``Passed`` or ``Failed``: what pre-commit says of the hook named ``hook``."""
    line = next(line for line in output.splitlines() if line.startswith(hook + "."))
    return line.rsplit(".", 1)[-1].strip()


@pytest.mark.slow  # two minutes: pre-commit installs this repository from PyPI twice
def test_the_hooks_pass_good_records_and_fail_bad_ones(tmp_path):
    repo = tmp_path / "records"
    repo.mkdir()
    _git(repo, "init", "-q")
    good = repo / "good.pgn"
    shutil.copy(SAMPLES / "elevation" / "club-league-round1-capture-win.pgn", good)
    subprocess.run([sys.executable, "-m", "notation_tools", "fmt", str(good)], check=True,
                   capture_output=True)  # the good record, formatted
    _git(repo, "add", ".")
    passed = _try_repo(repo)
    assert passed.returncode == 0, passed.stdout
    for hook in ("notation-tools fmt", "notation-tools fmt --check", "notation-tools validate"):
        assert _outcome(passed.stdout, hook) == "Passed"

    messy = good.read_text(encoding="utf-8").replace("\n\n1. ", "\n\n1.   ")
    (repo / "messy.pgn").write_text(messy, encoding="utf-8")
    shutil.copy(SAMPLES / "elevation" / "broken-illegal-move.pgn", repo / "illegal.pgn")
    _git(repo, "add", ".")
    failed = _try_repo(repo)
    assert failed.returncode == 1
    assert _outcome(failed.stdout, "notation-tools fmt --check") == "Failed"
    assert "reformatted messy.pgn" in failed.stdout
    assert _outcome(failed.stdout, "notation-tools validate") == "Failed"
    assert "illegal.pgn:11:37: error[E-ILLEGAL-MOVE]" in failed.stdout
    assert _outcome(failed.stdout, "notation-tools fmt") == "Failed"  # it rewrote messy.pgn
    assert (repo / "messy.pgn").read_text(encoding="utf-8") == good.read_text(encoding="utf-8")
