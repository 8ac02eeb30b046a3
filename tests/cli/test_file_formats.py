"""Games' own file formats through the CLI: written by convert, recognised and read as input.

Game of War's KFEN, pykrieg .kfen records and ebarjou saves (its spec §14) are the formats
registered today; the checks run for every registered format.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from notation_tools.analysis.foreign import _TAG_PAIR_HEAD, claim_format, formats
from notation_tools.games.base import get_game
from tests.conftest import invoke

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
FORMATS = sorted(key for key, (_, fmt) in formats().items() if fmt.write is not None)


def a_record_of(game_id: str) -> Path:
    return next(p for p in sorted((SAMPLES / game_id).glob("*.pgn"))
                if not p.name.startswith("broken-"))


@pytest.mark.parametrize("key", FORMATS)
def test_written_files_are_recognised_and_replay(runner, tmp_path, key):
    game_id, name = key.split(":")
    source = a_record_of(game_id)
    written = invoke(runner, ["convert", str(source), "--to", name])
    assert written.exit_code == 0, written.stderr
    assert claim_format(written.stdout[:8192]) == key
    path = tmp_path / f"out.{name}"
    path.write_text(written.stdout)
    check = invoke(runner, ["validate", "-f", "json", str(path)])
    assert '"valid": true' in check.stdout, check.stdout + check.stderr


def test_positional_format_holds_the_position_after_the_chosen_ply(runner, tmp_path):
    source = a_record_of("game-of-war")
    after_two = invoke(runner, ["show", str(source), "--ply", "2", "--format", "fen"]).stdout
    kfen = invoke(runner, ["convert", str(source), "--to", "kfen", "--ply", "2"]).stdout
    path = tmp_path / "two.kfen"
    path.write_text(kfen)
    assert invoke(runner, ["show", str(path), "--format", "fen"]).stdout == after_two


def test_record_format_keeps_every_move(runner, tmp_path):
    source = a_record_of("game-of-war")
    original = invoke(runner, ["validate", "-v", str(source)]).stdout.splitlines()[0]
    plies = original.split(", ")[-2]
    path = tmp_path / "game.kfen"
    path.write_text(invoke(runner, ["convert", str(source), "--to", "kfen-json"]).stdout)
    again = invoke(runner, ["validate", "-v", str(path)]).stdout.splitlines()[0]
    assert again.split(", ")[-2] == plies


def test_pgn_and_json_samples_are_never_claimed():
    for path in SAMPLES.rglob("*"):
        if path.suffix in (".pgn", ".json", ".jsonl", ".txt"):
            head = path.read_bytes()[:8192].decode("utf-8", "replace")
            assert claim_format(head) is None, path


def test_unreadable_foreign_file_is_a_located_error(runner, tmp_path):
    path = tmp_path / "bad.kfen"
    path.write_text('{"kfen_version": "1.0", "board_info": 3}')
    result = invoke(runner, ["validate", str(path)])
    assert result.exit_code == 1 and "E-KFEN" in result.stderr


def test_a_format_of_another_game_is_refused(runner, tmp_path):
    games_with_formats = {key.split(":")[0] for key in FORMATS}
    other = next(g for g in ("shih", "shuriken-2d", "elevation") if g not in games_with_formats)
    name = FORMATS[0].split(":")[1]
    result = invoke(runner, ["convert", str(a_record_of(other)), "--to", name,
                             "-o", f"{tmp_path}/out/"])
    assert result.exit_code == 1 and "has no file format" in result.stderr
    assert get_game(other).file_formats == ()


def test_a_pgn_file_opening_with_a_tag_pair_is_claimed_by_no_format():
    # claim_format answers such a file without asking the formats: none may claim it.
    heads = [path.read_bytes()[:8192].decode("utf-8", "replace")
             for path in sorted(SAMPLES.rglob("*.pgn"))]
    heads = [head for head in heads if _TAG_PAIR_HEAD.match(head)]
    assert heads
    for _, fmt in formats().values():
        for head in heads:
            assert not fmt.sniff(head), fmt.name


def test_validating_a_pgn_file_imports_only_the_game_it_names(tmp_path):
    path = tmp_path / "one.pgn"
    path.write_text(a_record_of("shih").read_text())
    script = ("import sys\nfrom notation_tools.cli import run\n"
              f"sys.argv = ['notation-tools', 'validate', {str(path)!r}]\n"
              "try:\n    run()\nexcept SystemExit:\n    pass\n"
              "print(sorted({m.split('.')[2] for m in sys.modules"
              " if m.startswith('notation_tools.games.') and m.count('.') >= 3}))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    assert done.stdout.splitlines()[-1] == "['shih']"
