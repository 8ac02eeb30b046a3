"""fmt's canonical form and the repairs (issue #28): idempotent, move- and verdict-preserving
on generated and mutated records of every game; every repair re-validated."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation_tools.analysis.formatting import (GAME_TAGS, ROSTER, FormatOptions, format_text,
                                                tag_order)
from notation_tools.analysis.generate import generate_records
from notation_tools.analysis.repairs import KEPT_PREFIX, Repairs, repair_record, repaired_tag
from notation_tools.analysis.replay import replay
from notation_tools.games.base import all_games
from notation_tools.records.model import Tag
from notation_tools.records.pgn import read_records, write_record

GAMES = all_games()
every_game = pytest.mark.parametrize("game", GAMES, ids=[game.id for game in GAMES])


def verdicts(text: str) -> list[tuple[str | None, bool]]:
    """Each record's main-line digest and whether it is valid."""
    out = []
    for record in read_records(text.splitlines()):
        result = replay(record, digest=True)
        out.append((result.digest, result.is_valid))
    return out


def generated(game, seed: int, notation: str | None = None, plies: int = 12) -> str:
    rules = game.parse_rules(None)
    return "".join(write_record(record) for record in generate_records(
        game, rules, count=2, seed=seed, max_plies=plies, notation=notation))


def mutate(text: str, rng: random.Random) -> str:
    """Shuffled tags, dropped move numbers, odd white space and line breaks, and comments
    whose text looks like movetext (brackets, a result, a NAG)."""
    out = []
    for chunk in text.strip().split("\n\n["):
        head, _, movetext = chunk.partition("\n\n")
        tags = [line for line in head.splitlines() if line.strip()]
        rng.shuffle(tags)
        if rng.random() < 0.3:
            tags = [tag for tag in tags if "Result" not in tag]
        words = movetext.split()
        mutated = []
        for word in words:
            if word[0].isdigit() and word.endswith(".") and rng.random() < 0.5:
                continue  # a dropped move number
            if word[0].isdigit() and word.endswith(".") and rng.random() < 0.1:
                word = f"{int(word.rstrip('.')) + 1}."  # a wrong one: the record is invalid
            mutated.append(word)
            if rng.random() < 0.1 and word not in ("*", "1-0", "0-1", "1/2-1/2"):
                mutated.append(rng.choice(["{ (1. x) [y] $3 1-0 }", "{a\n  b}", "$1"]))
        separators = [rng.choice([" ", "  ", "\n", " \n\t"]) for _ in mutated]
        body = "".join(word + sep for word, sep in zip(mutated, separators))
        out.append("\n".join(tag if tag.startswith("[") else "[" + tag for tag in tags)
                   + "\n\n" + body)
    return "\n\n".join(out) + "\n"


@every_game
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), data=st.data())
def test_fmt_is_idempotent_and_keeps_moves_and_verdict(game, seed, data):
    notation = data.draw(st.sampled_from(game.notations))
    text = generated(game, seed, notation)
    if data.draw(st.booleans()):
        text = mutate(text, random.Random(seed))
    once = format_text(text).text
    assert verdicts(once) == verdicts(text)
    assert format_text(once).text == once


@every_game
def test_fmt_writes_the_records_own_notation_or_the_one_asked(game):
    for notation in game.notations:
        text = generated(game, 7, notation, plies=6)
        assert format_text(text).text == format_text(format_text(text).text).text
        asked = format_text(text, FormatOptions(notation=game.notations[0])).text
        assert asked == format_text(generated(game, 7, game.notations[0], plies=6)).text \
            or verdicts(asked) == verdicts(text)


def test_tags_are_ordered_roster_first_then_game_tags_then_alphabetically():
    names = ["Zeta", "FEN", "Result", "Annotator", "Variant", "Event", "Black"]
    ordered = [tag.name for tag in tag_order([Tag(name, "") for name in names])]
    assert ordered == ["Event", "Black", "Result", "Variant", "FEN", "Annotator", "Zeta"]
    assert set(ROSTER).isdisjoint(GAME_TAGS)


@every_game
def test_the_players_tags_follow_the_games_sides(game):
    formatted = format_text(generated(game, 1, plies=2)).text.split("\n\n")[0]
    names = [line[1:].split()[0] for line in formatted.splitlines()]
    assert names[:5] == ["Event", "Site", "Round", *game.sides]


def test_a_record_that_cannot_be_read_whole_is_left_byte_for_byte():
    text = '[Variant "elevation"]\n\n1.   c1:c2>b2,c1-c2 { never closed\n'
    formatted = format_text(text)
    assert formatted.text == text
    assert [d.code for d in formatted.diagnostics][-1] == "I-NOT-FORMATTED"


