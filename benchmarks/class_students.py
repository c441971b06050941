"""Students without a browser: each opens an Avenue page on Voila and plays it by the page's own messages.

A class's browsers run on the students' own devices, not on the server; on this 2-core machine a headless
Chromium for each of 30 students costs ~6 s of CPU per page (Voila's minimal page alone ~3.5 s), more than the
server's share (~2.4 s a page: the kernel and Voila). So ``benchmarks/class_load.py`` loads the server with these
clients, which send the kernel exactly what a page sends (captured from a real page: kernel_info_request, the
widget manager's ``request_states``, each canvas view's ``client_ready``, the page link's ``hello``, a click on
the sheet as ipycanvas sends it, ``click`` on a button, and the goodbye POST when the tab closes), and keeps a
few real Chromium pages beside them to show the pages really play.

A student is *playable* once the kernel has drawn its sheet after ``client_ready`` and says it is idle: what a
browser needs before it can show the sheet. A click's time runs from the click leaving the student to the
kernel's ``idle`` after handling it: every redraw message has been sent by then.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import random
import re
import time
import uuid
from typing import Any

from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect
from voila_harness import _decode_v1  # the page's v1 frames, read as the browser tests read them

# The Avenue sheet's grid in layout pixels (tests/browser/avenue_driver.py: the DOM contract in docs/architecture.md).
X0, Y0, CELL, ROWS, COLS = 28.0, 48.0, 54.0, 7, 6
DRAW = re.compile(r"Draw road \d")
NEXT = re.compile(r"press Next card", re.I)
OVER = re.compile(r"Game over", re.I)
V1 = "v1.kernel.websocket.jupyter.org"     # the kernel websocket protocol a page speaks
KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]+)"')


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


def _encode(msg: dict[str, Any], channel: str) -> bytes:
    """A message in Jupyter's v1 kernel websocket protocol, as a page sends it: a count and little-endian offsets,
    then the channel, header, parent header, metadata and content."""
    parts = [channel.encode()] + [json.dumps(msg[k]).encode() for k in ("header", "parent_header", "metadata",
                                                                         "content")]
    offsets = [8 * (len(parts) + 2)]
    for part in parts:
        offsets.append(offsets[-1] + len(part))
    return b"".join([len(offsets).to_bytes(8, "little"), *(o.to_bytes(8, "little") for o in offsets), *parts])


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html or "")


class ProtocolStudent:
    """One student's page, played over Voila's HTTP and kernel websocket without a browser."""

    def __init__(self, k: int, base: str, path: str, moves: int, think: tuple[float, float], seed: int) -> None:
        self.k, self.base, self.path, self.moves, self.think = k, base.rstrip("/"), path, moves, think
        self.rng = random.Random(seed * 1000 + k)
        self.session = uuid.uuid4().hex
        self.ready_s: float | None = None
        self.clicks_ms: list[float] = []
        self.errors: list[str] = []
        self.offline = self.slow_widget = 0     # what a browser page counts; none here
        self.kernel_id: str | None = None
        self.cookies: dict[str, str] = {}
        self.ws: Any = None
        self.models: dict[str, dict[str, Any]] = {}   # comm id -> {"name", "state"}
        self.idle: dict[str, asyncio.Event] = {}      # msg id -> set on the kernel's idle for it
        self.drawn: asyncio.Event = asyncio.Event()   # the sheet got drawing messages
        self.states: asyncio.Future[dict[str, Any]] | None = None
        self.sheet: str | None = None                 # the sheet's top canvas: the one a click reaches
        self.layers: set[str] = set()                 # all the sheet's canvases
        self.painters: set[str] = set()               # ipycanvas's canvas manager: every drawing goes through it
        self.scale = 1.0
        self.taken: set[tuple[int, int]] = set()
        self.reader: asyncio.Task[None] | None = None

    # ----- messages -------------------------------------------------------------------------------------
    async def send(self, msg_type: str, content: dict[str, Any], channel: str = "shell",
                   metadata: dict[str, Any] | None = None) -> str:
        msg_id = uuid.uuid4().hex
        self.idle[msg_id] = asyncio.Event()
        header = {"msg_id": msg_id, "msg_type": msg_type, "session": self.session, "username": "student",
                  "version": "5.3", "date": _now()}
        await self.ws.write_message(_encode({"header": header, "parent_header": {}, "metadata": metadata or {},
                                             "content": content}, channel), binary=True)
        return msg_id

    async def comm(self, comm_id: str, data: dict[str, Any]) -> str:
        return await self.send("comm_msg", {"comm_id": comm_id, "data": data})

    async def read(self) -> None:
        while True:
            raw = await self.ws.read_message()
            if raw is None:
                return
            try:
                msg = json.loads(raw) if isinstance(raw, str) else _decode_v1(raw)
                if msg is None:
                    raise ValueError("not a v1 kernel message")
                self.take(msg)
            except Exception as e:   # a message this client does not understand must not stop it reading
                self.errors.append(f"student {self.k}: unreadable message ({type(e).__name__}: {e})")

    def take(self, msg: dict[str, Any]) -> None:
        kind, content = msg["header"]["msg_type"], msg.get("content", {})
        parent = (msg.get("parent_header") or {}).get("msg_id")
        if kind == "status" and content.get("execution_state") == "idle" and parent in self.idle:
            self.idle[parent].set()
        elif kind == "comm_msg":
            data, cid = content.get("data", {}), content.get("comm_id")
            if data.get("method") == "update_states" and self.states and not self.states.done():
                self.states.set_result(data["states"])
            elif data.get("method") == "update" and cid in self.models:
                self.models[cid]["state"].update(data.get("state", {}))
            elif cid in self.painters:      # ipycanvas draws through its canvas manager
                self.drawn.set()
        elif kind == "error":
            self.errors.append(f"student {self.k}: kernel error {content.get('ename')}: {content.get('evalue')}")

    async def until_idle(self, msg_id: str, timeout: float) -> None:
        await asyncio.wait_for(self.idle[msg_id].wait(), timeout)

    def find(self, name: str, dom_class: str | None = None) -> list[str]:
        return [cid for cid, m in self.models.items() if m["name"] == name
                and (dom_class is None or dom_class in (m["state"].get("_dom_classes") or []))]

    def status(self) -> str:
        ids = self.find("HTMLModel", "sk-status")
        return _text(self.models[ids[0]]["state"].get("value", "")) if ids else ""

    # ----- a student's life -----------------------------------------------------------------------------
    async def open(self, t0: float, timeout: float) -> None:
        try:
            await asyncio.wait_for(self._open(t0), timeout)
            self.ready_s = time.monotonic() - t0
        except Exception as e:
            self.errors.append(f"student {self.k}: not playable ({type(e).__name__}: {str(e)[:120]})")

    async def _open(self, t0: float) -> None:
        page = await AsyncHTTPClient().fetch(HTTPRequest(self.base + self.path, request_timeout=600,
                                                         connect_timeout=600))
        for line in page.headers.get_list("Set-Cookie"):
            name, _, rest = line.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        html = page.body.decode()
        found = KERNEL_ID.search(html)
        if not found:
            raise RuntimeError("no kernel id in the page")
        if "Traceback (most recent call last)" in html:
            self.errors.append(f"student {self.k}: the page shows a Python traceback")
        self.kernel_id = found.group(1)
        url = (self.base.replace("http", "ws", 1) + f"/api/kernels/{self.kernel_id}/channels?session_id="
               + self.session)
        self.ws = await websocket_connect(HTTPRequest(url, headers={"Cookie": self._cookie_header()},
                                                      request_timeout=600, connect_timeout=600),
                                          max_message_size=1 << 28, subprotocols=[V1])
        self.reader = asyncio.create_task(self.read())
        await self.send("kernel_info_request", {})
        control = uuid.uuid4().hex
        self.states = asyncio.get_running_loop().create_future()
        await self.send("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}},
                        metadata={"version": "1.0.0"})     # the widget control protocol's version, as a page sends
        await self.comm(control, {"method": "request_states"})
        states = await self.states
        await self.send("comm_close", {"comm_id": control, "data": {}})
        self.models = {cid: {"name": s["model_name"], "state": dict(s["state"])} for cid, s in states.items()}
        self._find_sheet()
        self.painters = set(self.find("CanvasManagerModel"))
        last = ""
        for cid in self.find("CanvasModel"):
            last = await self.comm(cid, {"method": "custom", "content": {"event": "client_ready"}})
        for cid in self.find("AnyModel"):
            await self.comm(cid, {"method": "custom", "content": {"kind": "hello"}})
        await self.drawn.wait()
        await self.until_idle(last, 600)

    def _find_sheet(self) -> None:
        boxes = self.find("GridBoxModel", "sk-sheet")
        if not boxes:
            raise RuntimeError("no sheet on the page")
        layers = [ref.removeprefix("IPY_MODEL_") for ref in self.models[boxes[0]]["state"].get("children", [])]
        self.sheet, self.layers = layers[-1], set(layers)
        top = self.models[self.sheet]["state"]
        layout = self.models[top["layout"].removeprefix("IPY_MODEL_")]["state"]
        self.scale = float(top["width"]) / float(str(layout["width"]).removesuffix("px"))

    async def click_cell(self, row: int, col: int) -> float:
        x, y = (X0 + (col + 0.5) * CELL) * self.scale, (Y0 + (row + 0.5) * CELL) * self.scale
        start = time.monotonic()
        down = {"method": "custom", "content": {"event": "mouse_down", "x": x, "y": y}}
        msg = await self.comm(self.sheet or "", down)
        await self.until_idle(msg, 30)
        ms = 1000 * (time.monotonic() - start)
        await self.comm(self.sheet or "", {"method": "custom", "content": {"event": "mouse_up", "x": x, "y": y}})
        return ms

    async def press(self, dom_class: str) -> None:
        ids = self.find("ButtonModel", dom_class)
        msg = await self.comm(ids[0], {"method": "custom", "content": {"event": "click"}})
        await self.until_idle(msg, 60)

    async def play(self) -> None:
        if self.ready_s is None:
            return
        try:
            drawn = 0
            while drawn < self.moves and not OVER.search(self.status()):
                for _ in range(20):
                    if not NEXT.search(self.status()):
                        break
                    await self.press("sk-next")
                if not DRAW.search(self.status()):
                    break
                await asyncio.sleep(self.rng.uniform(*self.think))     # the student thinks
                free = [(r, c) for r in range(ROWS) for c in range(COLS) if (r, c) not in self.taken]
                cell = self.rng.choice(free)
                self.taken.add(cell)
                self.clicks_ms.append(await self.click_cell(*cell))
                drawn += "You drew road" in self.status() or bool(NEXT.search(self.status()))
        except Exception as e:
            self.errors.append(f"student {self.k}: stopped playing ({type(e).__name__}: {str(e)[:120]})")

    async def leave(self) -> None:
        """Close the tab: the page's goodbye (Voila's shutdown request for its kernel), then the socket closes."""
        try:
            if self.kernel_id:
                xsrf = self.cookies.get("_xsrf", "")
                await AsyncHTTPClient().fetch(HTTPRequest(
                    f"{self.base}/voila/api/shutdown/{self.kernel_id}", method="POST", body="",
                    headers={"Cookie": self._cookie_header(), "X-XSRFToken": xsrf}, request_timeout=60),
                    raise_error=False)
        finally:
            if self.ws is not None:
                self.ws.close()
            if self.reader is not None:
                self.reader.cancel()

    def _cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())


def configure_http(clients: int) -> None:
    """Let every student's page request run at once (Tornado's client queues beyond 10 by default)."""
    AsyncHTTPClient.configure(None, max_clients=max(10, clients))
