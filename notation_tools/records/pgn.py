"""Read and write the PGN-style container: tag pairs, movetext, several records per stream.

``read_records`` is lazy: it holds one record's lines at a time, so memory stays flat however
long the input. Problems become diagnostics on the record (``E-SYNTAX``, ``E-BAD-TAG``); the
reader never raises for bad input. Does not check moves, move numbers or results: replay does.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Iterator

from notation_tools.limits import DEFAULT, Limits
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.model import Move, Record, Tag, Tags
from notation_tools.records.tokens import (PLAIN_SCAN, RESULTS, Token, TokenKind, is_plain,
                                          tokenize)

TAG_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_+#=:-]*")
"""What a tag name may be."""
NAG = re.compile(r"\$[0-9]+")
MOVE_NUMBER = re.compile(r"[0-9]+(?:\.\.\.|\.|…)")
# One tag pair: [Name "value"], with \" and \\ escapes inside the value.
_TAG = re.compile(r'\[\s*(' + TAG_NAME.pattern + r')\s+"((?:[^"\\]|\\.)*)"\s*\]')
_UNESCAPE = re.compile(r"\\(.)")


def read_records(lines: Iterable[str], path: str = "-", *,
                 limits: Limits = DEFAULT) -> Iterator[Record]:
    """Records from a stream of text lines (with or without their newlines).

    >>> [r.tag("Variant") for r in read_records(['[Variant "elevation"]', '', '1. c1:c2>b2,c1-c2 *'])]
    ['elevation']
    """
    for index, chunk in enumerate(split_chunks(lines), start=1):
        yield from parse_chunk(path, chunk, index, limits=limits)


Chunk = tuple[int, list[tuple[int, str]], list[tuple[int, str]]]
"""One record's text: (first line number, tag lines, movetext lines), lines numbered."""


def split_chunks(lines: Iterable[str], *, max_bytes: int | None = None,
                 overflow: Callable[[int], None] | None = None) -> Iterator[Chunk]:
    """Split a line stream into one chunk per record, cheaply (no tokenizing).

    A record is its tag lines and the movetext lines up to the next line starting with ``[``.
    Inside a ``{...}`` comment that runs over several lines, a line starting with ``[`` or
    ``%`` is comment text, not a tag or an escape line. A record's lines beyond ``max_bytes``
    characters are dropped, and ``overflow`` is told the number of its last line kept.
    """
    tag_lines: list[tuple[int, str]] = []
    movetext_lines: list[tuple[int, str]] = []
    first_line = 0
    in_comment = False
    size = 0
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if max_bytes is not None and (tag_lines or movetext_lines):
            starts_record = movetext_lines and not in_comment and line.lstrip().startswith("[")
            size += len(line) + 1
            if size > max_bytes and not starts_record:
                if size - len(line) - 1 <= max_bytes and overflow is not None:
                    overflow((movetext_lines or tag_lines)[-1][0])
                continue  # dropped: the record is too large
        if in_comment:
            movetext_lines.append((number, line))
            in_comment = _ends_in_comment(line, True)
            continue
        if line.startswith("%"):
            continue  # PGN escape line: ignored by definition
        stripped = line.lstrip()
        if stripped.startswith("["):
            if movetext_lines:
                yield first_line, tag_lines, movetext_lines
                tag_lines, movetext_lines, size = [], [], len(line) + 1
            if not tag_lines:
                first_line = number
                size = len(line) + 1
            tag_lines.append((number, line))
        elif stripped:
            if not tag_lines and not movetext_lines:
                first_line = number
                size = len(line) + 1
            movetext_lines.append((number, line))
            in_comment = _ends_in_comment(line, False)
        elif movetext_lines:
            movetext_lines.append((number, line))
    if tag_lines or movetext_lines:
        yield first_line, tag_lines, movetext_lines


_COMMENT_MARKS = re.compile(r"[{};]")


def _ends_in_comment(line: str, in_comment: bool) -> bool:
    """Whether a movetext line leaves a ``{`` comment open (``;`` comments end with it)."""
    if not in_comment and "{" not in line:
        return False
    for mark in _COMMENT_MARKS.finditer(line):
        char = mark.group()
        if in_comment:
            in_comment = char != "}"
        elif char == "{":
            in_comment = True
        elif char == ";":
            break
    return in_comment


_MALFORMED = "malformed tag pair"


