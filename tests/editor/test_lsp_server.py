"""The language server as an editor uses it (issue #28): ``python -m notation_tools lsp``
started as a subprocess, spoken to over stdio by pytest-lsp's client. One server for the
module; each test opens its own documents.

Expectations come from the library's own replay of the same text (the oracle), never from
the server's answers."""

from __future__ import annotations

import dataclasses
import itertools
import re
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from notation_tools.analysis.replay import replay
from notation_tools.editor.document import utf16_column
from notation_tools.games.base import get_game
from notation_tools.records.pgn import read_records

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
GAMES = ("elevation", "game-of-war", "maka", "shih", "shuriken-2d")
ILLEGAL = {"elevation": "broken-illegal-move.pgn", "game-of-war": "broken-illegal-move.pgn",
           "maka": "broken-illegal-move.pgn", "shih": "broken-illegal-move.pgn",
           "shuriken-2d": "broken-illegal-move-occupied.pgn"}
"""Each game's sample record whose main line stops at an illegal move."""
ENDED = "broken-result-mismatch.pgn"
"""Each game's sample record of a finished game with the wrong result."""
PLAYED = {"elevation": "spec-example-two-plies.pgn", "game-of-war": "charge-column.pgn",
          "maka": "tsa-sample-record.pgn", "shih": "shih-opening-wall-notation.pgn",
          "shuriken-2d": "selfplay-random-seed7.pgn"}
"""Each game's valid sample record with moves."""
pytestmark = pytest.mark.asyncio(loop_scope="module")
URIS = (f"file:///records/doc{n}.pgn" for n in itertools.count())


@pytest_lsp.fixture(scope="module", loop_scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "notation_tools", "lsp", "--debounce", "0.02"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


def sample(game: str, name: str) -> str:
    return (SAMPLES / game / name).read_text(encoding="utf-8")


async def published(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    """Wait for the server's next diagnostics for ``uri``."""
    while True:
        params = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if params.uri == uri:
            return params.diagnostics


async def open_text(client: LanguageClient, text: str) -> tuple[str, list[types.Diagnostic]]:
    uri = next(URIS)
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="pgn", version=1, text=text)))
    return uri, await published(client, uri)


async def change(client: LanguageClient, uri: str, text: str,
                 version: int = 2) -> list[types.Diagnostic]:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
    return await published(client, uri)


def oracle(text: str) -> list[tuple[str, int, int]]:
    """(code, 0-based line, UTF-16 column) of every diagnostic the library finds in ``text``."""
    lines = text.split("\n")
    found = []
    for record in read_records(lines):
        replay(record)
        found += [(d.code, d.line - 1, utf16_column(lines[d.line - 1], d.column - 1))
                  for d in record.diagnostics]
    return sorted(found)


def codes(diagnostics: list[types.Diagnostic]) -> set[str]:
    return {str(d.code) for d in diagnostics}


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """``text`` with LSP edits made (last first), columns read as UTF-16 units."""
    lines = text.split("\n")

    def offset(position: types.Position) -> int:
        line = lines[position.line]
        units, index = 0, 0
        while index < len(line) and units < position.character:
            units += 2 if ord(line[index]) > 0xFFFF else 1
            index += 1
        return sum(len(row) + 1 for row in lines[:position.line]) + index

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character),
                       reverse=True):
        text = text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


async def actions_at(client: LanguageClient, uri: str, line: int,
                     end_line: int | None = None) -> list[types.CodeAction]:
    answer = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=line, character=0),
                          end=types.Position(line=line if end_line is None else end_line,
                                             character=0)),
        context=types.CodeActionContext(diagnostics=[])))
    return [action for action in answer or [] if isinstance(action, types.CodeAction)]


async def fixed_by(client: LanguageClient, uri: str, text: str,
                   action: types.CodeAction) -> tuple[str, list[types.Diagnostic]]:
    """The text after ``action``'s edit, and the diagnostics the server publishes for it."""
    assert action.edit is not None and action.edit.changes is not None
    new_text = apply(text, action.edit.changes[uri])
    return new_text, await change(client, uri, new_text)


