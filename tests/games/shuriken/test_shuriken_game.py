"""The Shuriken 2D Game object: identity, rule options, tags, sniffing, purity, sample games."""

from __future__ import annotations

import ast
import dataclasses
import pathlib
import random
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from shuriken_vectors import S1_AFTER_K10, S2, START  # noqa: E402

from notation_tools.games.base import (  # noqa: E402
    BadRulesError, EngineError, Game, IllegalMoveError, TagConflictError, options_of)
from notation_tools.games.shuriken import (  # noqa: E402
    GAME, Options, Place, Position, Stats, Swap)
from notation_tools.games.shuriken.notation import DIALECT, NOTATIONS  # noqa: E402
from notation_tools.games.shuriken.options import STANDARD_OPTIONS  # noqa: E402
from notation_tools.games.shuriken.sampling import SAMPLER  # noqa: E402
from notation_tools.records.pgn import read_records  # noqa: E402
from notation_tools.analysis.perft import perft
from notation_tools.analysis.generate import random_move

ROOT = pathlib.Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "notation_tools" / "games" / "shuriken"
SAMPLES = ROOT / "sample_games" / "shuriken-2d"


# ---- identity and rules -------------------------------------------------------------------


def test_s0_identity():
    """Spec head: id, aliases, sides; `1-0` is a Black (first player) win."""
    assert isinstance(GAME, Game)
    assert GAME.id == "shuriken-2d"
    assert set(GAME.aliases) == {"shuriken", "loophole"}
    assert GAME.sides == ("Black", "White")
    assert GAME.results == ("1-0", "0-1")
    assert GAME.notations == ("cell",)
    assert GAME.rules_doc == "docs/rules/shuriken-2d.md"


@pytest.mark.parametrize("text, swap", [
    (None, False), ("", False), ("standard", False), ("swap=no", False), ("swap=yes", True),
    ("swap", True), ("standard; swap=yes", True)])
def test_s6_swap_option_values(text, swap):
    """§6: option swap (no/yes, default no); profile standard = all defaults."""
    rules = GAME.parse_rules(text)
    assert rules["swap"] is swap
    assert rules.profile == "standard"
    assert GAME.start_position(rules).options.swap is swap


@pytest.mark.parametrize("text", ["swap=maybe", "pie=yes", "modern", "standard; size=13"])
def test_s6_bad_rules(text):
    with pytest.raises(BadRulesError):
        GAME.parse_rules(text)


def test_s6_options_table():
    assert [option.name for option in GAME.options] == ["swap"]
    assert GAME.options[0].default == "no" and GAME.options[0].spec == "§6"
    assert GAME.profiles == {"standard": {}}


@pytest.mark.parametrize("text, swap", [
    (None, False), ("swap=no", False), ("swap=yes", True), ("swap", True)])
def test_s6_options_dataclass_per_value(text, swap):
    """§6: the engine reads a frozen Options dataclass, one typed field per option."""
    options = options_of(Options, GAME.parse_rules(text))
    assert options == Options(swap=swap) and options.swap is swap
    assert options is options_of(Options, GAME.parse_rules(text))   # cached per rules
    assert GAME.start_position(GAME.parse_rules(text)).options is options
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.swap = not swap  # type: ignore[misc]


def test_options_dataclass_matches_the_option_rows():
    """One field per option row (``-`` written ``_``); the standard profile's values are the
    defaults of positions built without rules."""
    assert [field.name for field in dataclasses.fields(Options)] == [
        option.field_name for option in GAME.options]
    assert not hasattr(Options(swap=False), "__dict__")   # slots
    assert STANDARD_OPTIONS == options_of(Options, GAME.parse_rules("standard"))
    assert Position.start().options == STANDARD_OPTIONS


