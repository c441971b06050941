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
from typing import Any

import anywidget
import ipywidgets as W
import traitlets
from sheetkit.widgets.shared import shared

STOPPED_TEXT = "This table has stopped — Reload to carry on."
HELLO_MS = 6000          # the browser half waits this long for Python's answer to its hello
MAX_RENEWALS = 3
PROBE_S = 20             # seconds between the page's checks that its kernel still exists

_ESM = r"""
const STOPPED = %(stopped)s;
const HELLO_MS = %(hello_ms)d;
const PROBE_MS = %(probe_ms)d;
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
  window.__skKernel = kernel;     // for the browser tests: its status and connection
  const check = () => {
    const gone = kernel.isDisposed || ["dead", "restarting", "autorestarting"].includes(kernel.status) ||
      kernel.connectionStatus === "disconnected";
    if (gone) showStopped();
  };
  if (kernel.statusChanged) kernel.statusChanged.connect(check);
  if (kernel.connectionStatusChanged) kernel.connectionStatusChanged.connect(check);
  if (kernel.disposed) kernel.disposed.connect(check);
  setInterval(check, 2000);
  // A kernel shut down by the culler leaves the page's websocket open and its status "idle": ask the server
  // whether the kernel still exists, now and then, at once when the student touches the page or comes back to it
  // (a GET of the kernel's model is no kernel activity: it does not keep an idle kernel from being culled).
  // At most one check every 3 s; a touch inside that window gets its check when the window ends (a check the
  // moment before the culler struck must not hide the kernel's end from the student's next touch).
  let last = 0, later = null;
  const probe = async () => {
    const now = Date.now();
    if (document.querySelector(".sk-stopped")) return;
    if (now - last < 3000) {
      if (!later) later = setTimeout(() => { later = null; probe(); }, 3000 - (now - last));
      return;
    }
    last = now;
    try {
      const base = (kernel.serverSettings && kernel.serverSettings.baseUrl) || "/";
      const r = await fetch(`${base}api/kernels/${kernel.id}`, {credentials: "same-origin", cache: "no-store"});
      if (r.status === 404) showStopped();
    } catch (e) { /* the server out of reach: the connection's own status tells */ }
  };
  setInterval(probe, PROBE_MS);
  document.addEventListener("pointerdown", probe, true);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) probe(); });
}

export default {
  render({ model, el }) {
    el.style.display = "none";
    const voila = () => model.get("voila");
    const sync = () => { if (voila()) writeQuery(model.get("query")); };
    model.on("change:query", sync);
    sync();
    // anywidget drops every message from Python to a widget whose code took over 2 s to load (a busy page):
    // say hello, and when Python's answer never comes, ask for a new widget (PageLink replaces this one).
    let heard = false;
    model.on("msg:custom", (msg) => {
      if (!msg) return;
      if (msg.kind === "ping") heard = true;
      if (msg.reveal) reveal(el, msg.reveal);
    });
    model.send({kind: "hello"});
    setTimeout(() => { if (!heard) model.send({kind: "deaf"}); }, HELLO_MS);
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


class _Bridge(anywidget.AnyWidget):  # type: ignore[misc]
    """The hidden anywidget itself (PageLink renews it when its browser half cannot hear Python)."""

    _esm = _ESM % {"stopped": json.dumps(STOPPED_TEXT, ensure_ascii=False), "hello_ms": HELLO_MS,
                   "probe_ms": PROBE_S * 1000}
    query = traitlets.Unicode("").tag(sync=True)
    voila = traitlets.Bool(False).tag(sync=True)


class PageLink:
    """Scrolls parts of its table into view, keeps the page's link (``query``) and shows a stopped kernel."""

    def __init__(self) -> None:
        self.widget = W.Box(layout=shared(W.Layout, display="none"), _dom_classes=("sk-page-link",))
        self._query = ""
        self.renewals = 0
        self.bridge: _Bridge | None = None
        self._renew()

    def _renew(self) -> None:
        old, self.bridge = self.bridge, _Bridge(voila=in_voila(), query=self._query)
        self.bridge.on_msg(self._on_msg)
        self.widget.children = (self.bridge,)
        if old is not None:
            self.renewals += 1
            old.close()

    def _on_msg(self, bridge: _Bridge, content: Any, buffers: Any) -> None:
        if bridge is not self.bridge or not isinstance(content, dict):
            return
        if content.get("kind") == "hello":
            bridge.send({"kind": "ping"})
        elif content.get("kind") == "deaf" and self.renewals < MAX_RENEWALS:
            self._renew()

    @property
    def query(self) -> str:
        """The query string the page's link shows (set it to change the address bar; Voila pages only)."""
        return self._query

    @query.setter
    def query(self, value: str) -> None:
        self._query = value
        if self.bridge is not None:
            self.bridge.query = value

    def reveal(self, selector: str) -> None:
        """Scroll the part of this table matching ``selector`` into view (wholly if it fits the window)."""
        if self.bridge is not None:
            self.bridge.send({"reveal": selector})