# ---- diagnostics --------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
async def test_diagnostics_match_the_replay_with_ranges_codes_and_rules_links(client, game):
    text = sample(game, ILLEGAL[game]) + "\n" + sample(game, ENDED)
    uri, diagnostics = await open_text(client, text)
    assert sorted((str(d.code), d.range.start.line, d.range.start.character)
                  for d in diagnostics) == oracle(text)
    for diagnostic in diagnostics:
        assert diagnostic.source == "notation-tools"
        assert diagnostic.range.end.character > diagnostic.range.start.character
        if "[§" in diagnostic.message:  # a rule is cited: it links to its heading
            href = diagnostic.code_description.href
            assert href.startswith("file://") and "/rules/" in href and "#" in href
            section = re.search(r"§(\d+)", diagnostic.message).group(1)
            assert href.split("#")[1].startswith(section)
    assert any(d.severity == types.DiagnosticSeverity.Error for d in diagnostics)


async def test_columns_after_non_ascii_comments_count_utf16_units(client):
    text = sample("elevation", ILLEGAL["elevation"]).replace(
        "1. c1:c2>b2", "{ouverture é𝄞} 1. c1:c2>b2")
    uri, diagnostics = await open_text(client, text)
    (illegal,) = [d for d in diagnostics if d.code == "E-ILLEGAL-MOVE"]
    line = text.split("\n")[illegal.range.start.line]
    start = line.index("a1:a1-a2")
    assert illegal.range.start.character == start + 1  # the 𝄞 before it is two UTF-16 units
    assert illegal.range.end.character == start + 1 + len("a1:a1-a2")


async def test_an_edit_in_one_record_keeps_the_others_diagnostics_shifted(client):
    records = [sample("maka", ENDED), sample("elevation", ILLEGAL["elevation"])]
    text = "\n".join(records)
    uri, before = await open_text(client, text)
    edited = "[Annotator \"me\"]\n" + text  # the first record gains a line
    after = await change(client, uri, edited)
    assert sorted((str(d.code), d.range.start.line + 0) for d in before if d.code == "E-ILLEGAL-MOVE") \
        == sorted((str(d.code), d.range.start.line - 1) for d in after if d.code == "E-ILLEGAL-MOVE")
    assert sorted((str(d.code), d.range.start.line, d.range.start.character) for d in after) \
        == oracle(edited)


# ---- hover ----------------------------------------------------------------------------------


def first_move(text: str) -> tuple[int, int, str]:
    """The 0-based line and column of the record's first move, and its text (via the
    library's reader)."""
    record = next(read_records(text.split("\n")))
    node = record.moves[0]
    return node.line - 1, node.column - 1, node.text


def start_of(text: str):
    """The game, the start position and the record of the text's first record, as the
    library's replay reads them (tags, set-up, first player)."""
    record = next(read_records(text.split("\n")))
    replayed = replay(dataclasses.replace(record, diagnostics=[]), keep_start=True)
    return replayed.game, replayed.start, record


@pytest.mark.parametrize("game", GAMES)
async def test_hover_on_a_move_describes_it_and_draws_the_position_after(client, game):
    text = sample(game, PLAYED[game])
    uri, _ = await open_text(client, text)
    line, column, move_text = first_move(text)
    answer = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=line, character=column + 1)))
    value = answer.contents.value
    chosen, position, _ = start_of(text)
    move = chosen.parse_move(move_text, position)
    for fact in chosen.describe_move(move, position).values():
        assert str(fact) in value
    position.push(move)
    assert "```\n" + chosen.render_text(position).rstrip("\n") + "\n```" in value
    assert answer.range.start == types.Position(line=line, character=column)


@pytest.mark.parametrize("tag, expected", [("Variant", "maka-dai-dai-shogi"),
                                           ("Rules", "modern"), ("Result", "1/2-1/2"),
                                           ("Event", "seven-tag roster")])
async def test_hover_on_a_tag_says_what_it_means_and_its_values(client, tag, expected):
    text = sample("maka", ENDED)
    uri, _ = await open_text(client, text)
    line = next(i for i, row in enumerate(text.split("\n")) if row.startswith(f"[{tag} "))
    answer = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=line, character=2)))
    assert f"**{tag}**" in answer.contents.value and expected in answer.contents.value