def malformed_tag_text(diagnostic: Diagnostic) -> str | None:
    """The text of the malformed tag pair (the rest of its line) a reader's ``E-BAD-TAG``
    diagnostic reports, or ``None`` for any other diagnostic (what ``--fix-tags`` reads).

    >>> record = next(read_records(['[Site Reading]', '1. a *']))
    >>> malformed_tag_text(record.diagnostics[0])
    '[Site Reading]'
    """
    prefix = f"{_MALFORMED} "
    if diagnostic.code != "E-BAD-TAG" or not diagnostic.message.startswith(prefix):
        return None
    quoted = diagnostic.message[len(prefix):].rsplit(": expected ", 1)[0]
    try:
        text = ast.literal_eval(quoted)
    except (ValueError, SyntaxError):
        return None
    return text if isinstance(text, str) else None


def _parse_tags(path: str, tag_lines: list[tuple[int, str]], record: Record) -> None:
    entries = record.tags.entries()
    for number, line in tag_lines:
        position = 0
        text = line.rstrip()
        while position < len(text):
            if text[position].isspace():
                position += 1
                continue
            match = _TAG.match(text, position)
            if match is None:
                record.diagnostics.append(Diagnostic(
                    "E-BAD-TAG", f"{_MALFORMED} {text[position:].strip()!r}: expected "
                    '[Name "value"]', path, number, position + 1, record=record.index))
                break
            value = match.group(2)
            if "\\" in value:
                value = _UNESCAPE.sub(r"\1", value)
            entries.append(Tag(match.group(1), value, number, match.start() + 1))
            position = match.end()


class _Builder:
    """Turns one record's tokens into the movetext tree, collecting E-SYNTAX diagnostics."""

    def __init__(self, record: Record, limits: Limits = DEFAULT) -> None:
        self.record = record
        self.limits = limits
        self.moves = 0
        self.over_limit: set[str] = set()
        self.stack: list[list[Move]] = [record.moves]
        self.open_tokens: list[Token] = []
        self.number: Token | None = None
        self.pending_comments: list[str] = []
        self.finished = False

    def error(self, token: Token, message: str, code: str = "E-SYNTAX") -> None:
        self.record.diagnostics.append(Diagnostic(
            code, message, self.record.path, token.line, token.column,
            record=self.record.index))

    def limit(self, token: Token, field: str, what: str) -> None:
        """Report a limit once per record; what lies beyond it is not kept."""
        if field not in self.over_limit:
            self.over_limit.add(field)
            self.error(token, f"{what} than {self.limits.describe(field)}: the rest is not "
                       "read", "E-LIMIT")

    def comment(self, text: str) -> None:
        line = self.stack[-1]
        if self.finished:
            self.record.final_comments.append(text)
        elif line and self.number is None and not self.pending_comments:
            line[-1].comments.append(text)
        elif not line and len(self.stack) == 1 and self.number is None:
            self.record.initial_comments.append(text)
        else:
            self.pending_comments.append(text)

    def feed(self, token: Token) -> None:
        kind = token.kind
        line = self.stack[-1]
        if kind is TokenKind.MOVE:
            move = Move(token.text, token.line, token.column, nags=[], comments=[],
                        comments_before=self.pending_comments, variations=[])
            if self.number is not None:
                move.number = self.number.text
                move.number_line, move.number_column = self.number.line, self.number.column
            self.number, self.pending_comments = None, []
            self.moves += 1
            if self.moves > self.limits.max_moves:
                self.limit(token, "max_moves", "more moves")
            else:
                line.append(move)
        elif kind is TokenKind.MOVE_NUMBER:
            if self.number is not None:
                self.error(self.number, f"move number {self.number.text} has no move after it")
            self.number = token
        elif kind is TokenKind.COMMENT:
            self.comment(token.text[1:-1])
        elif kind is TokenKind.LINE_COMMENT:
            self.comment(token.text[1:])
        elif kind is TokenKind.NAG:
            if line and self.number is None:
                line[-1].nags.append(token.text)
            else:
                self.error(token, f"NAG {token.text} does not follow a move")
        elif kind is TokenKind.OPEN:
            variation: list[Move] = []
            if not line or self.number is not None:
                # The bracket is still tracked, so the rest of the movetext stays in step.
                self.error(token, "a variation must follow the move it replaces")
            elif len(self.stack) > self.limits.max_depth:
                self.limit(token, "max_depth", "variations nested deeper")
            else:
                line[-1].variations.append(variation)
            self.stack.append(variation)
            self.open_tokens.append(token)
        elif kind is TokenKind.CLOSE:
            if len(self.stack) == 1:
                self.error(token, "')' closes no variation")
            else:
                self.stack.pop()
                self.open_tokens.pop()
        elif kind is TokenKind.RESULT:
            if len(self.stack) > 1:
                self.error(token, f"result {token.text} inside a variation")
            else:
                self.record.result = token.text
                self.record.result_line, self.record.result_column = token.line, token.column
                self.finished = True
        else:
            text = token.text
            if text.startswith("{"):
                self.error(token, "unterminated comment: '{' has no matching '}'")
            elif text == "$":
                self.error(token, "'$' must be followed by a NAG number")
            else:
                self.error(token, f"unexpected {text!r} in movetext")

    def close(self) -> None:
        if self.number is not None:
            self.error(self.number, f"move number {self.number.text} has no move after it")
        for token in self.open_tokens:
            self.error(token, "unterminated variation: '(' has no matching ')'")
        if self.pending_comments:
            self.record.final_comments.extend(self.pending_comments)


