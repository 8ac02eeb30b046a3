"""The movetext tokenizer (DESIGN: the record container; STYLE G4)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from notation_tools.records.tokens import TokenKind, tokenize


def kinds(text: str) -> list[tuple[str, str]]:
    return [(token.kind.name, token.text) for token in tokenize(text)]


def test_every_kind_of_token_is_classified():
    text = "1. a:b>c 1... Lnx3hx2i! {a comment} ; to the end\n$12 ( 2. x ) 1-0 0-1 1/2-1/2 *"
    assert kinds(text) == [
        ("MOVE_NUMBER", "1."), ("MOVE", "a:b>c"), ("MOVE_NUMBER", "1..."),
        ("MOVE", "Lnx3hx2i!"), ("COMMENT", "{a comment}"), ("LINE_COMMENT", "; to the end"),
        ("NAG", "$12"), ("OPEN", "("), ("MOVE_NUMBER", "2."), ("MOVE", "x"), ("CLOSE", ")"),
        ("RESULT", "1-0"), ("RESULT", "0-1"), ("RESULT", "1/2-1/2"), ("RESULT", "*"),
    ]


def test_move_suffixes_are_kept_whole():
    # Maka spec §9.8: '!', '?', '+' and '=' at the end of a token belong to the move.
    assert kinds("Ln! Lnx!9d P-10m+ G-5e= Ln?") == [("MOVE", t) for t in
                                                    ["Ln!", "Lnx!9d", "P-10m+", "G-5e=", "Ln?"]]


def test_tokens_starting_with_digits_are_moves_unless_they_are_numbers():
    # Maka 'coord' moves start with a digit (spec §9.6); '--' is a Game of War pass.
    assert kinds("10j10i9h+ 12. 12.c3:c3-b2 --") == [
        ("MOVE", "10j10i9h+"), ("MOVE_NUMBER", "12."), ("MOVE_NUMBER", "12."),
        ("MOVE", "c3:c3-b2"), ("MOVE", "--")]


def test_locations_are_one_based_and_follow_lines():
    tokens = list(tokenize("1. a\n\tb {x\ty\nz} c", first_line=7))
    assert [(t.text, t.line, t.column) for t in tokens] == [
        ("1.", 7, 1), ("a", 7, 4), ("b", 8, 2), ("{x\ty\nz}", 8, 4), ("c", 9, 4)]


def test_faults_become_bad_tokens_at_their_column():
    tokens = list(tokenize("a } b $ {open"))
    assert [(t.kind.name, t.text, t.column) for t in tokens] == [
        ("MOVE", "a", 1), ("BAD", "}", 3), ("MOVE", "b", 5), ("BAD", "$", 7),
        ("BAD", "{open", 9)]


@given(st.text())
def test_no_character_is_lost(text):
    # G4: every non-blank character of the input is in some token.
    tokens = list(tokenize(text))
    assert "".join("".join(t.text.split()) for t in tokens) == "".join(text.split())


@given(st.text())
def test_tokens_cover_the_text_in_order(text):
    lines = text.split("\n")
    for token in tokenize(text):
        line = lines[token.line - 1]
        assert line[token.column - 1:].startswith(token.text.split("\n")[0])
