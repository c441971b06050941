"""The layout every table shares: the page CSS, small widget builders, the game rows, the end panel, the hooks.

Plain widget building (no game flow): a table's ``_build`` uses these for the parts that look the
same at every game, and draws its own canvases and buttons beside them.
"""

from __future__ import annotations

import contextlib
import html
import json
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as W
from sheetkit.widgets import theme
from sheetkit.widgets.lazy import built, cached_property, in_order

# Page CSS every table adds on top of theme.CSS.
TABLE_CSS = """<style>
/* ipycanvas focuses a canvas on mousedown and only then measures where it is: when the canvas runs
   past the edge of the screen, the browser scrolls it into view in between, and the click lands that
   many pixels off (a 1024x768 projector clicking the town board hit the wrong tile). A scroll margin
   far larger than any canvas makes "into view" a no-op, so nothing moves under the pointer. */
.sk-table canvas { scroll-margin: -100000px; }
/* ipywidgets' FileUpload always writes its file count into its label ("Load (0)"), and its browser
   half never takes a reset of that count from Python ("Load (1)" forever after one load): show
   the word only (the text node stays, at size 0, for screen readers). */
.sk-table .sk-load { font-size: 0; }
.sk-table .sk-load i.fa { font-size: var(--jp-widgets-font-size, 13px); }
.sk-table .sk-load::after { content: " Load"; font-size: var(--jp-widgets-font-size, 13px); }
.sk-table .sk-end .sk-share { flex: 1 1 auto; min-width: 0; }
/* ipycanvas focuses a canvas on mouse down (for key events, which the tables do not use): no
   focus frame around the sheet after every click. */
.sk-table canvas:focus { outline: none; }
/* A button pressed with the mouse keeps the focus, and ipywidgets draws a ring and a shadow round a
   focused button until the next click elsewhere, whose focus change then repaints the page: 2-3 ms of
   the browser's time on every click on a sheet after a button (measured in Chromium). Rings show for
   keyboard focus only (:focus-visible), as browsers do for their own buttons. */
.sk-table .jupyter-button:focus:not(:focus-visible):not(:hover) { outline: none; box-shadow: none; }
/* Screens (docs/architecture.md): side by side when the width allows, stacked on a phone. A canvas
   keeps its drawn size and aspect ratio but is never shown wider than its box; ipycanvas reports
   clicks in canvas pixels of the shown size (it divides by getBoundingClientRect), so a scaled sheet
   still maps clicks to the right cell. */
.sk-table { container: sktable / inline-size; }
/* Touch: ipycanvas cancels every touch on a canvas, so a swipe that starts on one cannot scroll the page. No
   canvas is wider than the table less 32 px (100cqw: the table's width), which leaves a strip of at least
   47 px (with the page's 15) right of every sheet, board and map, where a thumb scrolls the page. */
.sk-table canvas { max-width: min(100%, 100cqw - 32px); min-width: 0 !important; height: auto !important;
  min-height: 0 !important; }
.sk-table .sk-stack { max-width: min(100%, 100cqw - 32px); min-width: 0 !important; height: auto !important;
  min-height: 0 !important; grid-template-columns: minmax(0, 1fr) !important; grid-template-rows: auto !important; }
.sk-table .sk-stack > canvas { width: 100% !important; }
/* rows of buttons wrap instead of clipping (Load) or squeezing the game code onto three lines */
.sk-table .sk-row { flex-wrap: wrap; row-gap: 4px; }
.sk-table .sk-end .sk-row { flex-wrap: nowrap; }
.sk-table .sk-code { flex: 0 0 auto; white-space: nowrap; }
.sk-table .sk-code-input { flex: 0 1 150px; min-width: 110px; }
.sk-table .sk-breakdown { max-width: 100%; overflow-x: auto; }
/* A log in the sheet's column (.sk-left) takes the sheet's width, however long its lines. */
.sk-table .sk-left { gap: 8px; }
.sk-table .sk-left > .sk-log { contain: inline-size; }
/* a phone: the next action first (Avenue's Peek / Undo / Next card above the cards), the log last */
@container sktable (max-width: 560px) {
  .sk-table .sk-playcol > .sk-row { order: -1; }
  .sk-table .sk-main > .sk-left { display: contents; }
  .sk-table .sk-main > .sk-left > .sk-log { order: 1; flex: 1 1 100%; }
  /* the swipe strip (Touch, above) beside Avenue's bots' sheets too */
  .sk-table .sk-middle > .sk-opponents { margin-right: 32px; }
  /* ... which leaves the cards' column too narrow for the auto-flip's words on one line */
  .sk-table .sk-auto { height: auto; }
  .sk-table .sk-auto .widget-label-basic, .sk-table .sk-auto .widget-label-basic span { white-space: normal;
    line-height: 1.3; }
}
</style>"""


# The row beside Save in its order (its parts not built yet are left out)
FILES_ROW = ("new_button", "opponents_pick", "save_button", "upload", "download", "result_code")


