"""Every file of sample_games/ in one table: the game its records are, how each record ends, and
for a broken file the code of its first error. The samples go through the real pipeline
(sources, container, replay driver), as ``notation-tools validate`` reads them; the CLI's view
of the same files is tests/cli/test_sample_games.py.

A valid sample replays with no diagnostic at all; a broken one (named ``broken-<fault>``)
fails first with the code its fault gives. A new sample needs a row here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from notation_tools.parallel.batch import iter_records
from notation_tools.analysis.replay import replay
from notation_tools.records.diagnostics import Diagnostic

ROOT = Path(__file__).resolve().parents[1] / "sample_games"

ELEVATION, GOW, MAKA, SHIH, SHURIKEN = ("elevation", "game-of-war", "maka-dai-dai-shogi",
                                        "shih", "shuriken-2d")
UNFINISHED = None

SAMPLES: dict[str, tuple[str | None, str | None, tuple[str | None, ...]]] = {
    # file: (code of the first error, or None for a valid file; the game; each record's end)
    "container/broken-bad-rules.pgn": ("E-BAD-RULES", ELEVATION, (UNFINISHED,)),
    "container/broken-binary-junk.pgn": ("E-IO", None, ()),
    "container/broken-garbage-tokens.pgn": ("E-SYNTAX", ELEVATION, (UNFINISHED,)),
    "container/broken-latin1-encoding.pgn": ("E-ENCODING", ELEVATION, (UNFINISHED,)),
    "container/broken-malformed-tags.pgn": ("E-UNKNOWN-VARIANT", None, (UNFINISHED,)),
    "container/broken-no-variant.pgn": ("E-UNKNOWN-VARIANT", None, (UNFINISHED,)),
    "container/broken-result-tag.pgn": ("E-RESULT-MISMATCH", ELEVATION, (UNFINISHED,)),
    "container/broken-truncated-download.zip": ("E-IO", None, ()),
    "container/broken-unknown-variant.pgn": ("E-UNKNOWN-VARIANT", None, (UNFINISHED,)),
    "container/broken-unterminated-comment.pgn": ("E-SYNTAX", ELEVATION, (UNFINISHED,)),
    "container/broken-wrong-move-numbers.pgn": ("E-NUMBER", ELEVATION, (UNFINISHED,)),
    "container/club-archive.tar.gz": (None, ELEVATION, (UNFINISHED,) * 4),
    "container/hand-annotated-variations.pgn": (None, ELEVATION, (UNFINISHED,) * 2),
    "elevation/black-moves-first.pgn": (None, ELEVATION, (UNFINISHED,)),
    "elevation/broken-bad-fen.pgn": ("E-BAD-POSITION", ELEVATION, (UNFINISHED,)),
    "elevation/broken-bad-rules.pgn": ("E-BAD-RULES", ELEVATION, (UNFINISHED,)),
    "elevation/broken-capture-mark.pgn": ("E-CAPTURE-MARK", ELEVATION, (UNFINISHED,)),
    "elevation/broken-illegal-move.pgn": ("E-ILLEGAL-MOVE", ELEVATION, (UNFINISHED,)),
    "elevation/broken-move-after-end.pgn": ("E-MOVE-AFTER-END", ELEVATION, (UNFINISHED,)),
    "elevation/broken-result-mismatch.pgn": ("E-RESULT-MISMATCH", ELEVATION, ("no-legal-turn",)),
    "elevation/broken-syntax.pgn": ("E-SYNTAX", ELEVATION, (UNFINISHED,)),
    "elevation/broken-tag-conflict.pgn": ("E-TAG-CONFLICT", ELEVATION, (UNFINISHED,)),
    "elevation/broken-two-pieces-without-option.pgn": ("E-ILLEGAL-MOVE", ELEVATION, (UNFINISHED,)),
    "elevation/club-league-archive-three-games.pgn": (None, ELEVATION,
                                                      ("all-pieces-captured",) * 3),
    "elevation/club-league-round1-capture-win.pgn": (None, ELEVATION, ("all-pieces-captured",)),
    "elevation/explicit-notation-resigned.pgn": (None, ELEVATION, (UNFINISHED,)),
    "elevation/setup-dragon-double-capture.pgn": (None, ELEVATION, ("all-pieces-captured",)),
    "elevation/setup-no-legal-turn.pgn": (None, ELEVATION, ("no-legal-turn",)),
    "elevation/setup-repetition-draw.pgn": (None, ELEVATION, ("repetition",)),
    "elevation/spec-example-two-plies.pgn": (None, ELEVATION, (UNFINISHED,)),
    "elevation/variant-low-terrain-jumping-fish.pgn": (None, ELEVATION, ("all-pieces-captured",)),
    "elevation/variant-two-pieces-per-turn.pgn": (None, ELEVATION, (UNFINISHED,)),
    "elevation/variant-undermining-ocean.pgn": (None, ELEVATION, ("all-pieces-captured",)),
    "game-of-war/arsenal-victory.pgn": (None, GOW, ("arsenals",)),
    "game-of-war/broken-bad-fen.pgn": ("E-BAD-POSITION", GOW, (UNFINISHED,)),
    "game-of-war/broken-bad-rules.pgn": ("E-BAD-RULES", GOW, (UNFINISHED,)),
    "game-of-war/broken-first-player.pgn": ("E-FIRST-PLAYER", GOW, (UNFINISHED,)),
    "game-of-war/broken-illegal-move.pgn": ("E-UNIT-OFFLINE", GOW, (UNFINISHED,)),
    "game-of-war/broken-move-after-end.pgn": ("E-MOVE-AFTER-END", GOW, (UNFINISHED,)),
    "game-of-war/broken-outcome-mismatch.pgn": ("E-OUTCOME-MISMATCH", GOW, (UNFINISHED,)),
    "game-of-war/broken-result-mismatch.pgn": ("E-RESULT-MISMATCH", GOW, ("arsenals",)),
    "game-of-war/broken-retreat-first.pgn": ("E-RETREAT-FIRST", GOW, (UNFINISHED,)),
    "game-of-war/broken-syntax.pgn": ("E-SYNTAX", GOW, (UNFINISHED,)),
    "game-of-war/broken-too-many-moves.pgn": ("E-TOO-MANY-MOVES", GOW, (UNFINISHED,)),
    "game-of-war/charge-column.pgn": (None, GOW, (UNFINISHED,)),
    "game-of-war/club-archive-rsg.pgn": (None, GOW, (UNFINISHED,) * 2),
    "game-of-war/generated-debord.pgn": (None, GOW, ("arsenals",)),
    "game-of-war/generated-rsg.pgn": (None, GOW, ("arsenals",)),
    "game-of-war/illustration.pgn": (None, GOW, (UNFINISHED,)),
    "game-of-war/setup-forced-retreat.pgn": (None, GOW, (UNFINISHED,)),
    "maka/archive-coord.pgn": (None, MAKA, (UNFINISHED,)),
    "maka/archive-tsa-full.pgn": (None, MAKA, (UNFINISHED,)),
    "maka/broken-ambiguous-origin.pgn": ("E-AMBIGUOUS", MAKA, (UNFINISHED,)),
    "maka/broken-bad-fen.pgn": ("E-BAD-POSITION", MAKA, (UNFINISHED,)),
    "maka/broken-bad-rules.pgn": ("E-BAD-RULES", MAKA, (UNFINISHED,)),
    "maka/broken-capture-mark.pgn": ("E-CAPTURE-MARK", MAKA, (UNFINISHED,)),
    "maka/broken-illegal-move.pgn": ("E-ILLEGAL-MOVE", MAKA, (UNFINISHED,)),
    "maka/broken-move-after-end.pgn": ("E-MOVE-AFTER-END", MAKA, (UNFINISHED,)),
    "maka/broken-placeholder.pgn": ("E-PLACEHOLDER", MAKA, (UNFINISHED,)),
    "maka/broken-result-mismatch.pgn": ("E-RESULT-MISMATCH", MAKA, ("royal-captured",)),
    "maka/broken-shogivar-stale-capture.pgn": ("E-MULTI-LEG", MAKA, (UNFINISHED,)),
    "maka/broken-unknown-piece.pgn": ("E-UNKNOWN-PIECE", MAKA, (UNFINISHED,)),
    "maka/hook-mover-wins.pgn": (None, MAKA, ("royal-captured",)),
    "maka/modern-lion-dog-study.pgn": (None, MAKA, (UNFINISHED,)),
    "maka/selfplay-modern-3.pgn": (None, MAKA, (UNFINISHED,)),
    "maka/selfplay-tsa-1.pgn": (None, MAKA, (UNFINISHED,)),
    "maka/selfplay-tsa-2.pgn": (None, MAKA, (UNFINISHED,)),
    "maka/shogivar-155b-emperor-any.pgn": (None, MAKA, (UNFINISHED,)),
    "maka/shogivar-handicap-placeholder.pgn": (None, MAKA, (UNFINISHED,)),
    "maka/shogivar-text-score.txt": (None, MAKA, (UNFINISHED,)),
    # ShogiVar 1.55b's own files (§9.9): three saves and the text scores it printed of them
    "maka/maka-cvc-A.svar": (None, MAKA, (UNFINISHED,)),
    "maka/maka-cvc-A.txt": (None, MAKA, (UNFINISHED,)),
    "maka/maka-cvc-B.svar": (None, MAKA, (UNFINISHED,)),
    "maka/maka-cvc-B.txt": (None, MAKA, (UNFINISHED,)),
    "maka/maka-handicap-C.svar": (None, MAKA, (UNFINISHED,)),
    "maka/broken-shogivar-handicap-misaligned.txt": ("E-PLACEHOLDER", MAKA, (UNFINISHED,)),
    "maka/tsa-sample-record.pgn": (None, MAKA, (UNFINISHED,)),
    "shih/broken-16-pieces-without-fen.pgn": ("E-BAD-POSITION", SHIH, (UNFINISHED,)),
    "shih/broken-bad-fen.pgn": ("E-BAD-POSITION", SHIH, (UNFINISHED,)),
    "shih/broken-bad-rules.pgn": ("E-BAD-RULES", SHIH, (UNFINISHED,)),
    "shih/broken-bad-square.pgn": ("E-BAD-SQUARE", SHIH, (UNFINISHED,)),
    "shih/broken-illegal-move.pgn": ("E-ILLEGAL-MOVE", SHIH, (UNFINISHED,)),
    "shih/broken-missing-end-mark.pgn": ("E-ILLEGAL-MOVE", SHIH, (UNFINISHED,)),
    "shih/broken-move-after-end.pgn": ("E-MOVE-AFTER-END", SHIH, (UNFINISHED,)),
    "shih/broken-power-spin-not-alone.pgn": ("E-ILLEGAL-MOVE", SHIH, (UNFINISHED,)),
    "shih/broken-result-mismatch.pgn": ("E-RESULT-MISMATCH", SHIH, ("threshold",)),
    "shih/broken-surrender-list.pgn": ("E-ILLEGAL-MOVE", SHIH, (UNFINISHED,)),
    "shih/broken-syntax.pgn": ("E-SYNTAX", SHIH, (UNFINISHED,)),
    "shih/broken-turn-after-end.pgn": ("E-MOVE-AFTER-END", SHIH, (UNFINISHED,)),
    "shih/shih-club-two-records.pgn": (None, SHIH, (UNFINISHED,) * 2),
    "shih/shih-opening-wall-notation.pgn": (None, SHIH, (UNFINISHED,)),
    "shih/shih-selfplay-random-seed18.pgn": (None, SHIH, ("threshold",)),
    "shih/shih-selfplay-simultaneous-nine-draw.pgn": (None, SHIH, ("simultaneous",)),
    "shih/shih-setup-far-only.pgn": (None, SHIH, (UNFINISHED,)),
    "shih/shih-setup-ninth-capture.pgn": (None, SHIH, ("threshold",)),
    "shih/shih-setup-red-to-move-tempo.pgn": (None, SHIH, (UNFINISHED,)),
    "shuriken-2d/broken-bad-fen.pgn": ("E-BAD-POSITION", SHURIKEN, (UNFINISHED,)),
    "shuriken-2d/broken-illegal-move-hole.pgn": ("E-ILLEGAL-MOVE", SHURIKEN, (UNFINISHED,)),
    "shuriken-2d/broken-illegal-move-occupied.pgn": ("E-ILLEGAL-MOVE", SHURIKEN, (UNFINISHED,)),
    "shuriken-2d/broken-illegal-move-pre-placed.pgn": ("E-ILLEGAL-MOVE", SHURIKEN,
                                                       (UNFINISHED,)),
    "shuriken-2d/broken-move-after-end.pgn": ("E-MOVE-AFTER-END", SHURIKEN, (UNFINISHED,)),
    "shuriken-2d/broken-move-number.pgn": ("E-NUMBER", SHURIKEN, (UNFINISHED,)),
    "shuriken-2d/broken-off-board.pgn": ("E-BAD-SQUARE", SHURIKEN, (UNFINISHED,)),
    "shuriken-2d/broken-result-draw.pgn": ("E-RESULT-MISMATCH", SHURIKEN, ("two-loops",)),
    "shuriken-2d/broken-result-mismatch.pgn": ("E-RESULT-MISMATCH", SHURIKEN, ("two-loops",)),
    "shuriken-2d/broken-swap-too-late.pgn": ("E-ILLEGAL-MOVE", SHURIKEN, (UNFINISHED,)),
    "shuriken-2d/broken-swap-without-option.pgn": ("E-ILLEGAL-MOVE", SHURIKEN, (UNFINISHED,)),
    "shuriken-2d/broken-syntax.pgn": ("E-SYNTAX", SHURIKEN, (UNFINISHED,)),
    "shuriken-2d/casual-unfinished-and-resigned.pgn": (None, SHURIKEN, (UNFINISHED,) * 2),
    "shuriken-2d/ladder-black-two-single-loops.pgn": (None, SHURIKEN, ("two-loops",)),
    "shuriken-2d/ladder-white-wins-alias-loophole.pgn": (None, SHURIKEN, ("two-loops",)),
    "shuriken-2d/pie-rule-swap-single-and-double.pgn": (None, SHURIKEN, ("two-loops",)),
    "shuriken-2d/selfplay-random-seed7.pgn": (None, SHURIKEN, ("two-loops",)),
    "shuriken-2d/setup-figure-1-finishing-move.pgn": (None, SHURIKEN, ("two-loops",)),
}


def test_every_sample_file_has_a_row_and_every_row_a_file():
    on_disk = {str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file()}
    assert on_disk == set(SAMPLES)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_sample(name):
    code, game, ends = SAMPLES[name]
    assert name.rpartition("/")[2].startswith("broken-") == (code is not None), \
        "a broken sample is named broken-<fault>"
    errors, found_games, found_ends, diagnostics = [], set(), [], []
    for item in iter_records([str(ROOT / name)]):
        if isinstance(item, Diagnostic):
            errors.append((0, 0, 0, item.code))
            diagnostics.append(item)
            continue
        result = replay(item, collect_stats=True)
        if result.game is not None:
            found_games.add(result.game.id)
        found_ends.append(result.outcome.reason if result.outcome else UNFINISHED)
        diagnostics += item.diagnostics
        errors += [(item.index, d.line, d.column, d.code) for d in item.diagnostics
                   if d.is_error]
        if result.outcome is not None and code is None:
            # a finished valid game carries the result its end gives (every game's spec)
            assert result.result == result.game.result_text(result.outcome), name
    assert (min(errors)[3] if errors else None) == code, [str(d) for d in diagnostics]
    if code is None:
        assert diagnostics == [], [str(d) for d in diagnostics]
    assert found_games == ({game} if game else set())
    assert tuple(found_ends) == ends
