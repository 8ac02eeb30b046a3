"""The documentation cannot drift from the program: the site builds with warnings as errors,
every console example runs and prints what its page shows, every Python example runs, every
command and game has its page, and the man pages carry the same examples and the codes."""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation_tools.cli import main
from tools.examples import Example, matches, page_examples, read_examples
from tools.manpages import CODES_PAGE, render_man_pages
from notation_tools.codes import SHARED_CODES
from notation_tools.games.base import all_games

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(path for path in DOCS.rglob("*.md") if "_build" not in path.parts)
EXAMPLES = [(page, example) for page in PAGES for example in page_examples(page)]
PROGRAM = "notation-tools"


# myst-parser's include directive still reads an attribute Sphinx 9 deprecates for Sphinx 11
# (the docs extra stays below 11); any other Python warning still fails the build.
@pytest.mark.filterwarnings("ignore::sphinx.deprecation.RemovedInSphinx11Warning")
def test_the_site_builds_with_warnings_as_errors(tmp_path):
    from sphinx.cmd.build import build_main

    status = build_main(["-E", "-W", "--keep-going", "-n", "-q", "-b", "html",
                         str(DOCS), str(tmp_path / "html")])
    assert status == 0
    built = tmp_path / "html"
    for page in ("index", "records", "api-reference", "changelog", "commands/validate",
                 "games/maka-dai-dai-shogi"):
        assert (built / f"{page}.html").is_file(), page
    # The generated parts are there: a command's options, a game's codes and its rules.
    validate = (built / "commands" / "validate.html").read_text(encoding="utf-8")
    assert "--format" in validate and "--verbose" in validate
    for game in all_games():
        page = (built / "games" / f"{game.id}.html").read_text(encoding="utf-8")
        assert ">§1 " in page or ">§1." in page, game.id  # the rules reference is included
        for code in game.codes:
            assert code.code in page, (game.id, code.code)
            # the section a code cites links to its heading on the same page
            for number in re.findall(r"§\d+(?:\.\d+)*", code.section or ""):
                assert re.search(rf'href="#[\w-]+">{re.escape(number)}</a>', page), (
                    game.id, code.code, number)


def _output_lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _stream_lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.removesuffix("\n").split("\n")] if text else []


def interleaves(shown: list[str], out: list[str], err: list[str]) -> bool:
    """Whether the lines a page shows are the program's standard output and standard error
    merged as a terminal may show them: each stream's lines in order (which lines of the two
    came first depends on buffering, not on the program). Blank lines that end a stream may
    be left out, as they end a block of the page."""
    reachable = {(0, 0)}
    for line in shown:
        reachable = {step for i, j in reachable for step in (
            *([(i + 1, j)] if i < len(out) and matches(line, out[i]) else []),
            *([(i, j + 1)] if j < len(err) and matches(line, err[j]) else []))}
    return any(not "".join(out[i:] + err[j:]).strip() for i, j in reachable)


def test_interleaving():
    assert interleaves(["e", "o1", "o2"], ["o1", "o2"], ["e"])
    assert not interleaves(["o2", "o1", "e"], ["o1", "o2"], ["e"])
    assert not interleaves(["o1"], ["o1", "o2"], [])
    assert interleaves(["o1", "", "e"], ["o1", "", ""], ["e"])


def run_example(example: Example) -> list[tuple[str, list[str], list[str], list[str]]]:
    """Each step's command, the lines the page shows, and the lines the program printed on
    standard output and on standard error, run in the current directory."""
    runner = CliRunner()
    results = []
    status = 0
    for step in example.steps:
        if step.command == "echo $?":
            out, err = [str(status)], []
        else:
            argv = shlex.split(step.command)
            assert argv[0] == PROGRAM, f"an example runs {PROGRAM} or 'echo $?': {step.command}"
            result = runner.invoke(main, argv[1:], prog_name=PROGRAM)
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                raise result.exception
            status = result.exit_code
            out, err = _stream_lines(result.stdout), _stream_lines(result.stderr)
        results.append((step.command, _output_lines("\n".join(step.output)), out, err))
    return results


@pytest.mark.parametrize(("page", "example"), EXAMPLES,
                         ids=[f"{page.relative_to(DOCS)}:{example.line}"
                              for page, example in EXAMPLES])
