"""The table's hold on its browser page: scroll a part of the table into view, keep the page's link, say when it stops.

Three small jobs a widget cannot do from Python alone, in one hidden anywidget per table:

- ``reveal(selector)``: scroll that part of this table into view (wholly when it fits the window, its top
  otherwise). ``focus()`` does not do it: Chromium scrolls a focused element only when it is mostly hidden,
  and the tables give their canvases a huge negative ``scroll-margin`` (table_base.TABLE_CSS) anyway.
- ``query``: the page link's query string. Each change replaces the address bar's query
  (``history.replaceState``: no new history entry, no reload), so a reload reopens the same game.
- the kernel's end: when the kernel behind the page dies, is restarted or is shut down (culled), every tap
  would be ignored in silence; a banner says so instead, with a Reload button.

Only a Voila dashboard's page is changed (``voila=True``): in JupyterLab the address is the Lab's own and the
Lab shows the kernel's state itself.
"""

from __future__ import annotations

import json
import os

import anywidget
import traitlets

STOPPED_TEXT = "This table has stopped — Reload to carry on."

_ESM = r"""
const STOPPED = %(stopped)s;
const BANNER_CSS = "position:fixed;left:0;right:0;top:0;z-index:10000;display:flex;gap:12px;align-items:center;" +
  "justify-content:center;flex-wrap:wrap;padding:12px 16px;background:#fff3cd;color:#3d2e00;" +
  "border-bottom:2px solid #d9a400;font:16px/1.4 system-ui,sans-serif;box-shadow:0 2px 8px rgba(0,0,0,.2)";

function showStopped() {
  if (document.querySelector(".sk-stopped")) return;
  const bar = document.createElement("div");
  bar.className = "sk-stopped";
  bar.setAttribute("role", "alert");
  bar.style.cssText = BANNER_CSS;
  const words = document.createElement("span");
  words.textContent = STOPPED;
  const again = document.createElement("button");
  again.className = "sk-reload";
  again.textContent = "Reload";
  again.style.cssText = "font:inherit;font-weight:600;padding:6px 18px;border-radius:4px;border:1px solid #8a6d00;" +
    "background:#ffd451;color:#3d2e00;cursor:pointer";
  again.addEventListener("click", () => location.reload());
  bar.append(words, again);
  document.body.append(bar);
}

function writeQuery(query) {
  if (typeof query !== "string" || !query) return;
  const url = new URL(location.href);
  if (url.search === "?" + query) return;
  url.search = query;
  history.replaceState(history.state, "", url.toString());
}

function reveal(el, selector) {
  const table = el.closest(".sk-table") || document;
  const target = table.querySelector(selector);
  if (!target) return;
  // after the widget updates sent just before this message have been laid out
  requestAnimationFrame(() => requestAnimationFrame(() => {
    const r = target.getBoundingClientRect();
    const fits = r.height + 24 <= window.innerHeight;
    if (fits && r.top >= 0 && r.bottom <= window.innerHeight) return;
    target.style.scrollMargin = "12px";     // a little room round it, not flush with the window's edge
    target.scrollIntoView({block: fits ? "nearest" : "start", inline: "nearest"});
  }));
}

// The kernel behind the page: dead, restarting or gone (a culled or shut down kernel closes the websocket and
// the page's reconnection attempts fail) — each means the table no longer answers.
function watchKernel(model) {
  const kernel = model.widget_manager && model.widget_manager.kernel;
  if (!kernel) return;
  const check = () => {
    const gone = kernel.isDisposed || ["dead", "restarting", "autorestarting"].includes(kernel.status) ||
      kernel.connectionStatus === "disconnected";
    if (gone) showStopped();
  };
  if (kernel.statusChanged) kernel.statusChanged.connect(check);
  if (kernel.connectionStatusChanged) kernel.connectionStatusChanged.connect(check);
  if (kernel.disposed) kernel.disposed.connect(check);
  setInterval(check, 2000);
}

export default {
  render({ model, el }) {
    el.style.display = "none";
    const voila = () => model.get("voila");
    const sync = () => { if (voila()) writeQuery(model.get("query")); };
    model.on("change:query", sync);
    sync();
    model.on("msg:custom", (msg) => { if (msg && msg.reveal) reveal(el, msg.reveal); });
    if (voila() && !window.__skWatching) {
      window.__skWatching = true;
      watchKernel(model);
    }
  },
};
"""


def in_voila() -> bool:
    """True in a kernel that Voila started for a dashboard page."""
    return os.environ.get("SERVER_SOFTWARE", "").startswith("voila")


class PageLink(anywidget.AnyWidget):  # type: ignore[misc]
    """A hidden widget that scrolls parts of its table into view, keeps the page link and shows a stopped kernel."""

    _esm = _ESM % {"stopped": json.dumps(STOPPED_TEXT, ensure_ascii=False)}
    query = traitlets.Unicode("").tag(sync=True)
    voila = traitlets.Bool(False).tag(sync=True)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(voila=in_voila(), **kwargs)
        self.layout.display = "none"
        self.add_class("sk-page-link")

    def reveal(self, selector: str) -> None:
        """Scroll the part of this table matching ``selector`` into view (wholly if it fits the window)."""
        self.send({"reveal": selector})
