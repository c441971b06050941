"""How the browser tests and benchmarks drive a sheet page: where to click, when it is ready."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

from voila_harness import (
    JS_HELPERS,
    FrameLog,
    assert_no_traceback,
    canvas_info,
    click_canvas,
    press,
    settle,
    status_text,
    wait_ready,
)

Click = tuple[float, float, tuple[int, int, int, int]]   # canvas x, y, and the cell's pixel rect
Cell = tuple[int, int]


class MinimalDriver:
    """benchmarks/minimal_canvas.ipynb: one canvas, one fill per click, on Avenue's grid and canvas size.

    ``scale=2`` (the default) draws it at 2×, like the Avenue sheet; ``scale=1`` asks the
    notebook (``?scale=1``) for a 1× canvas, a quarter of the pixels.
    """

    notebook = "benchmarks/minimal_canvas.ipynb"
    ready_pattern = "Ready"
    rows, cols = 7, 6
    x0, y0, cell = 28, 48, 54                 # CSS px, the same grid as Avenue's default sheet
    width, height = 500, 492                  # CSS px of the canvas

    def __init__(self, scale: int = 2) -> None:
        self.scale = scale
        self.name = "minimal" if scale == 2 else f"minimal-{scale}x"
        self.query = "" if scale == 2 else f"scale={scale}"
        self.k = 0

    def wait_ready(self, page: Any) -> None:
        wait_ready(page, self.ready_pattern)

    def cell_rect(self, row: int, col: int) -> tuple[int, int, int, int]:
        """The cell's rectangle in canvas pixels."""
        s = self.scale
        return (self.x0 + col * self.cell) * s, (self.y0 + row * self.cell) * s, self.cell * s, self.cell * s

    def next_click(self, page: Any) -> Click:
        r, c = divmod(self.k % (self.rows * self.cols), self.cols)
        self.k += 1
        x, y, w, h = self.cell_rect(r, c)
        return x + w / 2, y + h / 2, (x, y, w, h)

    def after_click(self, page: Any) -> None:
        pass


@dataclass(frozen=True)
class CellView:
    """One sheet cell as the page shows it."""

    row: int
    col: int
    legal: bool       # tinted as a cell you may draw in
    ink: int          # canvas pixels in the ink colour (a road is hundreds)


# Status line patterns (docs/architecture.md: the status line always answers "what do I do now?").
DRAW = re.compile(r"Draw road (\d)")
NEXT = re.compile(r"press Next card", re.IGNORECASE)
OVER = re.compile(r"Game over")
DREW = re.compile(r"You drew road (\d) at row (\d+), col (\d+)")
PEEKED = re.compile(r"You peeked")


