"""Work off the click path: a worker thread does it, the kernel's event loop takes the answer.

Widgets may change on the kernel's thread only, so the worker never touches one: it hands its answer to
the loop (``call_soon_threadsafe``), whose callback applies and draws it. Tables use this for a slow bot's
move (``Thought``) and for the result code that replays such a bot's game.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sheetkit.core.protocol import GameState


class WorkerThread:
    """One worker thread, started the first time work is handed to it (the live panels', the Hint button's)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def submit(self, work: Callable[..., Any], *args: Any) -> Future[Any]:
        """Run ``work(*args)`` on the thread, after the work handed to it before."""
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=self.name)
        return self._pool.submit(work, *args)


@dataclass
class Job:
    """Work done on a worker thread whose answer the kernel's thread takes (a slow bot's move, a result code)."""

    result: Any = None
    error: str | None = None                 # the traceback, when the work failed
    done: threading.Event = field(default_factory=threading.Event)


def off_click_path(work: Callable[[], Any], finish: Callable[[Job], None], name: str) -> Job:
    """Run ``work`` on a worker thread, then ``finish(job)`` on the kernel's event loop: widgets change on the
    kernel's thread only. With no loop running (tests, scripts) nobody calls ``finish``: wait for ``job.done``."""
    try:
        loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        loop = None
    job = Job()

    def run() -> None:
        try:
            job.result = work()
        except Exception:  # reported on the kernel's thread
            job.error = traceback.format_exc()
        job.done.set()
        if loop is not None:
            with contextlib.suppress(RuntimeError):     # the kernel is shutting down
                loop.call_soon_threadsafe(finish, job)

    threading.Thread(target=run, name=name, daemon=True).start()
    return job


@dataclass
class Thought:
    """A slow bot thinking on a worker thread: whose move, on which game and at which point of it."""

    seat: int
    name: str
    game: GameState
    at: int                                  # the log's length when it began (a stale answer is dropped)
    moves: int | None                        # bot moves still allowed in this stretch (None: no cap)
    flip: bool                               # whether this stretch goes on past a table step
    job: Job = field(default_factory=Job)
