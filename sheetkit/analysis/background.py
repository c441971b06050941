"""Analysis work on a daemon thread: start it, watch partial results arrive, stop it, wait for it."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

T = TypeVar("T")


class BackgroundRun(ABC, Generic[T]):
    """One long piece of work (``_play``) that a page can run without blocking: ``outcome`` fills in as it goes."""

    thread_name: ClassVar[str] = "sheetkit-run"

    def __init__(self, on_update: Callable[[T], None] | None = None,
                 on_done: Callable[[T | None, BaseException | None], None] | None = None) -> None:
        self.on_update, self.on_done = on_update, on_done
        self.outcome: T | None = None
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._finished = threading.Event()

    @abstractmethod
    def _play(self) -> T:
        """The work itself; it should stop soon after ``self._stop`` is set and report partials to ``_partial``."""

    # -- control ---------------------------------------------------------------------------
    def start(self) -> Any:
        """Begin on a daemon thread; returns self."""
        if self._thread is not None:
            raise RuntimeError("this run has already started")
        self._thread = threading.Thread(target=self._work, name=self.thread_name, daemon=True)
        self._thread.start()
        return self

    def run(self) -> T | None:
        """Play in this thread (no background): returns the outcome."""
        self._work()
        if self.error is not None:
            raise self.error
        return self.outcome

    def stop(self) -> None:
        """Ask the run to stop after the work in play."""
        self._stop.set()

    @property
    def running(self) -> bool:
        """True from ``start()`` until the run has finished (and ``on_done`` has returned)."""
        return self._thread is not None and not self._finished.is_set()

    @property
    def stopping(self) -> bool:
        """True once ``stop()`` was asked."""
        return self._stop.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the run has finished; False if ``timeout`` passed first."""
        return self._finished.wait(timeout)

    # -- the work --------------------------------------------------------------------------
    def _partial(self, got: T) -> None:
        self.outcome = got
        if self.on_update is not None:
            self.on_update(got)

    def _work(self) -> None:
        try:
            self.outcome = self._play()
        except BaseException as e:  # reported through on_done / error, never lost on the thread
            self.error = e
        finally:
            try:
                if self.on_done is not None:
                    self.on_done(self.outcome, self.error)
            finally:
                self._finished.set()
