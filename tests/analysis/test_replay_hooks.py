"""Replay-driver hooks games use: warnings on a move, alternative readings (the Gold case),
title lines and ignored words of other programs' scores, format warnings from convert.

The cases are Maka-Dai-Dai Shogi's (spec §9.2 step 6, §9.4, §9.8, acceptance example A11),
the game whose notation needs them.
"""

from __future__ import annotations

from notation_tools.analysis.replay import replay
from notation_tools.records.pgn import read_records
from tests.conftest import invoke

A11 = ("18,vK/19/19/19/19/19/19/19/19/19/19/7,G,1,+G,9/8,vP,10/19/19/19/19/19/K,18 b 1")


def replayed(movetext: str, fen: str = A11):
    text = f'[Variant "maka"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n{movetext}\n'
    (record,) = list(read_records(text.splitlines(), "a11.pgn"))
    return replay(record)


def test_gold_case_later_move_picks_the_reading():
    # A11: only the original Gold on 11l captures 11m with a correct mark.
    result = replayed("1. G-11l K-2a 2. Gx11m+ *")
    assert result.is_valid and [d.code for d in result.diagnostics] == []
    fen = result.game.format_position(result.position)
    assert "FGo" in fen and "+G" in fen


def test_gold_case_unresolved_warns_and_keeps_the_first_reading():
    result = replayed("1. G-11l K-2a *")
    assert [(d.code, d.severity, d.line, d.column) for d in result.diagnostics] == [
        ("W-AMBIGUOUS-GOLD", "warning", 5, 4)]
    assert result.is_valid


def test_move_warnings_are_reported_at_the_token():
    # §9.2 step 4: under promotion=forced a missing '+' is accepted with W-PROMOTION-MARK.
    result = replayed("1. G12l-11l K-2a 2. G11lx11m *")
    assert [(d.code, d.ply, d.line, d.column) for d in result.diagnostics] == [
        ("W-PROMOTION-MARK", 3, 5, 21)]
    assert result.is_valid


def test_a_reading_needing_a_warning_loses_to_a_clean_one():
    # §9.2 step 6: the promoted Gold from 10l captures without a mark cleanly; the original
    # Gold would need W-PROMOTION-MARK, so that reading is dropped.
    result = replayed("1. G-11l K-2a 2. Gx11m *")
    assert result.diagnostics == [] and "+G" in result.game.format_position(result.position)


def test_text_score_title_lines_and_mate_word(runner, tmp_path):
    path = tmp_path / "score.txt"
    path.write_text("Ultra Great Great Shogi -  Game Record\n" + "_" * 40 + "\n\n"
                    "  1. P-10m   P-10g        2. P-10l   P-10h mate\n")
    result = invoke(runner, ["validate", "-v", str(path)])
    assert result.exit_code == 0, result.stderr
    assert "maka-dai-dai-shogi (tsa), 4 plies" in result.stdout
    assert 'warning[W-IGNORED-WORD]' in result.stderr and 'ignored "mate"' in result.stderr


def test_convert_reports_output_that_reads_back_ambiguously(runner, tmp_path):
    path = tmp_path / "a11.pgn"
    path.write_text(f'[Variant "maka"]\n[SetUp "1"]\n[FEN "{A11}"]\n\n1. G12l-11l *\n')
    result = invoke(runner, ["convert", str(path), "--to", "tsa"])
    assert "1. G-11l" in result.stdout
    assert "W-AMBIGUOUS-OUTPUT" in result.stderr and "use --to tsa-full" in result.stderr
    full = invoke(runner, ["convert", str(path), "--to", "tsa-full"])
    assert "1. G12l-11l" in full.stdout and full.stderr == ""