def _read_plain(movetext_lines: list[tuple[int, str]], record: Record, limits: Limits) -> bool:
    """Read movetext of move numbers, moves and one last result (what most records hold)
    straight into ``record``, as the token-by-token builder would; ``False``, leaving the
    record as it was, at anything the builder would report or split on."""
    read = _read_spaced(movetext_lines)
    if read is _UNSURE:
        read = _read_scanned(movetext_lines)
    if read is None or len(read[0]) > limits.max_moves:
        return False
    record.moves, result = read
    if result is not None:
        record.result, record.result_line, record.result_column = result
    return True


_Plain = tuple[list[Move], tuple[str, int, int] | None] | None
"""The moves and the located result of plain movetext, or ``None`` where the builder would
report or split: text after the result, two move numbers in a row, a last number."""
_UNSURE: _Plain = ([], None)
"""What :func:`_read_spaced` returns for movetext outside its form."""


def _read_scanned(movetext_lines: list[tuple[int, str]]) -> _Plain:
    """Plain movetext read with :data:`PLAIN_SCAN`, the token grammar's words."""
    moves: list[Move] = []
    number: tuple[str, int, int] | None = None
    result: tuple[str, int, int] | None = None
    append = moves.append
    for line_number, line in movetext_lines:
        for match in PLAIN_SCAN(line):
            word = match.group()
            if result is not None:
                return None  # text after the result starts another record
            if match.group(1) is not None:
                if number is not None:
                    return None
                number = (word, line_number, match.start() + 1)
            elif word in RESULTS:
                result = (word, line_number, match.start() + 1)
            elif number is None:
                append(Move(word, line_number, match.start() + 1))
            else:
                append(Move(word, line_number, match.start() + 1, *number))
                number = None
    return None if number is not None else (moves, result)


def _read_spaced(movetext_lines: list[tuple[int, str]]) -> _Plain:
    """:func:`_read_scanned` for the usual form, by splitting lines at spaces (a quarter
    cheaper than scanning), or :data:`_UNSURE` for movetext outside that form.

    It is the same reading because in printable ASCII the space is the only white space, so
    the words between spaces are the words the scan finds, each at the column its line
    offset gives; and of the words starting with a digit it takes only the results and the
    whole move numbers ``12.`` and ``12...``, which the scan finds as one token each. A line
    of anything else (a tab, non-ASCII text, ``12.e4``, ``10n``) is left to the scan."""
    moves: list[Move] = []
    number: tuple[str, int, int] | None = None
    result: tuple[str, int, int] | None = None
    append = moves.append
    for line_number, line in movetext_lines:
        if not (line.isascii() and line.isprintable()):
            return _UNSURE
        column = 1
        for word in line.split(" "):
            if word:
                if result is not None:
                    return None  # text after the result starts another record
                if word in RESULTS:
                    result = (word, line_number, column)
                elif "0" <= word[0] <= "9":
                    if not (word[-1] == "." and word[:-1].isdigit()
                            or word.endswith("...") and word[:-3].isdigit()):
                        return _UNSURE
                    if number is not None:
                        return None
                    number = (word, line_number, column)
                elif number is None:
                    append(Move(word, line_number, column))
                else:
                    append(Move(word, line_number, column, *number))
                    number = None
            column += len(word) + 1
    return None if number is not None else (moves, result)