# ---- completion -----------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
async def test_completion_offers_the_legal_moves_of_the_position_there(client, game):
    text = sample(game, PLAYED[game])
    uri, _ = await open_text(client, text)
    line, column, move_text = first_move(text)
    answer = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=line, character=column + len(move_text))))
    labels = [item.label for item in answer.items]
    chosen, start, record = start_of(text)
    notation = written_in(chosen, start, record)
    legal = [chosen.format_move(m, start, notation) for m in start.legal_moves()]
    typed = [written for written in legal if written.startswith(move_text)]
    if typed:  # the moves written as the text at the cursor begins
        assert labels == typed[:200] and move_text in labels
    else:  # a Game of War turn of several actions: the legal actions that start it
        assert labels == legal[:200]


@pytest.mark.parametrize("game", GAMES)
async def test_completion_after_a_move_offers_the_moves_of_the_position_after_it(client, game):
    full = sample(game, PLAYED[game])
    fourth = next(read_records(full.split("\n"))).moves[:4][-1]
    lines = full.split("\n")[:fourth.line]
    lines[-1] = lines[-1][:fourth.column - 1 + len(fourth.text)] + " "
    lines.append("")  # the movetext cut after its fourth move: the next goes on a new line
    text = "\n".join(lines)
    uri, _ = await open_text(client, text)
    answer = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=len(lines) - 1, character=len(lines[-1]))))
    chosen, start, record = start_of(text)
    notation = written_in(chosen, start, record)
    end = replay(record).position
    legal = [chosen.format_move(m, end, notation) for m in end.legal_moves()]
    assert [item.label for item in answer.items] == legal[:200] and legal


def written_in(game, start, record):
    """The notation the record's first move is written in, as the game writes it."""
    move = game.parse_move(record.moves[0].text, start)
    return next(n for n in game.notations if game.format_move(move, start, n) == record.moves[0].text)


# ---- code actions ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
async def test_fix_the_result_from_the_replayed_end(client, game):
    text = sample(game, ENDED)
    uri, diagnostics = await open_text(client, text)
    assert "E-RESULT-MISMATCH" in codes(diagnostics)
    (action,) = [a for a in await actions_at(client, uri, 0) if a.title.startswith("Set the result")]
    new_text, after = await fixed_by(client, uri, text, action)
    assert "E-RESULT-MISMATCH" not in codes(after) and not oracle(new_text)


@pytest.mark.parametrize("game", GAMES)
async def test_renumber_mends_a_move_number_out_of_sequence(client, game):
    text = sample(game, PLAYED[game])
    lines = text.split("\n")
    node = next(n for n in next(read_records(lines)).moves if n.number)
    row, column = node.number_line - 1, node.number_column - 1
    wrong = str(int(node.number.rstrip(".…")) + 4) + node.number.lstrip("0123456789")
    lines[row] = lines[row][:column] + wrong + lines[row][column + len(node.number):]
    broken = "\n".join(lines)
    uri, diagnostics = await open_text(client, broken)
    number_code = get_game(game).dialect.move_number_code[0]
    assert number_code in codes(diagnostics)
    (action,) = [a for a in await actions_at(client, uri, row) if a.title == "Renumber the moves"]
    new_text, after = await fixed_by(client, uri, broken, action)
    assert new_text == text and not codes(after)


@pytest.mark.parametrize("game", GAMES)
async def test_add_the_missing_variant_and_rules_tags(client, game):
    text = "\n".join(line for line in sample(game, ENDED).split("\n")
                     if not line.startswith(("[Variant ", "[Rules ")))
    uri, diagnostics = await open_text(client, text)
    assert "E-UNKNOWN-VARIANT" in codes(diagnostics)
    game_id = get_game(game).id
    (action,) = [a for a in await actions_at(client, uri, 0)
                 if a.title == f'Add [Variant "{game_id}"]']
    text, after = await fixed_by(client, uri, text, action)
    assert "E-UNKNOWN-VARIANT" not in codes(after)
    (action,) = [a for a in await actions_at(client, uri, 0) if a.title.startswith("Add [Rules ")]
    text, after = await fixed_by(client, uri, text, action)
    record = next(read_records(text.split("\n")))
    assert record.tag("Rules") == get_game(game).parse_rules(None).describe()
    assert codes(after) == {"E-RESULT-MISMATCH"}  # the sample's own fault, nothing new


