"""Fixtures shared by the widget tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from canvas_recorder import Recorder


@pytest.fixture
def rec(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    """Every canvas message sent during the test, decoded."""
    return Recorder(monkeypatch)
