"""Shared pieces of the probability lessons: fractions as text, small HTML tables, and figures as crisp PNGs.

A lesson cell returns a ``Panel`` (HTML and pictures in one output, which a static notebook, nbval and Voila
all show the same way) or, where something is live, an ipywidgets box whose picture redraws on a slider.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

from sheetkit.widgets import theme

EXACT = theme.OKABE_ITO["sky"]        # exact answers: filled bars
SIMULATED = theme.OKABE_ITO["vermillion"]  # simulation: markers (a different shape as well as a colour)
FORMULA = theme.OKABE_ITO["black"]

CSS = f"""<style>
table.sk-lesson {{ border-collapse: collapse; font-size: 13.5px; margin: 6px 0 10px 0; }}
/* a wide table scrolls inside itself on a phone, the page never scrolls sideways */
table.sk-lesson {{ display: block; max-width: 100%; overflow-x: auto; }}
table.sk-lesson th, table.sk-lesson td {{ border-bottom: 1px solid {theme.GRID}; padding: 2px 10px;
  text-align: right; white-space: nowrap; }}
table.sk-lesson th {{ color: {theme.PRINT}; font-weight: normal; }}
table.sk-lesson td.sk-l, table.sk-lesson th.sk-l {{ text-align: left; }}
.sk-note {{ font-size: 13px; color: {theme.PRINT}; margin: 2px 0 8px 0; }}
</style>"""


def frac(p: Fraction | int) -> str:
    """'13/54' (or '1', '0')."""
    p = Fraction(p)
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def pct(p: float | Fraction, digits: int = 1) -> str:
    """'24.1%'."""
    return f"{float(p) * 100:.{digits}f}%"


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]], left: int = 0, caption: str = "") -> str:
    """An HTML table; the first ``left`` columns are left-aligned (words), the rest right-aligned (numbers)."""
    def cell(tag: str, k: int, v: Any) -> str:
        cls = " class='sk-l'" if k < left else ""
        return f"<{tag}{cls}>{v if isinstance(v, Markup) else html.escape(str(v))}</{tag}>"

    head = "".join(cell("th", k, h) for k, h in enumerate(headers))
    body = "".join("<tr>" + "".join(cell("td", k, v) for k, v in enumerate(r)) + "</tr>" for r in rows)
    cap = f"<div class='sk-note'>{caption}</div>" if caption else ""
    return f"<table class='sk-lesson'><tr>{head}</tr>{body}</table>{cap}"


class Markup(str):
    """A table cell that is already HTML (e.g. a ✓ with a tooltip)."""


def figure(w: float, h: float, cols: int = 1, rows: int = 1, **kw: Any) -> tuple[Any, Any]:
    """A matplotlib Figure (no pyplot, so nothing is shown twice) and its axes."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(w, h))
    return fig, axes_on(fig, cols, rows, **kw)


def axes_on(fig: Any, cols: int = 1, rows: int = 1, **kw: Any) -> Any:
    """Clear ``fig`` and give it the lessons' plain axes (one, or a grid when cols × rows > 1)."""
    fig.clear()
    axes = fig.subplots(rows, cols, squeeze=False, **kw)
    for ax in axes.ravel():
        ax.spines[["top", "right"]].set_visible(False)
        ax.tick_params(labelsize=8)
    return axes if rows * cols > 1 else axes[0][0]


def exact_beside_engine(ax: Any, xs: Sequence[int], exact: Sequence[float], engine: Sequence[float], seen: str,
                        markersize: float = 5) -> None:
    """The lessons' two cues on one axes: exact probabilities as filled bars, the engine's shares as diamonds."""
    ax.bar(xs, exact, color=EXACT, width=0.8, label="exact")
    ax.plot(xs, engine, "D", color=SIMULATED, markersize=markersize, label=f"engine, {seen}")


def png(fig: Any) -> bytes:
    """The figure as PNG bytes at twice its size (crisp on HiDPI screens)."""
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=192, facecolor="white")
    return buf.getvalue()


def img(fig: Any) -> str:
    """The figure as an <img> tag holding its PNG."""
    data = base64.b64encode(png(fig)).decode()
    width = int(fig.get_figwidth() * 96)
    # max-width: on a phone the figure shrinks to the column instead of widening the page
    return f"<img src='data:image/png;base64,{data}' width='{width}' style='max-width:100%;height:auto' alt='figure'>"


class Panel:
    """HTML and figures shown as one output (``_repr_html_``); ``parts`` keeps them for tests."""

    def __init__(self, *parts: Any, data: Any = None) -> None:
        self.parts = parts
        self.data = data  # the numbers behind the output, for tests and curious readers

    def _repr_html_(self) -> str:
        out = [CSS]
        for p in self.parts:
            out.append(img(p) if hasattr(p, "savefig") else str(p))
        return "".join(out)

    def __repr__(self) -> str:
        return f"Panel({len(self.parts)} parts)"


def live_figure(control: Any, draw: Callable[[Any, Any], None], note: Callable[[Any], str] | None = None,
                size: tuple[float, float] = (6.5, 2.6)) -> Any:
    """A control (slider, dropdown) above a live matplotlib figure (ipympl) that redraws when it moves.

    ``draw(value, fig)`` draws into the one figure the page shows (``axes_on(fig)`` clears it first);
    the figure is an ipympl canvas: crisp on HiDPI screens, with zoom and pan, redrawn in place.
    """
    import ipywidgets as W
    from ipympl.backend_nbagg import new_figure_manager_given_figure
    from matplotlib.figure import Figure

    fig = Figure(figsize=size)
    canvas = new_figure_manager_given_figure(id(fig), fig).canvas
    canvas.header_visible = False
    canvas.footer_visible = False
    canvas.resizable = False
    canvas.toolbar_position = "right"
    words = W.HTML()

    def update(_: Any = None) -> None:
        draw(control.value, fig)
        fig.tight_layout()
        canvas.draw_idle()
        words.value = note(control.value) if note is not None else ""

    control.observe(update, "value")
    update()
    box = W.VBox([control, words, canvas], layout=W.Layout(max_width="100%", overflow="auto"))
    box.add_class("sk-lesson-live")
    return box