def test_an_invalid_record_is_laid_out_only_and_keeps_its_error():
    text = ('[Variant "elevation"]\n[Event "x"]\n\n1.   c1:c2>b2,c1-c2 d6:d5>c5,d6-d5\n'
            '2. a1:a1-a2 *\n')
    formatted = format_text(text).text
    assert formatted.startswith('[Event "x"]\n[Variant "elevation"]')
    assert "2. a1:a1-a2" in formatted and verdicts(formatted) == verdicts(text)


def test_escape_lines_and_crlf_are_kept():
    text = '% a note\r\n[Variant "elevation"]\r\n\r\n1. c1:c2>b2,c1-c2 *\r\n'
    formatted = format_text(text).text
    assert formatted.startswith("% a note\r\n[Result \"*\"]\r\n[Variant")
    assert "\n" not in formatted.replace("\r\n", "")


# ---------------------------------------------------------------------------------------------
# Repairs, each re-validated


def repaired(text: str, repairs: Repairs):
    record = next(read_records(text.splitlines()))
    notes = repair_record(record, repairs)
    written = write_record(record)
    return notes, written, replay(next(read_records(written.splitlines())), digest=True)


def test_fix_result_follows_the_replayed_end():
    with open("sample_games/elevation/broken-result-mismatch.pgn", encoding="utf-8") as stream:
        text = stream.read()
    before = replay(next(read_records(text.splitlines())), digest=True)
    notes, written, after = repaired(text, Repairs(result=True))
    assert not before.is_valid and after.is_valid and after.digest == before.digest
    assert {note.code for note in notes} == {"I-FIXED-RESULT"} and notes[0].line == 9


def test_fix_numbers_renumbers_and_notes_the_wrong_one():
    with open("sample_games/container/broken-wrong-move-numbers.pgn", encoding="utf-8") as s:
        text = s.read()
    notes, written, after = repaired(text, Repairs(numbers=True))
    assert after.is_valid
    assert [(n.code, n.line, n.column) for n in notes] == [("I-FIXED-NUMBER", 5, 34)]


@every_game
def test_fix_moves_writes_canonical_spellings_of_the_same_moves(game):
    for notation in game.notations[1:]:
        text = generated(game, 3, notation, plies=6).split("\n\n[")[0] + "\n"
        before = replay(next(read_records(text.splitlines())), digest=True)
        notes, written, after = repaired(text, Repairs(moves=True, notation=game.notations[0]))
        assert after.is_valid and after.digest == before.digest
        assert all(note.code == "I-FIXED-MOVE" for note in notes)


def test_fix_tags_reads_plain_malformed_pairs():
    assert repaired_tag("[Round '3']") == ("Round", "3")
    assert repaired_tag('[Event "a] [b"]') is None
    with open("sample_games/container/broken-malformed-tags.pgn", encoding="utf-8") as s:
        text = s.read()
    notes, written, after = repaired(text, Repairs(tags=True))
    assert after.is_valid and '[Site "Reading"]' in written
    assert [(n.code, n.line) for n in notes] == [("I-FIXED-TAG", 2), ("I-FIXED-TAG", 3)]


@pytest.mark.parametrize("path", ["sample_games/elevation/broken-illegal-move.pgn",
                                  "sample_games/maka/broken-illegal-move.pgn",
                                  "sample_games/shih/broken-illegal-move.pgn"])
def test_keep_broken_keeps_the_rest_as_a_comment_and_the_record_replays(path):
    with open(path, encoding="utf-8") as stream:
        text = stream.read()
    before = replay(next(read_records(text.splitlines())), digest=True)
    notes, written, after = repaired(text, Repairs(keep_broken=True, note_fixes=True))
    assert not before.is_valid and after.digest == before.digest
    assert after.is_valid or any(d.code.startswith("E-RESULT") for d in after.diagnostics)
    assert KEPT_PREFIX in written and "fixed:" in written
    assert [note.code for note in notes] == ["I-KEPT-BROKEN"]


def test_keep_broken_leaves_a_line_whose_first_move_does_not_play():
    with open("sample_games/game-of-war/broken-illegal-move.pgn", encoding="utf-8") as stream:
        text = stream.read()  # its first turn is illegal: no good move to keep the rest after
    notes, written, after = repaired(text, Repairs(keep_broken=True))
    assert notes == [] and not after.is_valid and KEPT_PREFIX not in written


def test_a_record_without_a_variant_tag_is_left_as_written():
    untagged = "1.c1:c2>b2,c1-c2   d6:d5>c5,d6-d5 *\n"
    formatted = format_text(untagged)
    assert formatted.text == untagged
    assert "names no game" in list(formatted.diagnostics)[-1].message
    named = format_text(untagged, FormatOptions(game="elevation")).text
    assert '[Variant "elevation"]' in named and "1. c1:c2>b2,c1-c2 d6:d5>c5,d6-d5 *" in named
