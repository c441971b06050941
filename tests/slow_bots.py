"""A deliberately slow bot, registered only by tests: it plays as the game's greedy bot but takes its time.

It declares ``slow = True`` (as the expert bots do), so tables let it think on a worker thread. A test holds
it with ``gate`` (a ``threading.Event``: it thinks until the test sets it) or lets it sleep ``delay`` seconds.
``register`` puts it in a game's ``BOTS`` as "slow" — the same dict the registry, the tables, the CLI and
class play read — and a Voila page registers it from its own notebook (tests/browser/test_bot_thinking.py).
"""

from __future__ import annotations

import threading
import time
from collections.abc import MutableMapping
from typing import Any, ClassVar

import pytest


class SlowBot:
    """The greedy bot of a game, slowed down; ``started`` is set whenever it begins to think."""

    name = "slow"
    slow = True
    greedy: Any = None                       # the game's greedy bot class (set by ``slow_bot_for``)
    gate: threading.Event | None = None      # think until this is set (None: sleep ``delay`` instead)
    delay = 1.0
    started = threading.Event()
    threads: ClassVar[list[str]] = []        # the threads it thought on

    def __init__(self, seed: int | None = 0) -> None:
        self.inner = self.greedy(seed=seed)

    def act(self, state: Any, player: int) -> Any:
        """The greedy move, after waiting for the gate (or ``delay`` seconds)."""
        type(self).threads.append(threading.current_thread().name)
        type(self).started.set()
        if self.gate is not None:
            if not self.gate.wait(30):
                raise TimeoutError("the test never let the slow bot finish")
        else:
            time.sleep(self.delay)
        return self.inner.act(state, player)


def slow_bot_for(greedy: Any, gate: threading.Event | None = None, delay: float = 1.0) -> type[SlowBot]:
    """A SlowBot class playing as ``greedy`` (its own class, so tests never share a gate)."""
    return type("SlowBot", (SlowBot,), {"greedy": greedy, "gate": gate, "delay": delay,
                                        "started": threading.Event(), "threads": []})


def register(bots: MutableMapping[str, Any], greedy: Any, monkeypatch: pytest.MonkeyPatch | None = None,
             gate: threading.Event | None = None, delay: float = 1.0) -> type[SlowBot]:
    """Add "slow" to a game's BOTS (undone by ``monkeypatch`` at the test's end, when given); returns its class."""
    cls = slow_bot_for(greedy, gate, delay)
    if monkeypatch is not None:
        monkeypatch.setitem(bots, "slow", cls)
    else:
        bots["slow"] = cls
    return cls