def test_template_names_and_codes():
    """docs/development.md: the package's names, and E-BAD-SQUARE as the game's one code."""
    import notation_tools.games.shuriken as package
    assert package.Move == Place | Swap
    assert GAME.dialect is DIALECT and GAME.sampler is SAMPLER
    assert GAME.notations == NOTATIONS == ("cell",)
    assert [(code.code, code.severity, code.section) for code in GAME.codes] == [
        ("E-BAD-SQUARE", "error", "§1.1")]
    assert isinstance(GAME.new_stats(GAME.parse_rules(None)), Stats)


# ---- start position and tags --------------------------------------------------------------


def test_s2_1_first_player_tags():
    """§2.1: Black places first; FirstPlayer White needs a FEN with White to move."""
    rules = GAME.parse_rules(None)
    assert GAME.start_position(rules, first_player=0).turn == 0
    with pytest.raises(TagConflictError):
        GAME.start_position(rules, first_player=1)
    assert GAME.start_position(rules, fen=S1_AFTER_K10, first_player=1).turn == 1
    with pytest.raises(TagConflictError):
        GAME.start_position(rules, fen=S1_AFTER_K10, first_player=0)
    assert GAME.parse_side("black") == 0 and GAME.parse_side("W") == 1


def test_s5_fen_start_equal_to_the_standard_start_allows_swap():
    """§6: a FEN that is the standard start string is the standard start (swap allowed)."""
    rules = GAME.parse_rules("swap=yes")
    position = GAME.start_position(rules, fen=START)
    position.push(GAME.parse_move("K10", position))
    assert GAME.format_move(GAME.parse_move("swap", position), position) == "swap"


# ---- sniff, random games, perft -----------------------------------------------------------


def test_sniff():
    assert GAME.dialect.sniff(["K10", "J9", "A1"])
    assert GAME.dialect.sniff(["K10", "swap", "A1"])
    assert not GAME.dialect.sniff([])
    assert not GAME.dialect.sniff(["K10", "T5"])
    assert not GAME.dialect.sniff(["swap", "K10"])
    assert not GAME.dialect.sniff(["P-10m", "P-10g"])


@pytest.mark.parametrize("seed", range(5))
def test_random_games_replay_through_the_api(seed):
    """G11: random legal games format, parse and replay to the same end and position string."""
    rng = random.Random(seed)
    rules = GAME.parse_rules("swap=yes" if seed % 2 else None)
    position = GAME.start_position(rules)
    tokens = []
    while position.outcome() is None:
        move = random_move(GAME, position, rng)
        tokens.append(GAME.format_move(move, position))
        position.push(move)
    assert random_move(GAME, position, rng) is None
    again = GAME.start_position(rules)
    for token in tokens:
        again.push(GAME.parse_move(token, again))
    assert GAME.format_position(again) == GAME.format_position(position)
    assert again.outcome() == position.outcome()
    copy = GAME.parse_position(GAME.format_position(position), rules)
    assert copy.outcome().winner == position.outcome().winner


def test_random_move_includes_swap_sometimes():
    rules = GAME.parse_rules("swap=yes")
    seen = set()
    for seed in range(400):
        position = GAME.start_position(rules)
        position.push(GAME.parse_move("K10", position))
        seen.add(GAME.format_move(random_move(GAME, position, random.Random(seed)), position))
    assert "swap" in seen and len(seen) > 100


def test_perft_from_a_finished_position_is_zero():
    position = GAME.start_position(GAME.parse_rules(None), fen=S2)
    position.push(GAME.parse_move("B12", position))
    assert perft(position, 1) == 0
    set_up = GAME.start_position(GAME.parse_rules(None), fen=S2)
    assert perft(set_up, 1) == 319 - 34   # S2 is V1 less B12: 34 stones added


# ---- purity (G5) ---------------------------------------------------------------------------