class AvenueDriver:
    """notebooks/avenue.ipynb, driven like a person: read the status line and the sheet, click (``touch=True``: tap).

    Cells are found from the DOM contract in docs/architecture.md (grid origin (28, 48) CSS px,
    54 px cells, canvas drawn at ``canvas.width / CSS width``); legal cells are the ones the sheet
    tints, roads are ink-coloured pixels. Nothing here asks the engine.
    """

    name = "avenue"
    notebook = "notebooks/avenue.ipynb"
    rows, cols = 7, 6
    x0, y0, cell = 28.0, 48.0, 54.0          # CSS px
    ink_rgb = (0x1B, 0x23, 0x40)             # theme.INK, the player's pencil
    ink_tol = 60
    road_min_ink = 150                       # canvas px of ink that make a road (one is ~1000+)
    # A legal cell's tint (sky blue, 10 %) lowers red by ~16 at the cell's corner; the farm network's
    # orange tint lowers it by ~5 only.
    legal_red_drop = 10
    inset = 6                                # CSS px in from a cell's corner: tints only (no icon, road or mark)

    def __init__(self, code: str = "AV-0000-001A", bots: str = "", touch: bool = False) -> None:
        self.code, self.bots = code, bots
        self.touch = touch                   # tap (a touch screen) instead of clicking with the mouse
        self.query = f"code={code}" + (f"&bots={bots}" if bots else "")
        self.ready_pattern = "Draw"
        self.scale = 0.0
        self.clicked: list[Cell] = []        # every cell this driver drew in, in order
        self.pending: Cell | None = None     # the cell of the click not yet acknowledged
        # The benchmark sets both: each Next card press then adds (ended a round, kernel busy ms).
        self.frames: FrameLog | None = None
        self.timings: list[tuple[bool, float]] | None = None

    # ----- reading the page ------------------------------------------------------------------
    def wait_ready(self, page: Any) -> None:
        wait_ready(page, self.ready_pattern)
        info = canvas_info(page)
        self.scale = info["width"] / info["layoutWidth"]   # the drawing scale, even when shown smaller

    def cell_rect(self, row: int, col: int) -> tuple[int, int, int, int]:
        """The cell's rectangle in canvas pixels."""
        s = self.scale
        return (round((self.x0 + col * self.cell) * s), round((self.y0 + row * self.cell) * s),
                round(self.cell * s), round(self.cell * s))

    def cell_center(self, row: int, col: int) -> tuple[float, float]:
        """The cell's centre in canvas pixels."""
        s = self.scale
        return (self.x0 + (col + 0.5) * self.cell) * s, (self.y0 + (row + 0.5) * self.cell) * s

    def _cells_args(self) -> list[Any]:
        s = self.scale
        return [self.x0 * s, self.y0 * s, self.cell * s, self.rows, self.cols, round(self.inset * s),
                list(self.ink_rgb), self.ink_tol]

    def cells(self, page: Any) -> list[CellView]:
        """Every cell as drawn now: tinted legal or not, and its ink."""
        # The paper's colour comes from the sheet's margin, 4 CSS px in from its top-left corner.
        raw, paper = page.evaluate(
            JS_HELPERS + ";(a) => [window.__sk.cells(...a[0]), window.__sk.region(a[1], a[1], 1, 1)]",
            [self._cells_args(), round(4 * self.scale)])
        return [CellView(c["row"], c["col"], c["corner"][0] <= paper[0] - self.legal_red_drop, c["ink"]) for c in raw]

    def legal_cells(self, page: Any) -> list[Cell]:
        return [(c.row, c.col) for c in self.cells(page) if c.legal]

    def road_cells(self, page: Any) -> set[Cell]:
        return {(c.row, c.col) for c in self.cells(page) if c.ink >= self.road_min_ink}

    def status(self, page: Any) -> str:
        return status_text(page)

    def wait_status(self, page: Any, pattern: re.Pattern[str], previous: str | None = None,
                    timeout: float = 30_000) -> str:
        """Wait until the status line matches ``pattern`` (and differs from ``previous``); return it."""
        page.wait_for_function(
            """([pat, flags, prev]) => { const s = document.querySelector('.sk-status');
                 if (!s) return false; const t = s.innerText;
                 return new RegExp(pat, flags).test(t) && (prev === null || t !== prev); }""",
            arg=[pattern.pattern, "i" if pattern.flags & re.IGNORECASE else "", previous], timeout=timeout)
        return self.status(page)

    def wait_my_turn(self, page: Any, timeout: float = 30_000) -> list[Cell]:
        """Wait until the status line asks for a road and the sheet shows legal cells; return them."""
        page.wait_for_function(
            JS_HELPERS + """;(a) => { const s = document.querySelector('.sk-status');
                 if (!s || !/Draw road \\d/.test(s.innerText)) return false;
                 const paper = window.__sk.region(a[1], a[1], 1, 1)[0];
                 return window.__sk.cells(...a[0]).some(c => c.corner[0] <= paper - a[2]); }""",
            arg=[self._cells_args(), round(4 * self.scale), self.legal_red_drop], timeout=timeout)
        return self.legal_cells(page)

    # ----- acting -----------------------------------------------------------------------------
    def click_cell(self, page: Any, row: int, col: int) -> None:
        """A real mouse click (or a tap) on the cell's centre."""
        click_canvas(page, *self.cell_center(row, col), touch=self.touch)

    def press(self, page: Any, css_class: str) -> None:
        press(page.locator(f".{css_class}"), self.touch)

    def round_number(self, page: Any) -> int:
        """The round in the round line ('Round 2 of 5 · …'); 0 when it names none (before, after)."""
        m = re.search(r"Round (\d+) of", page.locator(".sk-info").inner_text())
        return int(m.group(1)) if m else 0

    def press_next(self, page: Any) -> str:
        """Press Next card; wait until it is your move again or the game is over; return the status."""
        before = self.status(page)
        timing = self.timings is not None and self.frames is not None
        if timing:
            assert self.frames is not None
            rnd, mark, t0 = self.round_number(page), self.frames.mark(), time.monotonic()
        self.press(page, "sk-next")
        text = self.wait_status(page, re.compile(f"{DRAW.pattern}|{OVER.pattern}|{NEXT.pattern}", re.I),
                                previous=before)
        if DRAW.search(text):
            self.wait_my_turn(page)
        if timing and self.frames is not None and self.timings is not None:
            settle(page, self.frames, quiet=0.3, timeout=30)
            idle = [f[0] for f in self.frames.since(mark) if f[3] == "iopub/status:idle"]
            if idle:
                self.timings.append((self.round_number(page) != rnd, (idle[-1] - t0) * 1000))
        return text

    def choose(self, legal: list[Cell]) -> Cell:
        """The cell to draw in: the first legal one in reading order (deterministic, like the deal)."""
        return legal[0]

    def draw(self, page: Any, row: int, col: int) -> str:
        """Click the cell and wait until the status line acknowledges that very cell."""
        before = self.status(page)
        self.pending = (row, col)
        self.click_cell(page, row, col)
        return self.acknowledge(page, before)

    def acknowledge(self, page: Any, before: str | None = None) -> str:
        """Wait for the pending click's 'You drew road N at row r, col c' and check it names that cell."""
        assert self.pending is not None
        text = self.wait_status(page, DREW, previous=before)
        m = DREW.search(text)
        assert m, text
        got = (int(m.group(2)) - 1, int(m.group(3)) - 1)
        assert got == self.pending, f"clicked cell {self.pending} but the table drew in {got}: {text!r}"
        self.clicked.append(got)
        self.pending = None
        return text

    def peek(self, page: Any) -> str:
        before = self.status(page)
        self.press(page, "sk-peek")
        return self.wait_status(page, PEEKED, previous=before)

    # ----- the benchmark's loop ---------------------------------------------------------------
    def next_click(self, page: Any) -> Click:
        """Make it your move (Next card, or the same deal again after the end) and pick a legal cell."""
        text = self.status(page)
        if OVER.search(text):
            self.press(page, "sk-again")
            self.clicked = []
            self.wait_status(page, DRAW, previous=text)
        elif NEXT.search(text):
            self.press_next(page)
        legal = self.wait_my_turn(page)
        row, col = self.choose(legal)
        self.pending = (row, col)
        x, y = self.cell_center(row, col)
        return x, y, self.cell_rect(row, col)

    def after_click(self, page: Any) -> None:
        """Check the click was taken in the clicked cell, then flip cards until it is your move again."""
        self.acknowledge(page)
        while NEXT.search(text := self.status(page)) and not OVER.search(text):
            self.press_next(page)

    # ----- one move, for smoke tests ----------------------------------------------------------
    def check_one_draw(self, page: Any) -> Cell:
        """Draw in the first legal cell: a road appears in that cell and in no other; return it."""
        legal = self.wait_my_turn(page)
        before = self.cells(page)
        row, col = self.choose(legal)
        self.draw(page, row, col)
        page.wait_for_function(
            JS_HELPERS + ";(a) => window.__sk.cells(...a[0])[a[1]].ink >= a[2]",
            arg=[self._cells_args(), row * self.cols + col, self.road_min_ink], timeout=15_000)
        after = self.cells(page)
        changed = [(a.row, a.col) for a, b in zip(after, before, strict=True) if a.ink != b.ink]
        assert changed == [(row, col)], f"drew in {(row, col)}, ink changed in {changed}"
        return row, col


