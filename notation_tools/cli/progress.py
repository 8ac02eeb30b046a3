"""The progress bar of the reading commands (analyze, validate, stats, convert, select).

Click's own bar draws it on standard error: the bytes of the inputs read out of their total
size (so its percentage and ETA hold for archives and compressed files, whose records cannot
be counted before they are read), then the records done, how many are invalid, the megabytes
read and the rate in records per second. It is shown only when standard error is a terminal,
unless ``--progress``/``--no-progress`` says otherwise; ``--quiet`` silences it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

import click

from notation_tools.parallel.batch import RecordReport
from notation_tools.records.diagnostics import Diagnostic
from notation_tools.records.model import Record
from notation_tools.sources import ReadProgress, Suffixes, input_files, input_size

F = TypeVar("F", bound=Callable[..., Any])


def progress_option(func: F) -> F:
    return click.option(
        "--progress/--no-progress", "progress", default=None,
        help="Show a progress bar on standard error: bytes read of the inputs' total (with "
             "percentage and ETA), records, invalid records, records/s (default: when "
             "standard error is a terminal and --quiet is not given).")(func)


class Progress:
    """A bar over the inputs ``paths``, or nothing when not ``enabled``."""

    def __init__(self, enabled: bool, paths: list[str], label: str,
                 suffixes: Suffixes = ()) -> None:
        self.reading = ReadProgress()
        self.records = self.invalid = 0
        self.start = time.monotonic()
        self.drawn = 0.0
        self.bar: Any = None
        if not enabled:
            return
        sizes = [input_size(path) for path in input_files(paths, suffixes)]
        known = [size for size in sizes if size is not None]
        total = sum(known) if len(known) == len(sizes) else None
        self.bar = click.progressbar(
            length=max(total or 0, 1), file=sys.stderr, label=label, show_eta=bool(total),
            show_percent=bool(total), item_show_func=lambda text: text)
        if enabled and hasattr(self.bar, "_is_atty"):
            # Asked for (--progress) on a file or pipe: draw it there too; Click's bar would
            # otherwise print only its label when standard error is not a terminal.
            self.bar._is_atty = True
        self.bar.__enter__()
        self.shown = 0

    @staticmethod
    def wanted(progress: bool | None, quiet: bool = False) -> bool:
        """The ``--progress/--no-progress`` choice, else whether stderr is a terminal."""
        if progress is not None:
            return progress
        return not quiet and sys.stderr.isatty()

    def update(self, item: RecordReport | Record | Diagnostic | None) -> None:
        """Count one item done and redraw."""
        if isinstance(item, (RecordReport, Record)):
            self.records += 1
            self.invalid += any(d.is_error for d in item.diagnostics)
        bar = self.bar
        if bar is None:
            return
        now = time.monotonic()
        if now - self.drawn < 0.1:
            return  # redrawing costs more than replaying a record: ten times a second
        self.drawn = now
        self._describe(now)
        step = min(self.reading.bytes_done, bar.length) - self.shown
        self.shown += step
        if step:
            bar.update(step)
        else:
            bar.render_progress()

    def _describe(self, now: float) -> None:
        rate = self.records / max(now - self.start, 1e-9)
        self.bar.current_item = (f"{self.records:,} records, {self.invalid:,} invalid, "
                                 f"{self.reading.bytes_done / 1e6:,.1f} MB, "
                                 f"{rate:,.0f} records/s")

    def echo(self, text: str) -> None:
        """Print a line on standard error without mixing it into the bar."""
        if self.bar is not None:
            sys.stderr.write("\r\033[K")
        click.echo(text, err=True)
        if self.bar is not None:
            self.bar.render_progress()

    def close(self) -> None:
        if self.bar is not None:
            self._describe(time.monotonic())
            self.bar.update(self.bar.length - self.shown)
            self.bar.render_progress()
            self.bar.__exit__(None, None, None)
            self.bar = None
