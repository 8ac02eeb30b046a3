"""Every file of sample_games/ through the CLI: valid ones pass, broken ones are diagnosed.

A file whose name starts with 'broken-' is deliberately faulty and must give at least one
error diagnostic, located, without a crash; every other file must validate cleanly.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import invoke

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
FILES = sorted(p for p in SAMPLES.rglob("*") if p.is_file())


def test_there_are_valid_and_broken_samples():
    assert any(p.name.startswith("broken-") for p in FILES)
    assert any(not p.name.startswith("broken-") for p in FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_sample_file(runner, path):
    result = invoke(runner, ["validate", "--format", "json", str(path)])
    report = json.loads(result.stdout)
    diagnostics = [d for r in report["records"] for d in r.get("diagnostics", [])]
    diagnostics += [r["io_error"] for r in report["records"] if "io_error" in r]
    errors = [d for d in diagnostics if d["severity"] == "error"]
    if path.name.startswith("broken-"):
        assert errors, f"{path.name} should be diagnosed"
        assert result.exit_code in (1, 2)
        for error in errors:
            if error["code"] != "E-IO":
                assert error["line"] >= 1 and error["column"] >= 1, error
    else:
        assert not errors, errors
        assert result.exit_code == 0
        assert report["summary"]["records"] >= 1


def test_main_job_analyzes_all_samples_and_completes(runner):
    # The README's main job: a report over valid and broken records alike exits 0.
    result = invoke(runner, ["analyze", "--jobs", "1", str(SAMPLES)])
    assert result.exit_code == 0, result.stderr
    assert "Diagnostics by code" in result.stdout
    strict = invoke(runner, ["analyze", "--jobs", "1", "--strict", str(SAMPLES)])
    assert strict.exit_code == 2  # sample_games holds unreadable inputs on purpose