def test_g5_engine_imports_only_stdlib_pyparsing_and_the_shared_game_modules():
    """G5/brief: games/shuriken never imports click, records, sources, cli or analysis; of
    the toolkit it imports only what docs/development.md allows a game (base, runs,
    file_formats, codes, render.svg) and its own package."""
    allowed_roots = {"__future__", "dataclasses", "collections", "typing", "math", "random",
                     "functools", "re", "operator", "pyparsing", "notation_tools"}
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] in allowed_roots, f"{path.name} imports {name}"
                if name.startswith("notation_tools"):
                    assert name == "notation_tools.games" or name.startswith((
                                            "notation_tools.games.base",
                                            "notation_tools.games.runs",
                                            "notation_tools.games.file_formats",
                                            "notation_tools.codes",
                                            "notation_tools.render.svg",
                                            "notation_tools.games.shuriken")), name
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("open", "print"), f"{path.name} calls {node.func.id}"


# ---- sample games -------------------------------------------------------------------------


def _records(path: pathlib.Path):
    with path.open(encoding="utf-8") as handle:
        return list(read_records(handle, str(path)))


def _engine_replay(record):
    """Replay with the engine alone: (outcome, first EngineError or None, plies)."""
    rules = GAME.parse_rules(record.tag("Rules"))
    try:
        position = GAME.start_position(rules, fen=record.tag("FEN"))
    except EngineError as error:
        return None, error, 0
    for node in record.moves:
        try:
            if position.outcome() is not None:
                raise IllegalMoveError("after the end", code="E-MOVE-AFTER-END")
            position.push(GAME.parse_move(node.text, position))
        except EngineError as error:
            return position.outcome(), error, position.ply
    return position.outcome(), None, position.ply


VALID = sorted(p for p in SAMPLES.glob("*.pgn") if not p.name.startswith("broken-"))
BROKEN = {
    "broken-illegal-move-hole.pgn": "E-ILLEGAL-MOVE",
    "broken-illegal-move-occupied.pgn": "E-ILLEGAL-MOVE",
    "broken-illegal-move-pre-placed.pgn": "E-ILLEGAL-MOVE",
    "broken-swap-without-option.pgn": "E-ILLEGAL-MOVE",
    "broken-swap-too-late.pgn": "E-ILLEGAL-MOVE",
    "broken-off-board.pgn": "E-BAD-SQUARE",
    "broken-syntax.pgn": "E-SYNTAX",
    "broken-bad-fen.pgn": "E-BAD-POSITION",
    "broken-move-after-end.pgn": "E-MOVE-AFTER-END",
    "broken-result-mismatch.pgn": "E-RESULT-MISMATCH",
    "broken-result-draw.pgn": "E-RESULT-MISMATCH",
    "broken-move-number.pgn": "E-NUMBER",
}



def test_resolve_move_shares_one_resolution_per_move_and_checks_every_ply():
    """Replay's per-ply entry point: the move parse_move gives, no warning or alternative, one
    shared resolution per move, and still the engine's verdict in each position (§2.2, §6)."""
    rules = GAME.parse_rules("swap")
    pos = GAME.start_position(rules)
    rng = random.Random(14)
    for _ in range(60):
        move = random_move(GAME, pos, rng)
        text = GAME.format_move(move, pos)
        resolution = GAME.resolve_move(text, pos)
        assert resolution.move == GAME.parse_move(text, pos) == move
        assert resolution.warnings == () and resolution.alternatives == ()
        assert GAME.resolve_move(text.lower(), pos) is resolution
        pos.push(move)
        with pytest.raises(IllegalMoveError):
            GAME.resolve_move(text, pos)   # the cell is now occupied


def test_a_token_resolved_before_is_still_checked_in_each_position():
    # resolve_move shares one resolution per token text (#14); legality is asked every time.
    position = Position.start()
    first = GAME.resolve_move("k10", position)
    assert GAME.resolve_move("k10", Position.start()) is first
    position.push(first.move)
    with pytest.raises(IllegalMoveError, match="occupied"):
        GAME.resolve_move("k10", position)
