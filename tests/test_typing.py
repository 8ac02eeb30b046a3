"""The package's type hints hold: ``mypy --strict`` on the whole of ``notation_tools`` (the
files and options of pyproject.toml's ``[tool.mypy]``)."""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[1]


def test_the_package_passes_mypy_strict(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # the files and options come from pyproject.toml's [tool.mypy]
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                "--cache-dir", str(tmp_path / "cache")])
    assert status == 0, out + err
    assert out.startswith("Success: no issues found in "), out
    checked = int(out.split()[5])
    assert checked == sum(1 for _ in (ROOT / "notation_tools").rglob("*.py")), out


def test_the_package_is_marked_typed():
    assert (ROOT / "notation_tools" / "py.typed").is_file()
    assert '"py.typed"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
