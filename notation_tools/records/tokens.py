"""The movetext tokenizer: text in, located tokens out, no character lost (G4).

The grammar is one pyparsing ``Regex`` scanned over the text; each token keeps its line and
column. Any whitespace-delimited word that is not a move number, comment, NAG, bracket or result
is a MOVE token, whatever it looks like: the game's grammar judges it later. Nothing here is
specific to any game, and nothing here raises for bad input: faults become BAD tokens.
"""

from __future__ import annotations

import bisect
import re
import dataclasses
import enum
import functools
from collections.abc import Callable, Iterator


class TokenKind(enum.Enum):
    MOVE_NUMBER = "move-number"
    MOVE = "move"
    COMMENT = "comment"
    LINE_COMMENT = "line-comment"
    NAG = "nag"
    OPEN = "open"
    CLOSE = "close"
    RESULT = "result"
    BAD = "bad"
    """Something the tokenizer cannot classify: a stray ``}``, an unterminated comment."""


@dataclasses.dataclass(frozen=True, slots=True)
class Token:
    kind: TokenKind
    text: str
    line: int
    column: int


RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "*"})

# Order matters: comments and brackets first, then numbers, then any other word. A move number
# is digits and one or three dots ("12." or "12..."); the rest of the word, if any, is scanned as
# the next token, as PGN readers accept "12.e4".
_TOKEN_PATTERN = (
    r"\{[^}]*\}?"                 # comment (unterminated when it lacks the closing brace)
    r"|;[^\n]*"                   # comment to end of line
    r"|\$[0-9]*"                  # NAG
    r"|[()]"                      # variation brackets
    r"|[0-9]+(?:\.\.\.|\.|…)(?![0-9])"  # move number
    r"|[^\s{}()\[\];]+"           # any other word: a move or a result
    r"|\S"                        # a stray character: }, [ or ]
)


@functools.cache
def _scan() -> Callable[[str], Iterator[re.Match[str]]]:
    # The grammar is scanned through the regular expression pyparsing compiled for it:
    # scan_string's per-match bookkeeping cost about three times the scan itself (measured
    # with benchmarks/bench_foundation.py), and a movetext token needs no more than the match.
    # Built on first use: plain movetext (PLAIN_SCAN) never needs it, nor pyparsing's import.
    import pyparsing as pp

    return pp.Regex(_TOKEN_PATTERN).re.finditer


_NUMBER_END = (".", "…")
_PUNCTUATION = re.compile(r"[{};$()\[\]]")


def _ascii_digits(text: str) -> bool:
    # str.isdigit() also accepts "²", "①" and "٣", which int() refuses
    return text.isascii() and text.isdigit()


def is_move_number(word: str) -> bool:
    """Whether a scanned word (not a comment, NAG, bracket or result) is a move number."""
    return word[0].isdigit() and word.endswith(_NUMBER_END) and _ascii_digits(word.rstrip(".…"))


PLAIN_SCAN = re.compile(r"([0-9]+(?:\.\.\.|\.|…)(?![0-9]))|\S+").finditer
"""The token grammar restricted to plain movetext (:func:`is_plain`): group 1 is set for a
move number (:func:`is_move_number`), and every other match is a word."""


def is_plain(text: str) -> bool:
    """Whether movetext holds no comment, NAG, bracket or stray character, so that each word
    :data:`PLAIN_SCAN` finds in it is a move number, a result or a move."""
    return _PUNCTUATION.search(text) is None


def tokenize(text: str, *, first_line: int = 1) -> Iterator[Token]:
    """Split movetext into located tokens.

    >>> [(t.kind.name, t.text, t.column) for t in tokenize("1. c1:c2>b2,c1-c2 {ok} $1 *")]
    [('MOVE_NUMBER', '1.', 1), ('MOVE', 'c1:c2>b2,c1-c2', 4), ('COMMENT', '{ok}', 19), ('NAG', '$1', 24), ('RESULT', '*', 27)]
    """
    line_starts = [0]
    find = text.find
    position = find("\n")
    while position != -1:
        line_starts.append(position + 1)
        position = find("\n", position + 1)
    locate = bisect.bisect_right
    move, number, comment = TokenKind.MOVE, TokenKind.MOVE_NUMBER, TokenKind.COMMENT
    for match in _scan()(text):
        word = match.group()
        start = match.start()
        line_index = locate(line_starts, start) - 1
        line = first_line + line_index
        column = start - line_starts[line_index] + 1
        first = word[0]
        if first == "{":
            kind = comment if word[-1] == "}" and len(word) > 1 else TokenKind.BAD
        elif first == ";":
            kind = TokenKind.LINE_COMMENT
        elif first == "$":
            kind = TokenKind.NAG if len(word) > 1 else TokenKind.BAD
        elif first == "(":
            kind = TokenKind.OPEN
        elif first == ")":
            kind = TokenKind.CLOSE
        elif first in "}[]":
            kind = TokenKind.BAD
        elif word in RESULTS:
            kind = TokenKind.RESULT
        elif is_move_number(word):
            kind = number
        else:
            kind = move
        yield Token(kind, word, line, column)


def move_number_value(token: Token) -> tuple[int, bool]:
    """The number and whether it is the second side's form (``12...``)."""
    text = token.text
    if text.endswith("..."):
        return int(text[:-3]), True
    if text.endswith("…"):
        return int(text[:-1]), True
    return int(text[:-1]), False