def chunk_tags(path: str, chunk: Chunk) -> Tags:
    """The tags of a chunk's (first) record, its movetext left unread."""
    record = Record(path=path)
    _parse_tags(path, chunk[1], record)
    return record.tags


_RESULT_TEXT = re.compile(r"1-0|0-1|1/2-1/2|\*")


def may_hold_several(chunk: Chunk) -> bool:
    """Whether a chunk's movetext may hold text after a result, which starts another record
    (:func:`parse_chunk`). Cheap and cautious: a result's text anywhere but in the last word
    (in a comment, inside a move) says it may."""
    _, _, movetext_lines = chunk
    text = " ".join(line for _, line in movetext_lines).rstrip()
    last_word = text.rsplit(None, 1)[-1] if text else ""
    return _RESULT_TEXT.search(text, 0, len(text) - len(last_word)) is not None


def parse_chunk(path: str, chunk: Chunk, index: int = 1, *,
                limits: Limits = DEFAULT) -> Iterator[Record]:
    """The record(s) of one chunk: usually one; more when text follows a result token."""
    first_line, tag_lines, movetext_lines = chunk
    record = Record(path=path, index=index, line=first_line)
    _parse_tags(path, tag_lines, record)
    if not movetext_lines:
        yield record
        return
    start = movetext_lines[0][0]
    # Line numbers are consecutive within a chunk, so one text keeps every token's location.
    text = "\n".join(line for _, line in movetext_lines)
    if is_plain(text) and _read_plain(movetext_lines, record, limits):
        yield record
        return
    yield from _read_tokens(record, text, start, limits)


def _read_tokens(record: Record, text: str, first_line: int,
                 limits: Limits) -> Iterator[Record]:
    """``record`` with the movetext ``text`` read token by token, and the records that text
    after a result starts."""
    path, index = record.path, record.index
    builder = _Builder(record, limits)
    for token in tokenize(text, first_line=first_line):
        if builder.finished and token.kind not in (TokenKind.COMMENT, TokenKind.LINE_COMMENT):
            # Text after the result starts another record, as in PGN.
            builder.close()
            yield record
            record = Record(path=path, index=index, line=token.line)
            builder = _Builder(record, limits)
        builder.feed(token)
    builder.close()
    yield record


# ---------------------------------------------------------------------------------------------
# Writing


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment_text(text: str) -> str:
    # A comment holding '}' can only be written as a ';' comment, which runs to the line's end.
    if "}" in text and "\n" not in text:
        return f";{text}\n"
    return "{" + text.replace("}", ")") + "}"


def _line_words(moves: list[Move], words: list[str],
                comment: Callable[[str], str] = _comment_text) -> None:
    for move in moves:
        if move.number:
            words.append(move.number)
        words.extend(comment(text) for text in move.comments_before)
        words.append(move.text)
        words.extend(move.nags)
        words.extend(comment(text) for text in move.comments)
        for variation in move.variations:
            words.append("(")
            _line_words(variation, words, comment)
            words.append(")")


def movetext_words(moves: list[Move]) -> list[str]:
    """The words of a line of moves as PGN writes them (numbers, moves, NAGs, variations),
    every comment in braces whatever it holds: the text of moves kept as a comment.

    >>> movetext_words([Move("a", number="1.", comments=["ok"]), Move("b", nags=["$1"])])
    ['1.', 'a', '{ok}', 'b', '$1']
    """
    words: list[str] = []
    _line_words(moves, words, lambda text: "{" + text + "}")
    return words


# A word the tokenizer reads as one MOVE token: no white space or {}()[]; in it, not starting
# with a NAG's $ or a move number ("12." would be read as the number), and not a result.
_MOVE_WORD = re.compile(r"(?![0-9]+(?:\.\.\.|\.|…)(?![0-9]))[^\s{}()\[\];$][^\s{}()\[\];]*")


