"""Shared fixtures: a CliRunner with separate stdout/stderr, and a hypothesis profile."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, max_examples=60,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("slow", deadline=None, max_examples=1000,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def invoke(runner: CliRunner, args: list[str], input: bytes | str | None = None):
    """Run the CLI; a crash is never an acceptable outcome (G11)."""
    from notation_tools.cli import main

    result = runner.invoke(main, args, input=input, catch_exceptions=True)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"crashed: {result.exception!r}\n{result.stderr}")
    return result