def test_console_example_prints_what_the_page_shows(page, example, tmp_path, monkeypatch):
    (tmp_path / "sample_games").symlink_to(ROOT / "sample_games", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    for command, shown, out, err in run_example(example):
        assert interleaves(shown, out, err), (
            f"{page.relative_to(ROOT)}:{example.line}: $ {command}\n"
            "the page shows:\n" + "\n".join(shown) + "\nstandard output:\n"
            + "\n".join(out) + "\nstandard error:\n" + "\n".join(err))


def test_the_pages_have_console_examples():
    assert len(EXAMPLES) >= 30
    assert all(step.output or step.command.startswith(f"{PROGRAM} analyze")
               for _, example in EXAMPLES for step in example.steps)


def test_an_ellipsis_stands_for_text_within_one_line_only():
    assert matches("perft(2) = 5625  (...)", "perft(2) = 5625  (0.040 s, 139,728 nodes/s)")
    assert not matches("perft(2) = 5625  (...)", "perft(2) = 5626  (0.040 s)")
    assert matches("exact", "exact   ")
    assert not matches("exact", "exactly")


def test_a_console_block_must_start_with_a_command():
    with pytest.raises(ValueError, match="line 2"):
        read_examples("```console\noutput without a command\n```\n")


@pytest.mark.parametrize("page", [page for page in PAGES if ">>> " in page.read_text(
    encoding="utf-8")], ids=lambda page: str(page.relative_to(DOCS)))
def test_python_examples_run(page):
    failures, tried = doctest.testfile(str(page), module_relative=False, verbose=False,
                                       optionflags=doctest.ELLIPSIS)
    assert tried and not failures


def test_every_command_has_a_page_with_its_options_and_examples():
    for name in main.commands:
        page = DOCS / "commands" / f"{name}.md"
        assert page.is_file(), f"no page for {name}"
        text = page.read_text(encoding="utf-8")
        assert f"```{{click-command}} {name}\n```" in text, name
        assert any(step.command.startswith(f"{PROGRAM} {name}")
                   for example in read_examples(text) for step in example.steps), name
    pages = {path.stem for path in (DOCS / "commands").glob("*.md")} - {"index"}
    assert pages == set(main.commands)


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.id)
def test_every_game_has_a_page_with_its_tables_rules_and_perft(game):
    text = (DOCS / "games" / f"{game.id}.md").read_text(encoding="utf-8")
    for kind in ("notations", "formats", "options", "profiles", "codes"):
        assert f"```{{game-table}} {game.id} {kind}\n```" in text, kind
    assert f"```{{include}} ../{game.rules_doc.removeprefix('docs/')}\n" in text
    commands = [step.command for example in read_examples(text) for step in example.steps]
    assert any(command.startswith(f"{PROGRAM} perft --game") for command in commands)
    assert any(command.startswith((f"{PROGRAM} convert", f"{PROGRAM} generate"))
               for command in commands)
    index = (DOCS / "games" / "index.md").read_text(encoding="utf-8")
    assert f"\n{game.id}\n" in index


def _roff(text: str) -> str:
    return text.replace("\\", "\\e").replace("-", "\\-")


def test_man_pages_carry_the_examples_of_the_command_pages():
    pages = render_man_pages(main, DOCS)
    for name in main.commands:
        page = pages[f"{PROGRAM}-{name}.1"]
        examples = page_examples(DOCS / "commands" / f"{name}.md")
        assert ".SH EXAMPLES" in page
        for example in examples:
            for step in example.steps:
                assert _roff(f"$ {step.command}") in page, (name, step.command)
                for line in step.output:
                    assert _roff(line).lstrip(".'") in page, (name, line)


def test_man_pages_list_the_diagnostic_codes():
    pages = render_man_pages(main, DOCS)
    for name in main.commands:
        page = pages[f"{PROGRAM}-{name}.1"]
        diagnostics = page[page.index(".SH DIAGNOSTICS"):page.index(".SH SEE ALSO")]
        assert all(f"\\fB{_roff(code.code)}\\fR" in diagnostics for code in SHARED_CODES)
        assert f"{_roff(CODES_PAGE)}\\fR(7)" in page
    codes_page = pages[f"{CODES_PAGE}.7"]
    assert codes_page.startswith(f'.TH "{CODES_PAGE.upper()}" "7"')
    for game in all_games():
        assert f"({_roff(game.id)})" in codes_page
        assert all(f"\\fB{_roff(code.code)}\\fR" in codes_page for code in game.codes)


def test_docs_build_directory_is_ignored():
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert "docs/_build/" in ignored
