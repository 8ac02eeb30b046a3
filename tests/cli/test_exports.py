"""Exports that read back (issue #16): a game's own file formats hold one record a file, and
every record written in one reads back to the same moves (or, for a one-position format, the
same position)."""

from __future__ import annotations

import copy

import pytest

from notation_tools.parallel.batch import iter_records
from notation_tools.analysis.generate import generate_records
from notation_tools.analysis.replay import replay
from notation_tools.games.base import all_games
from notation_tools.records.pgn import write_record
from tests.conftest import invoke

FORMATS = [(game, fmt) for game in all_games() for fmt in game.file_formats
           if fmt.write is not None]  # a read-only format (.svar) is not written


def _records(game, count: int = 3):
    return list(generate_records(game, game.parse_rules(None), count=count, seed=16,
                                 max_plies=24))


@pytest.mark.parametrize("game, fmt", FORMATS, ids=[f"{g.id}:{f.name}" for g, f in FORMATS])
def test_every_record_exported_reads_back(runner, tmp_path, game, fmt):
    records = _records(game)
    source = tmp_path / "in.pgn"
    source.write_text("".join(write_record(r) for r in records), encoding="utf-8")
    out = tmp_path / "out"
    result = invoke(runner, ["convert", str(source), "--to", fmt.name, "-o", f"{out}/"])
    assert result.exit_code == 0, result.stderr
    files = sorted(out.iterdir())
    assert len(files) == len(records)
    assert all(f.name.endswith(fmt.file_suffix) for f in files)
    for record, path in zip(records, files):
        (back,) = [r for r in iter_records([str(path)])]
        original = replay(copy.deepcopy(record), digest=True)
        again = replay(back, digest=True)
        assert again.is_valid, back.diagnostics
        if not fmt.positional:  # a game record: the same moves from the same start
            assert again.digest == original.digest
            assert game.format_position(again.position) == \
                game.format_position(original.position)
        # what the format holds survives: written again from what was read, the same text
        rewritten = invoke(runner, ["convert", str(path), "--to", fmt.name])
        assert rewritten.exit_code == 0 and rewritten.stdout == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("game, fmt", FORMATS, ids=[f"{g.id}:{f.name}" for g, f in FORMATS])
def test_several_records_into_one_file_is_a_usage_error(runner, tmp_path, game, fmt):
    source = tmp_path / "in.pgn"
    source.write_text("".join(write_record(r) for r in _records(game, 2)), encoding="utf-8")
    target = tmp_path / "one.out"
    result = invoke(runner, ["convert", str(source), "--to", fmt.name, "-o", str(target)])
    assert result.exit_code == 2 and "-o DIRECTORY" in result.stderr
    assert not target.exists()
    stdout = invoke(runner, ["convert", str(source), "--to", fmt.name])
    assert stdout.exit_code == 2 and stdout.stdout == ""


@pytest.mark.parametrize("game, fmt", FORMATS, ids=[f"{g.id}:{f.name}" for g, f in FORMATS])
def test_one_record_goes_to_the_file_named(runner, tmp_path, game, fmt):
    source = tmp_path / "in.pgn"
    (record,) = _records(game, 1)
    source.write_text(write_record(record), encoding="utf-8")
    target = tmp_path / f"single{fmt.file_suffix}"
    assert invoke(runner, ["convert", str(source), "--to", fmt.name, "-o",
                           str(target)]).exit_code == 0
    (back,) = list(iter_records([str(target)]))
    assert replay(back).is_valid


def test_there_are_file_formats_to_check():
    assert len(FORMATS) >= 3