# ----- a whole game, as tests/browser/test_avenue_e2e.py and test_touch.py play it -------------------------

PEEK_ROUND = 2            # peek on the first card of this round
ILLEGAL_AFTER = 3         # after this many roads, click an occupied cell once
# the engine's words (IllegalAction "occupied"), counting rows and columns as the sheet prints them
OCCUPIED = "The cell at row {row}, col {col} already has a road."


def sheet_hash(page: Any) -> int:
    """A hash of every pixel of the composited sheet."""
    return int(page.evaluate(JS_HELPERS + ";(() => { const i = window.__sk.info(); "
                                          "return window.__sk.hash(0, 0, i.width, i.height); })()"))


def round_shown(page: Any) -> tuple[int, str | None]:
    """The round number and farm letter in the round line ('Round 2 of 5 · farm D must beat 3 …')."""
    text = page.locator(".sk-info").inner_text()
    m = re.search(r"Round (\d+) of \d+(?: · farm ([A-Z]))?", text)
    return (int(m.group(1)), m.group(2)) if m else (0, None)


def play_to_the_end(p: Any, d: AvenueDriver) -> dict[str, Any]:
    """Play the game through the page (the driver's clicks, or taps); check the peek and an illegal click on the
    way."""
    seen: dict[str, Any] = {"peeked": None, "illegal": False}
    for _ in range(300):
        text = d.status(p)
        if OVER.search(text):
            return seen
        if NEXT.search(text):
            before_round = round_shown(p)[0]
            d.press_next(p)
            rnd, farm = round_shown(p)
            if seen["peeked"] and rnd == PEEK_ROUND + 1 and before_round == PEEK_ROUND:
                assert farm == seen["peeked"], f"peeked at farm {seen['peeked']}, round {rnd} flipped farm {farm}"
            continue
        assert DRAW.search(text), f"the status line should ask for a road: {text!r}"
        legal = d.wait_my_turn(p)
        assert p.locator(".sk-next").is_disabled(), "Next card must wait for your move"
        if d.clicked:       # after Next card (now disabled) the focus is on the sheet, not dropped to the page
            p.wait_for_function("() => { const cs = document.querySelectorAll('.sk-sheet canvas');"
                                " return document.activeElement === cs[cs.length - 1]; }", timeout=15_000)
        both = set(legal) & set(d.clicked)
        assert not both, f"cells with your roads are shown as legal: {both}"
        rnd, _ = round_shown(p)
        if rnd == PEEK_ROUND and seen["peeked"] is None:
            assert p.locator(".sk-peek").is_enabled()
            d.peek(p)
            p.wait_for_function("() => /next farm is/.test(document.querySelector('.sk-peekinfo').innerText)",
                                timeout=15_000)
            info = p.locator(".sk-peekinfo").inner_text()
            m = re.search(r"next farm is ([A-Z])", info)
            assert m, f"after a peek the table says which farm is next: {info!r}"
            seen["peeked"] = m.group(1)
            continue
        if len(d.clicked) == ILLEGAL_AFTER and not seen["illegal"]:
            click_an_occupied_cell(p, d)
            seen["illegal"] = True
        d.draw(p, *d.choose(legal))
    raise AssertionError(f"the game did not end within 300 steps; status: {d.status(p)!r}")


def click_an_occupied_cell(p: Any, d: AvenueDriver) -> None:
    """Clicking (or tapping) a cell that has a road explains itself in the status line and changes nothing."""
    row, col = d.clicked[0]
    before_text, before_pixels = d.status(p), sheet_hash(p)
    d.click_cell(p, row, col)
    err = p.locator(".sk-status .sk-error")
    err.wait_for(state="visible", timeout=15_000)
    assert err.inner_text().strip() == OCCUPIED.format(row=row + 1, col=col + 1)
    status = d.status(p)
    assert DRAW.search(status), f"after a refused click it is still your move: {status!r}"
    assert status != before_text
    p.wait_for_timeout(300)          # a stray redraw would arrive within this
    assert sheet_hash(p) == before_pixels, "a refused click must not change the sheet"
    assert_no_traceback(p)