def illegal_text(game: str) -> str:
    """A record of ``game`` that stops at an illegal move: the game's sample, or, for Game
    of War (whose sample's unit can only pass), its combat study with a move too far."""
    if game == "game-of-war":
        return sample(game, PLAYED[game]).replace("L13-L12", "L13-L10", 1)
    return sample(game, ILLEGAL[game])


@pytest.mark.parametrize("game", GAMES)
async def test_illegal_move_quick_fixes_are_legal_moves_that_replay(client, game):
    text = illegal_text(game)
    uri, diagnostics = await open_text(client, text)
    (first,) = [d for d in diagnostics if d.range.start.line == min(
        x.range.start.line for x in diagnostics if x.severity == types.DiagnosticSeverity.Error)
        and d.severity == types.DiagnosticSeverity.Error][:1]
    replacements = [a for a in await actions_at(client, uri, first.range.start.line)
                    if a.title.startswith("Replace ")]
    assert replacements
    new_text, after = await fixed_by(client, uri, text, replacements[0])
    assert not [d for d in after if d.range.start == first.range.start and d.code == first.code]


def respelled(game: str, text: str) -> tuple[str, str, str] | None:
    """``text`` with one move written another way that reads as the same move (another of
    the game's notations, or other letter case), the new text, and its canonical spelling."""
    chosen, position, record = start_of(text)
    assert chosen is get_game(game)
    for index, node in enumerate(record.moves):
        move = chosen.parse_move(node.text, position)
        if not index:  # the first move says which notation the record is in
            position.push(move)
            continue
        others = {chosen.format_move(move, position, n) for n in chosen.notations}
        for other in sorted((others | {node.text.lower(), node.text.upper()}) - {node.text}):
            try:
                if chosen.parse_move(other, position) == move:
                    lines = text.split("\n")
                    row, column = node.line - 1, node.column - 1
                    lines[row] = lines[row][:column] + other + lines[row][column + len(node.text):]
                    return "\n".join(lines), other, node.text
            except Exception:  # noqa: BLE001 - a spelling that does not read is no candidate
                continue
        position.push(move)
    return None


@pytest.mark.parametrize("game", ["elevation", "maka", "shih", "shuriken-2d"])
async def test_a_non_canonical_spelling_is_rewritten_canonically(client, game):
    found = respelled(game, sample(game, PLAYED[game]))
    assert found is not None
    text, written, canonical = found
    uri, _ = await open_text(client, text)
    row = next(i for i, line in enumerate(text.split("\n"))
               if f" {written} " in f" {line} " and not line.startswith("["))
    actions = [a for a in await actions_at(client, uri, row) if a.title.startswith(f"Write {written} as")]
    new_text, after = await fixed_by(client, uri, text, actions[0])
    assert new_text == sample(game, PLAYED[game])
    assert sorted((str(d.code), d.range.start.line) for d in after) == sorted(
        (code, line) for code, line, _ in oracle(new_text))


async def test_no_quick_fix_when_no_legal_move_is_written_like_the_illegal_one(client):
    """Game of War's sample: the unit is cut off, and the only legal turn is a pass ('--'),
    which shares nothing with the written move: nothing is offered in its place."""
    text = sample("game-of-war", ILLEGAL["game-of-war"])
    uri, diagnostics = await open_text(client, text)
    (offline,) = [d for d in diagnostics if d.code == "E-UNIT-OFFLINE"]
    actions = await actions_at(client, uri, offline.range.start.line)
    assert not [a for a in actions if a.title.startswith("Replace ")]
    assert [a.title for a in actions] == ['Add [Rules "debord"]']


async def test_a_game_of_war_move_has_one_spelling_and_gets_no_respelling(client):
    """Game of War's turn notation writes each move one way (no other notation, no other
    letter case reads as the same move), so its records are offered no respelling."""
    text = sample("game-of-war", PLAYED["game-of-war"])
    assert respelled("game-of-war", text) is None
    uri, _ = await open_text(client, text)
    actions = await actions_at(client, uri, 0, len(text.split("\n")))
    assert not [a for a in actions if a.title.startswith("Write ")]
