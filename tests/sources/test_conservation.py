"""The conservation law of reading, as a property: for every input, records read + records
reported unreadable = records present.

``fuzz.archives.build_archive`` builds random inputs from generated records (tar, compressed
tar, zip, compressed files, archives inside archives, binary, empty and non-UTF-8 members,
member names that are not UTF-8, members cut short, whole inputs cut at a random byte) and
counts, from what it put where, what a reader must give: the whole records, one diagnostic per
unreadable member and per break, and the records a break cuts (each named by its break's
diagnostic). The library (``iter_records``) and the command line (``validate``) must give
exactly that.
"""

from __future__ import annotations

import json
import os
import random
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzz.archives import BuiltArchive, build_archive, read_back
from tests.conftest import invoke


def _written(built: BuiltArchive, folder: str) -> str:
    path = os.path.join(folder, built.name)
    with open(path, "wb") as out:
        out.write(built.data)
    return path


def check_library(built: BuiltArchive) -> int:
    """Read ``built`` with ``iter_records`` and compare with the builder's counts; the number
    of records read."""
    found, diagnostics, path = read_back(built)
    assert found == built.expected, (
        f"{built.shape}: read {found}, built {built.expected}:\n"
        + "\n".join(map(str, diagnostics)))
    # every diagnostic names where: the input, or a member of it
    assert all(d.path.startswith(path) for d in diagnostics)
    # a record a break cuts is named with its line
    assert all(d.line >= 1 for d in diagnostics if d.record is not None)
    return found.records


# The builder draws from a seeded random.Random (as the fuzz harness does): its own
# distribution of shapes, which hypothesis's shrinking would only flatten.
SEEDS = st.integers(0, 2**48)


@settings(max_examples=200, derandomize=True)
@given(SEEDS)
def test_records_read_and_reported_are_the_records_present(seed):
    check_library(build_archive(random.Random(seed)))


@pytest.mark.slow
@settings(max_examples=5000, derandomize=False)
@given(SEEDS)
def test_records_read_and_reported_are_the_records_present_long(seed):
    check_library(build_archive(random.Random(seed)))


@settings(max_examples=12, derandomize=True)
@given(SEEDS)
def test_validate_counts_what_the_builder_counts(seed):
    from click.testing import CliRunner

    built = build_archive(random.Random(seed))
    with tempfile.TemporaryDirectory() as folder:
        path = _written(built, folder)
        result = invoke(CliRunner(), ["validate", "--format", "json", "--limit",
                                      f"archive-depth={built.archive_depth}", path])
    tally = json.loads(result.stdout)["summary"]
    expected = built.expected
    assert (tally["records"], tally["unreadable_inputs"]) == (expected.records,
                                                             expected.diagnostics)
    # unreadable input is exit status 2; else 1 for records with bytes that are not UTF-8
    assert result.exit_code == (2 if expected.diagnostics else 1 if tally["invalid"] else 0)
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr


def test_the_builder_counts_what_it_builds():
    """The builder's own counts, on inputs of a known shape: not every input is empty, some
    are cut, and a cut input never holds more than was placed in it."""
    built = [build_archive(random.Random(seed)) for seed in range(60)]
    assert sum(b.expected.records for b in built) > 100
    assert any(b.expected.cut for b in built) and any("cut at" in b.shape for b in built)
    assert all(b.expected.records + b.expected.cut <= b.placed for b in built)
