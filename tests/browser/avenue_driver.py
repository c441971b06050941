"""How the browser tests and benchmarks drive a sheet page: where to click, when it is ready."""

from __future__ import annotations

from typing import Any

from voila_harness import wait_ready

Click = tuple[float, float, tuple[int, int, int, int]]   # canvas x, y, and the cell's pixel rect


class MinimalDriver:
    """benchmarks/minimal_canvas.ipynb: a 7×6 grid of 64 px cells, one fill per click."""

    name = "minimal"
    notebook = "benchmarks/minimal_canvas.ipynb"
    query = ""
    ready_pattern = "Ready"
    rows, cols, cell = 7, 6, 64

    def __init__(self) -> None:
        self.k = 0

    def wait_ready(self, page: Any) -> None:
        wait_ready(page, self.ready_pattern)

    def next_click(self, page: Any) -> Click:
        r, c = divmod(self.k % (self.rows * self.cols), self.cols)
        self.k += 1
        s = self.cell
        return (c + 0.5) * s, (r + 0.5) * s, (c * s, r * s, s, s)

    def after_click(self, page: Any) -> None:
        pass


class AvenueDriver:
    """notebooks/avenue.ipynb (filled in once the widget exists)."""

    name = "avenue"
    notebook = "notebooks/avenue.ipynb"

    def __init__(self, code: str = "AV-0000-001A", bots: str = "") -> None:
        self.code, self.bots = code, bots
        self.query = f"code={code}" + (f"&bots={bots}" if bots else "")
        self.ready_pattern = "Draw"

    def wait_ready(self, page: Any) -> None:
        wait_ready(page, self.ready_pattern)

    def next_click(self, page: Any) -> Click:
        raise NotImplementedError

    def after_click(self, page: Any) -> None:
        raise NotImplementedError
