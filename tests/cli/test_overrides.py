"""--game, --rules, --to and --notation values that cannot apply are usage errors before any
record is read, in every command that takes them (issue #25); what only a record can tell
stays a diagnostic of that record, saying where its rules came from."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import invoke

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
MAKA_RECORD = str(SAMPLES / "maka" / "hook-mover-wins.pgn")
ELEVATION_RECORD = str(SAMPLES / "elevation" / "spec-example-two-plies.pgn")

# Every command that reads records and takes --rules, with what else it needs to run.
READING = {
    "validate": [],
    "show": [],
    "convert": ["--to", "json"],
    "select": [],
    "stats": [],
    "analyze": ["--jobs", "1"],
    "html": ["-o", "{tmp}/page.html"],
}
POSITION = {"moves": [], "perft": ["--depth", "1"], "generate": []}


def _args(command: str, extra: list[str], tmp_path: Path) -> list[str]:
    return [command, *(arg.format(tmp=tmp_path) for arg in extra)]


def _usage_error(result, option: str) -> str:
    """The one error line of a usage error naming ``option``; nothing else printed."""
    assert result.exit_code == 2, result.stderr
    assert result.stdout == ""
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and f"'{option}'" in errors[0], result.stderr
    assert "E-BAD-RULES" not in result.stderr and "Traceback" not in result.stderr
    return errors[0]


@pytest.mark.parametrize("command", READING)
def test_rules_no_game_accepts_are_a_usage_error_naming_the_profiles(runner, tmp_path,
                                                                     command):
    args = [*_args(command, READING[command], tmp_path), "--rules", "bogus",
            MAKA_RECORD if command == "show" else str(SAMPLES)]
    error = _usage_error(invoke(runner, args), "--rules")
    assert "no game has a rule profile 'bogus'" in error
    assert "maka-dai-dai-shogi: tsa, modern" in error and "game-of-war: debord" in error
    assert not (tmp_path / "page.html").exists()


@pytest.mark.parametrize("command", [*READING, *POSITION])
def test_rules_the_game_given_does_not_accept_are_a_usage_error(runner, tmp_path, command):
    extra = READING.get(command, POSITION.get(command))
    paths = [] if command in POSITION else [MAKA_RECORD]
    result = invoke(runner, [*_args(command, extra, tmp_path), "--game", "maka", "--rules",
                             "modern; no-such-option=1", *paths])
    error = _usage_error(result, "--rules")
    assert "unknown rule option 'no-such-option'" in error
    assert "'notation-tools games maka-dai-dai-shogi' lists its options" in error


@pytest.mark.parametrize("command", [*READING, *POSITION])
def test_an_unknown_game_is_a_usage_error_naming_the_games(runner, tmp_path, command):
    extra = READING.get(command, POSITION.get(command))
    paths = [] if command in POSITION else [MAKA_RECORD]
    result = invoke(runner, [*_args(command, extra, tmp_path), "--game", "chess", *paths])
    error = _usage_error(result, "--game")
    assert "unknown game 'chess'" in error and "elevation" in error


def test_rules_some_game_accepts_stay_per_record_and_name_rules(runner):
    """Without --game, 'undermining=yes' suits Elevation: the Maka record is told why."""
    result = invoke(runner, ["validate", "--rules", "undermining=yes", MAKA_RECORD,
                             ELEVATION_RECORD])
    assert result.exit_code == 1
    assert result.stdout.startswith("2 records: 1 valid, 1 invalid")
    assert ("error[E-BAD-RULES]: --rules 'undermining=yes' (given for every record) does not "
            "suit maka-dai-dai-shogi: unknown rule option 'undermining'") in result.stderr


def test_rules_mixing_two_games_names_whose_each_name_is(runner):
    result = invoke(runner, ["validate", "--rules", "tsa; undermining=yes", MAKA_RECORD])
    error = _usage_error(result, "--rules")
    assert "'tsa': maka-dai-dai-shogi; 'undermining': elevation" in error


def test_rules_with_a_bad_value_name_the_games_that_know_the_option(runner):
    result = invoke(runner, ["analyze", "--jobs", "1", "--rules", "max-height=-1", MAKA_RECORD])
    error = _usage_error(result, "--rules")
    assert "elevation: option max-height" in error


def test_game_overriding_the_variant_says_so_in_the_rules_diagnostic(runner):
    result = invoke(runner, ["validate", "--game", "shih", MAKA_RECORD])
    assert result.exit_code == 1
    assert ("Rules tag: unknown rule profile 'tsa' (profiles: standard); --game shih overrode "
            "the record's Variant 'maka-dai-dai-shogi', whose rules these are") in result.stderr


def test_convert_to_a_notation_or_format_the_game_lacks_is_a_usage_error(runner, tmp_path):
    out = tmp_path / "out.pgn"
    notation = invoke(runner, ["convert", "--game", "shih", "--to", "tsa", MAKA_RECORD,
                               "-o", str(out)])
    error = _usage_error(notation, "--to")
    assert "shih has no notation 'tsa' ('tsa' is a notation of maka-dai-dai-shogi)" in error
    assert "shih: shih, shih-wall" in error
    file_format = invoke(runner, ["convert", "--game", "maka", "--to", "kfen", MAKA_RECORD])
    error = _usage_error(file_format, "--to")
    assert "maka-dai-dai-shogi has no file format 'kfen' ('kfen' is a format of game-of-war)" \
        in error
    moves = invoke(runner, ["convert", "--game", "gow", "--to", "json", "--notation", "cell",
                            MAKA_RECORD])
    assert "game-of-war has no notation 'cell'" in _usage_error(moves, "--notation")
    assert not out.exists()
    fine = invoke(runner, ["convert", "--game", "maka", "--to", "coord", MAKA_RECORD])
    assert fine.exit_code == 0 and fine.stdout.startswith("[Event")


def test_select_judges_rules_and_notation_by_its_game_filters(runner):
    result = invoke(runner, ["select", "--game", "shih", "--rules", "tsa", str(SAMPLES)])
    assert "unknown rule profile 'tsa' (profiles: standard)" in _usage_error(result, "--rules")
    result = invoke(runner, ["select", "--game", "shih", "--game", "elevation", "--notation",
                             "tsa", str(SAMPLES)])
    assert "elevation and shih have no notation 'tsa'" in _usage_error(result, "--notation")
    kept = invoke(runner, ["select", "--game", "maka", "--rules", "modern", "--valid",
                           str(SAMPLES / "maka")])
    assert kept.exit_code == 0


@pytest.mark.parametrize("command", ["moves", "generate"])
def test_a_notation_the_game_lacks_is_a_usage_error(runner, command):
    result = invoke(runner, [command, "--game", "maka", "--notation", "shih"])
    error = _usage_error(result, "--notation")
    assert "maka-dai-dai-shogi has no notation 'shih'" in error and "tsa, tsa-full" in error


def test_the_python_api_refuses_rules_no_game_accepts_at_once():
    import notation_tools
    from notation_tools.games.base import BadRulesError

    with pytest.raises(BadRulesError, match="no game has a rule profile 'bogus'"):
        notation_tools.read(str(SAMPLES / "maka"), rules="bogus")
    with pytest.raises(BadRulesError, match="unknown rule profile 'tsa'"):
        notation_tools.read(MAKA_RECORD, game="shih", rules="tsa")
    record = notation_tools.read_one(MAKA_RECORD, rules="undermining=yes")
    assert "--rules 'undermining=yes'" in record.replay().diagnostics[0].message
