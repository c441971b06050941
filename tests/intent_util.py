"""Shared by the tables' intent tests: a refusal is an IllegalAction and leaves the game as it was."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sheetkit.core.errors import IllegalAction


def refusal(call: Callable[..., Any], state: Any, *args: Any) -> IllegalAction:
    """``call(state, *args)`` must refuse (an ``IllegalAction``) and change nothing of ``state``."""
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as e:
        call(state, *args)
    assert state.fingerprint() == before, "a refusal changed the game"
    return e.value