def move_text_problem(text: str) -> str | None:
    """Why ``text`` cannot stand as one move token of movetext, or ``None`` when it can.

    >>> move_text_problem("c1:c2>b2,c1-c2"), move_text_problem("a b")
    (None, 'a move text is one word without {}()[]; that is not a number, NAG or result')
    """
    if _MOVE_WORD.fullmatch(text) and text not in RESULTS:
        return None
    return "a move text is one word without {}()[]; that is not a number, NAG or result"


def comment_problem(text: str) -> str | None:
    """Why ``text`` cannot be written as a PGN comment that reads back the same, or ``None``."""
    if "\r" in text:
        return "a comment holding a carriage return"
    if "}" in text and "\n" in text:
        return "a comment holding both '}' and a line break"
    return None


def pgn_problems(record: Record) -> list[str]:
    """What in ``record`` PGN cannot hold so that it reads back the same (``convert`` refuses
    such a record rather than change it)."""
    problems = []
    for tag in record.tags.entries():
        if not TAG_NAME.fullmatch(tag.name):
            problems.append(f"tag name {tag.name!r} is not a PGN tag name")
        if "\n" in tag.value or "\r" in tag.value:
            problems.append(f"tag {tag.name} holds a line break")
    comments = [*record.initial_comments, *record.final_comments]
    lines = [record.moves]
    while lines:
        for move in lines.pop():
            if move.number is not None and not MOVE_NUMBER.fullmatch(move.number):
                problems.append(f"move number {move.number!r} is not a number with a dot")
            problem = move_text_problem(move.text)
            if problem is not None:
                problems.append(f"move {move.text!r}: {problem}")
            problems += [f"NAG {nag!r} is not $ and a number" for nag in move.nags
                         if not NAG.fullmatch(nag)]
            comments += move.comments_before + move.comments
            lines.extend(move.variations)
    problems += [f"{problem}: {text[:20]!r}" for text in comments
                 if (problem := comment_problem(text)) is not None]
    if record.result is not None and record.result not in RESULTS:
        problems.append(f"result {record.result!r} is not 1-0, 0-1, 1/2-1/2 or *")
    return problems


def written_result(record: Record) -> str:
    """The result token a record is written with: its movetext's, else its ``Result`` tag's,
    else ``*``. Every record written ends with one, so that text written after it starts
    another record (a record without one would take the next record's text as its own).

    >>> written_result(Record()), written_result(Record(tags=[Tag("Result", "0-1")]))
    ('*', '0-1')
    """
    if record.result is not None:
        return record.result
    tag = record.tag("Result")
    return tag if tag in RESULTS else "*"


def _compacted(words: list[str]) -> list[str]:
    """``words`` with each move number joined to its move (``12. e4``) and the brackets of a
    variation to the words inside them (``(12. e4 e5)``), so that no line ends with a bare
    number or bracket; a ``;`` comment runs to its line's end, so nothing joins after it."""
    out: list[str] = []
    for word in words:
        if out and (word == ")" or out[-1].endswith("(")
                    or MOVE_NUMBER.fullmatch(out[-1].lstrip("("))) \
                and not out[-1].endswith("\n") and not word.startswith(";"):
            joiner = "" if word == ")" or out[-1].endswith("(") else " "
            out[-1] += joiner + word
        else:
            out.append(word)
    return out


def write_record(record: Record, *, width: int = 79, compact: bool = False) -> str:
    """The record as PGN text, ending with a blank line; movetext wrapped at ``width``. The
    movetext always ends with a result token (:func:`written_result`). ``compact`` keeps a
    move number with its move and a variation's brackets with its words (``fmt``'s layout).

    >>> print(write_record(Record(tags=[Tag("Variant", "elevation")], moves=[Move("c3:c3-b2", number="1.")])), end="")
    [Variant "elevation"]
    <BLANKLINE>
    1. c3:c3-b2 *
    <BLANKLINE>
    """
    result = written_result(record)
    out = [f'[{tag.name} "{_escape(tag.value)}"]\n' for tag in record.tags.entries()]
    if out:
        out.append("\n")
    words = [_comment_text(text) for text in record.initial_comments]
    _line_words(record.moves, words)
    words.append(result)
    words.extend(_comment_text(text) for text in record.final_comments)
    if compact:
        words = _compacted(words)
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            out.append(line + "\n")
            line = ""
        line = f"{line} {word}" if line else word
        if word.endswith("\n"):
            out.append(line)
            line = ""
    if line:
        out.append(line + "\n")
    out.append("\n")
    return "".join(out)
