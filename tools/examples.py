"""The console examples of the documentation pages: one source for the site, the man pages'
EXAMPLES sections and the test that runs every example and compares its output.

An example is a ```` ```console ```` block of a Markdown page::

    $ notation-tools validate sample_games/container/club-archive.tar.gz
    4 records: 4 valid, 0 invalid (0 errors, 0 warnings)
    $ echo $?
    0

Each ``$ `` line is a command run from the repository root; the lines up to the next ``$ ``
line are what it prints, standard output and standard error as a terminal shows them.
``echo $?`` prints the exit status of the command before it. In an output line, ``...``
stands for any text within that line (timings, rates). The paragraph just before the block
describes the example.

Reads text only: does not run anything.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

FENCE = re.compile(r"^(`{3,})console[ \t]*$")
PROMPT = "$ "
STATUS_COMMAND = "echo $?"
ELLIPSIS = "..."


@dataclasses.dataclass(frozen=True, slots=True)
class Step:
    """One command of an example and the lines it prints."""

    command: str
    output: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Example:
    """One console block: its steps, the paragraph that introduces it (inline Markdown
    removed), and where it starts (1-based line of its first command)."""

    description: str
    steps: tuple[Step, ...]
    line: int


_INLINE = re.compile(r"\{[a-z:]+\}`([^`<]*?)\s*(?:<[^>`]*>)?`|`([^`]*)`|\*\*([^*]+)\*\*|\*([^*]+)\*"
                     r"|\[([^\]]+)\]\([^)]*\)")


def plain(markdown: str) -> str:
    """A Markdown paragraph as plain text: code spans, emphasis and links keep their text.

    >>> plain("Check `club.pgn`, see [the page](records.md), {doc}`x` and {doc}`the y <y>`.")
    'Check club.pgn, see the page, x and the y.'
    """
    return _INLINE.sub(lambda match: next((group for group in match.groups() if group), ""),
                       markdown)


def _paragraph_before(lines: list[str], fence_index: int) -> str:
    end = fence_index
    while end > 0 and not lines[end - 1].strip():
        end -= 1
    start = end
    while start > 0 and lines[start - 1].strip() and not lines[start - 1].startswith(
            ("#", "```", "|", ":::")):
        start -= 1
    return plain(" ".join(line.strip() for line in lines[start:end]))


def read_examples(text: str) -> list[Example]:
    """Every console example of a Markdown page, in page order.

    >>> page = "Check a file:\\n\\n```console\\n$ notation-tools games --check\\nok\\n```\\n"
    >>> [example] = read_examples(page)
    >>> example.description, example.steps, example.line
    ('Check a file:', (Step(command='notation-tools games --check', output=('ok',)),), 4)
    """
    lines = text.split("\n")
    examples = []
    index = 0
    while index < len(lines):
        fence = FENCE.match(lines[index])
        if not fence:
            index += 1
            continue
        description = _paragraph_before(lines, index)
        body_start = index + 1
        index += 1
        while index < len(lines) and lines[index].rstrip() != fence.group(1):
            index += 1
        examples.append(Example(description, _steps(lines[body_start:index], body_start + 1),
                                body_start + 1))
        index += 1
    return examples


def _steps(body: list[str], first_line: int) -> tuple[Step, ...]:
    if body and not body[0].startswith(PROMPT):
        raise ValueError(f"line {first_line}: a console example starts with '{PROMPT}'")
    steps: list[Step] = []
    for line in body:
        if line.startswith(PROMPT):
            steps.append(Step(line[len(PROMPT):].strip(), ()))
        else:
            steps[-1] = dataclasses.replace(steps[-1], output=(*steps[-1].output, line))
    return tuple(steps)


def matches(expected: str, actual: str) -> bool:
    """Whether an output line is the documented one, ``...`` standing for any text.

    >>> matches("perft(1) = 1194  (...)", "perft(1) = 1194  (0.004 s, 298,500 nodes/s)")
    True
    >>> matches("perft(1) = 1194  (...)", "perft(1) = 1195  (0.004 s)")
    False
    """
    pattern = ".*".join(re.escape(piece) for piece in expected.rstrip().split(ELLIPSIS))
    return re.fullmatch(pattern, actual.rstrip()) is not None


def page_examples(path: Path) -> list[Example]:
    """The console examples of one page (``[]`` when the page has none)."""
    return read_examples(path.read_text(encoding="utf-8"))