class TableLayout:
    """The widgets every table builds alike (a mixin of ``GameTable``)."""

    def _end_parts(self, again: str, tip: str) -> None:
        """The end panel's parts, which each table boxes its own way: the placing, the breakdown, Play again, the
        share line."""
        self.end_summary = html_widget("sk-end-summary")
        self.breakdown = html_widget("sk-breakdown")
        self.again_button = button(again, "sk-again", "repeat", tip, "success")
        self.again_button.on_click(self._on_again)
        self.share = html_widget("sk-share")

    def _page(self, css: str, main: Sequence[W.Widget], tail: Sequence[W.Widget], game_class: str = "") -> None:
        """The table's widget: the page CSS (theme, every table's, the game's ``css``), the ``main`` boxes side by
        side, then ``tail`` (hidden hooks)."""
        self.main = W.HBox(list(main))
        self.main.add_class("sk-main")
        self.widget = W.VBox([W.HTML(theme.CSS + TABLE_CSS + css), self.main, *tail])
        self.widget.add_class("sk-table")
        if game_class:
            self.widget.add_class(game_class)

    def _game_rows(self, placeholder: str, code_tip: str, new_tip: str) -> W.VBox:
        """The code box and the New / Save / Load row, the same on every table."""
        self.code = html_widget("sk-code")
        self.code_input = W.Text(placeholder=placeholder, layout=W.Layout(width="150px"))
        self.code_input.add_class("sk-code-input")
        fit = {"width": "auto", "flex": "0 0 auto"}
        self.play_code_button = button("Play code", "sk-play-code", "play", code_tip, **fit)
        self.play_code_button.on_click(self._on_play_code)
        self.new_button = button("New game", "sk-new", "plus", new_tip, **fit)
        self.new_button.on_click(self._on_new)
        self.opponents_pick = W.Dropdown(options=self.opponent_options(), value=(),
                                         tooltip="Who plays the next New game with you",
                                         layout=W.Layout(width="140px", flex="0 0 auto"))
        self.opponents_pick.add_class("sk-opponents-pick")
        self.save_button = button("Save", "sk-save", "download", "Make a download link of this game's record", **fit)
        self.save_button.on_click(self._on_save)
        self.upload = W.FileUpload(accept=".json,application/json", multiple=False, description="Load",
                                   tooltip="Load a saved game record (.json)", layout=W.Layout(width="90px"))
        self.upload.add_class("sk-load")
        self.upload.observe(self._on_upload, names="value")
        # the download link (at Save, or the game's end) and the result code (at the end) are built when first shown
        self._files_row = row(*in_order(self, FILES_ROW))
        return W.VBox([
            row(label("Game code"), self.code, self.code_input, self.play_code_button),
            self._files_row,
        ])

    @cached_property
    def download(self) -> W.HTML:
        """The saved record's download link, beside Save."""
        download = html_widget("sk-download-box")
        self._files_row.children = in_order(self, FILES_ROW, download=download)
        return download

    @cached_property
    def result_code(self) -> W.HTML:
        """A finished game's result code, beside Save (class play)."""
        code = html_widget("sk-result-code")
        code.layout.display = "none"
        self._files_row.children = in_order(self, FILES_ROW, result_code=code)
        return code


    @contextlib.contextmanager
    def _one_update_per_widget(self) -> Any:
        """Hold every widget of the table while the text is brought up to date: a button whose label, tip
        and state all change sends one update, not four (a widget that did not change sends nothing)."""
        widgets, todo = [], [self.widget]
        while todo:
            w = todo.pop()
            widgets.append(w)
            todo.extend(c for c in getattr(w, "children", ()) if isinstance(c, W.Widget))
        # Held widgets are let go last-in first-out: the status line, held first, is sent last, so whoever
        # waits for it (a player, a test, a driver) finds every other part of the table already up to date.
        status = getattr(self, "status", None)
        if status in widgets:
            widgets.remove(status)
            widgets.insert(0, status)
        with contextlib.ExitStack() as stack:
            for w in widgets:
                stack.enter_context(w.hold_sync())
            yield

    def _render_end(self, over: bool, summary: Callable[[], str], breakdown: Callable[[], str]) -> None:
        """The end panel: hidden while playing; at the end the placing, the breakdown, the share line, the record."""
        if not over and not built(self, "end_box"):     # a table that builds its end panel at the end: not yet
            return
        self.end_box.layout.display = "flex" if over else "none"
        if over:
            self.end_summary.value = summary()
            self.breakdown.value = breakdown()
            self.share.value = self._share_html()
            if not self.download.value:
                self.download.value = self._download_link()
        else:
            self.breakdown.value = ""

    def _publish_hooks(self, css_class: str) -> None:
        """What is legal now, as JSON in a hidden element (browser tests and drivers read it, players never)."""
        data = html.escape(json.dumps({**self.hook_data(), "thinking": self.bot_thinking}), quote=True)
        self.hooks.value = f"<div class='{css_class}' data-state=\"{data}\"></div>"


def html_widget(css_class: str, value: str = "") -> W.HTML:
    """An HTML widget with a hook class."""
    w = W.HTML(value)
    w.add_class(css_class)
    return w


def label(text: str) -> W.HTML:
    """Small grey words."""
    return html_widget("sk-small", html.escape(text))


def button(text: str, css_class: str, icon: str, tooltip: str, style: str = "", layout: W.Layout | None = None,
           **settings: str) -> W.Button:
    """A button with a hook class; its ``layout`` (one several buttons share), or a Layout of these ``settings``."""
    # The layout goes in at once: a Layout set after the button was made leaves the first one open, a model of
    # its own in the page's widget state.
    if layout is None and settings:
        layout = W.Layout(**settings)
    b = W.Button(description=text, icon=icon, tooltip=tooltip, button_style=style,
                 **({"layout": layout} if layout is not None else {}))
    b.add_class(css_class)
    return b


def row(*children: W.Widget) -> W.HBox:
    """Widgets side by side."""
    box = W.HBox(list(children))
    box.add_class("sk-row")
    return box


def strip_tags(text: str) -> str:
    """HTML to its text (the status line is simple markup)."""
    out, inside = [], False
    for ch in text:
        if ch == "<":
            inside = True
        elif ch == ">":
            inside = False
        elif not inside:
            out.append(ch)
    return "".join(out)

