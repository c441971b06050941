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
from sheetkit.widgets.shared import HTMLStyle, shared

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
        fixed = shared(W.Layout)
        self.main = W.HBox(list(main), _dom_classes=("sk-main",), layout=fixed)
        page_css = W.HTML(theme.CSS + TABLE_CSS + css, style=shared(HTMLStyle), layout=fixed)
        self.widget = W.VBox([page_css, self.main, *tail],
                             _dom_classes=("sk-table", game_class) if game_class else ("sk-table",), layout=fixed)

    def _game_rows(self, placeholder: str, code_tip: str, new_tip: str, css_class: str = "") -> W.VBox:
        """The code box and the New / Save / Load row, the same on every table (the box has ``css_class`` too)."""
        fixed = shared(W.Layout)         # none of these rows and words ever changes its layout
        self.code = html_widget("sk-code", layout=fixed)
        self.code_input = W.Text(placeholder=placeholder, layout=W.Layout(width="150px"),
                                 _dom_classes=("sk-code-input",))
        fit = {"layout": shared(W.Layout, width="auto", flex="0 0 auto")}
        self.play_code_button = button("Play code", "sk-play-code", "play", code_tip, **fit)
        self.play_code_button.on_click(self._on_play_code)
        self.new_button = button("New game", "sk-new", "plus", new_tip, **fit)
        self.new_button.on_click(self._on_new)
        self.opponents_pick = W.Dropdown(options=self.opponent_options(), value=(),
                                         tooltip="Who plays the next New game with you",
                                         layout=W.Layout(width="140px", flex="0 0 auto"),
                                         _dom_classes=("sk-opponents-pick",))
        self.save_button = button("Save", "sk-save", "download", "Make a download link of this game's record", **fit)
        self.save_button.on_click(self._on_save)
        self.upload = W.FileUpload(accept=".json,application/json", multiple=False, description="Load",
                                   tooltip="Load a saved game record (.json)", layout=W.Layout(width="90px"),
                                   style=shared(W.ButtonStyle), _dom_classes=("sk-load",))
        self.upload.observe(self._on_upload, names="value")
        # the download link (at Save, or the game's end) and the result code (at the end) are built when first shown
        self._files_row = row(*in_order(self, FILES_ROW), layout=fixed)
        return W.VBox([
            row(label("Game code", fixed), self.code, self.code_input, self.play_code_button, layout=fixed),
            self._files_row,
        ], _dom_classes=(css_class,) if css_class else (), layout=fixed)

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


def html_widget(css_class: str, value: str = "", layout: W.Layout | None = None) -> W.HTML:
    """An HTML widget with a hook class; its ``layout`` (a shared one: it never changes) or one of its own."""
    # the class goes in with the widget (an add_class after it is made is one more message), and every HTML shares
    # one style model (none sets its style)
    return W.HTML(value, _dom_classes=(css_class,), style=shared(HTMLStyle),
                  **({"layout": layout} if layout is not None else {}))


def label(text: str, layout: W.Layout | None = None) -> W.HTML:
    """Small grey words (``layout``: as ``html_widget``'s)."""
    return html_widget("sk-small", html.escape(text), layout)


def button(text: str, css_class: str, icon: str, tooltip: str, style: str = "", layout: W.Layout | None = None,
           colour: str | None = None, **settings: str) -> W.Button:
    """A button with a hook class; its ``layout`` (one several buttons share), or a Layout of these ``settings``;
    a style of its own if it has a ``colour`` (its background), else the one all plain buttons share."""
    # The layout goes in at once: a Layout set after the button was made leaves the first one open, a model of
    # its own in the page's widget state. So does the class (an add_class after is one more message).
    if layout is None and settings:
        layout = W.Layout(**settings)
    look = W.ButtonStyle(button_color=colour) if colour is not None else shared(W.ButtonStyle)
    return W.Button(description=text, icon=icon, tooltip=tooltip, button_style=style, _dom_classes=(css_class,),
                    style=look, **({"layout": layout} if layout is not None else {}))


def row(*children: W.Widget, css_class: str = "", layout: W.Layout | None = None) -> W.HBox:
    """Widgets side by side (a ``css_class`` beside sk-row; ``layout``: a shared one, or one of its own)."""
    return W.HBox(list(children), _dom_classes=("sk-row", css_class) if css_class else ("sk-row",),
                  **({"layout": layout} if layout is not None else {}))


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

