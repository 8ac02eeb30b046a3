"""The public API's type hints hold: ``mypy --strict`` on the modules ``[tool.mypy]`` names."""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[1]


def test_public_modules_pass_mypy_strict(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # the files and options come from pyproject.toml's [tool.mypy]
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                "--cache-dir", str(tmp_path / "cache")])
    assert status == 0, out + err
    assert "Success: no issues found in 5 source files" in out


def test_the_package_is_marked_typed():
    assert (ROOT / "notation_tools" / "py.typed").is_file()
    assert '"py.typed"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
