"""The language server's time from a change to published diagnostics (issue #28).

Starts ``python -m notation_tools lsp --debounce 0`` as a subprocess and speaks LSP to it
with pygls's client, as an editor would. For each game it opens one random legal record of
up to ``--plies`` plies (``notation-tools generate``'s generator), then ``--repeat`` times
changes it (a comment appended to its last line, the whole text sent) and times each change
until the diagnostics for it arrive. Then it opens a file of ``--records`` records (Elevation,
``--short-plies`` plies each) and times a change to one record in its middle. Reports the
best and median times in milliseconds; the debounce (0 here) adds to them in an editor.

Run: ``python benchmarks/bench_lsp.py [--plies N] [--records N] [--short-plies N]
[--repeat N]``. Needs the lsp extra. Not a test: it prints numbers and asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import statistics
import sys
import time

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from notation_tools.analysis.generate import generate_records
from notation_tools.games.base import all_games, get_game
from notation_tools.records.writers import RECORD_WRITERS


def records_text(game_id: str, *, count: int, plies: int, seed: int = 1) -> tuple[str, int]:
    """``count`` random records of ``game_id`` as PGN, and their plies in all."""
    game = get_game(game_id)
    out = io.StringIO()
    writer = RECORD_WRITERS["pgn"](out)
    total = 0
    for record in generate_records(game, game.parse_rules(None), count=count, seed=seed,
                                   max_plies=plies):
        total += len(record.moves)
        writer.write(record)
    writer.end()
    return out.getvalue(), total


class Timer:
    """A client that waits for the diagnostics of one document after each change."""

    def __init__(self, client: LanguageClient) -> None:
        self.client = client
        self.arrived = asyncio.Event()

        @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            self.arrived.set()

    async def open(self, uri: str, text: str) -> float:
        self.arrived.clear()
        started = time.perf_counter()
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="pgn", version=1,
                                                 text=text)))
        await self.arrived.wait()
        return time.perf_counter() - started

    async def change(self, uri: str, text: str, version: int) -> float:
        self.arrived.clear()
        started = time.perf_counter()
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
        await self.arrived.wait()
        return time.perf_counter() - started


def edited(text: str, line: int, version: int) -> str:
    """``text`` with a comment appended to its 0-based ``line``."""
    lines = text.split("\n")
    lines[line] += f" {{edit {version}}}"
    return "\n".join(lines)


async def time_changes(timer: Timer, uri: str, text: str, line: int, repeat: int) -> list[float]:
    times = []
    for version in range(2, repeat + 2):
        times.append(await timer.change(uri, edited(text, line, version), version))
    return times


def report(label: str, opened: float, times: list[float]) -> None:
    print(f"{label:<52} open {opened * 1000:8.1f} ms   change best {min(times) * 1000:7.1f} ms"
          f"   median {statistics.median(times) * 1000:7.1f} ms", flush=True)


async def main(args: argparse.Namespace) -> None:
    client = LanguageClient("bench-lsp", "1")
    timer = Timer(client)
    await client.start_io(sys.executable, "-m", "notation_tools", "lsp", "--debounce", "0")
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    for number, game in enumerate(all_games()):
        text, plies = records_text(game.id, count=1, plies=args.plies)
        uri = f"file:///bench/{game.id}.pgn"
        opened = await timer.open(uri, text)
        last = len(text.rstrip("\n").split("\n")) - 1
        report(f"{game.id}: one record of {plies} plies", opened,
               await time_changes(timer, uri, text, last, args.repeat))
    text, plies = records_text("elevation", count=args.records, plies=args.short_plies)
    uri = "file:///bench/archive.pgn"
    opened = await timer.open(uri, text)
    middle = len(text.split("\n")) // 2
    while not text.split("\n")[middle].strip() or text.split("\n")[middle].startswith("["):
        middle += 1
    report(f"elevation: {args.records} records ({plies} plies), one edited", opened,
           await time_changes(timer, uri, text, middle, args.repeat))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=300)
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--short-plies", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=7)
    asyncio.run(main(parser.parse_args()))
