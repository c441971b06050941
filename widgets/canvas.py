"""The sheet canvas base: explicitly sized, HiDPI, layered, redrawn for every new client, batched.

Six facts about ipycanvas shape this module:

- A canvas keeps no drawing on the kernel side. Voila runs the notebook before any browser
  connects, so anything drawn then is lost: views draw only from model state, and redraw in
  full when a client says it is ready (``on_client_ready``).
- Every canvas talks through one shared manager that remembers which canvas the browser is
  drawing on. A newly connected browser does not know it, so each batch starts by forgetting it
  (the manager then names the canvas again inside the same message).
- ``hold_canvas`` sends everything drawn inside it, on every canvas, as one message. ``batch``
  wraps it, and nests.
- In a kernel, messages leave through ipykernel's IOPub thread, which needs the GIL: a message
  queued while the click handler goes on computing (the status line, the log, the buttons) waited
  for the whole handler. Each outermost ``batch`` ends by letting that thread send the drawing
  (``flush_to_browser``), so the browser draws while the kernel writes the text.
- A ``MultiCanvas`` shows its layers as one <canvas>: whenever a message touches any layer, the
  browser composites every layer again, full size. On a 2× sheet of four layers that was most of
  a click's time in the browser. ``SheetCanvas(stacked=True)`` instead shows each layer as its own
  <canvas>, stacked in one grid cell (``StackedCanvas``): the browser then copies only the layers
  a message touched.
- The canvas view cancels every touch (``preventDefault``), so a phone makes no mouse click: ``on_click``
  reads the touch events too and turns each tap into one click (``sheetkit.widgets.touch``).
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import ipywidgets as W
from ipycanvas import Canvas, MultiCanvas, hold_canvas
from ipycanvas import canvas as _ipycanvas
from sheetkit.widgets import theme
from sheetkit.widgets.touch import Taps


class _Batch:
    depth = 0
    serial = 0


@contextlib.contextmanager
def batch() -> Iterator[None]:
    """Send everything drawn inside (on any canvas) as one message; nested batches join the outer one."""
    if _Batch.depth:
        _Batch.depth += 1
        try:
            yield
        finally:
            _Batch.depth -= 1
        return
    _Batch.depth = 1
    _Batch.serial += 1
    manager = _ipycanvas._CANVAS_MANAGER
    # A browser that connected since the last message has no current canvas: make the manager
    # name one again (it only does when it thinks the canvas changed).
    manager._current_canvas = None
    drew = False
    try:
        with hold_canvas():
            try:
                yield
                drew = bool(manager._commands_cache)
            except BaseException:
                # Drop the half-drawn batch (hold_canvas would otherwise stay on and send it later).
                manager._commands_cache, manager._buffers_cache = [], []
                manager._caching = False
                manager._current_canvas = None
                raise
    finally:
        _Batch.depth = 0
    if drew:
        flush_to_browser()


def flush_to_browser(timeout: float = 0.05) -> None:
    """Wait (at most ``timeout`` s) until the kernel's IOPub thread has sent every message queued so far.

    Outside a kernel (tests, scripts) there is no such thread and this returns at once.
    """
    app = sys.modules.get("ipykernel.kernelapp")
    if app is None or not app.IPKernelApp.initialized():
        return
    io_thread = getattr(getattr(app.IPKernelApp.instance().kernel, "iopub_socket", None), "io_thread", None)
    if io_thread is None:
        return
    sent = threading.Event()
    io_thread.schedule(sent.set)       # runs after the sends queued before it, in order
    sent.wait(timeout)


def step_aside(seconds: float = 0.001) -> None:
    """In a kernel, give up the CPU for ``seconds`` after a drawing has left (``flush_to_browser``), so the Jupyter
    server, and a browser on the same machine, can pass it on and draw it before the kernel computes the rest.

    They compete for few cores (two on this project's machine; Binder's containers have less): measured with
    benchmarks/browser_bench.py, a millisecond here took a Key Harvest harvest from 1.27x to 1.13x the minimal
    notebook. Outside a kernel there is nothing to wait for.
    """
    app = sys.modules.get("ipykernel.kernelapp")
    if app is not None and app.IPKernelApp.initialized():
        time.sleep(seconds)


def canvas_manager() -> W.Widget:
    """The ipycanvas manager widget whose ``send`` carries every drawing message (tests count them)."""
    return _ipycanvas._CANVAS_MANAGER


_UNSET = object()
_BEGIN, _MOVE, _LINE, _CLOSE, _FILL, _STROKE = (_ipycanvas.COMMANDS[k] for k in (
    "beginPath", "moveTo", "lineTo", "closePath", "fill", "stroke"))


class Pen:
    """An ipycanvas Canvas's drawing calls, with style attributes (``fill_style = ...``) sent as one command
    each and not at all when the value is already set.

    ipycanvas sends a style through a traitlets trait (validation and change events: most of the Python
    time of a drawing) and sends it even when unchanged; a tile drawn tile by tile sets the same font and
    alignment again and again. Only plain values (colours as strings, numbers) take the short way; anything
    else (a gradient or pattern widget) goes through ipycanvas. What the pen remembers holds for one batch
    (a newly connected browser starts from the defaults) and is forgotten on ``restore``.
    """

    __slots__ = ("_canvas", "_path_points", "_style")

    def __init__(self, canvas: Canvas) -> None:
        object.__setattr__(self, "_canvas", canvas)
        object.__setattr__(self, "_style", {})
        object.__setattr__(self, "_path_points", None)   # the polygon that is the canvas's current path, if known

    def __getattr__(self, name: str) -> Any:
        style = object.__getattribute__(self, "_style")
        if name in style:
            return style[name]
        object.__setattr__(self, "_path_points", None)    # any other drawing call may begin a new path
        return getattr(object.__getattribute__(self, "_canvas"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        code = Canvas.ATTRS.get(name)
        if code is None or not isinstance(value, str | int | float):
            self._style.pop(name, None)
            setattr(self._canvas, name, value)
            return
        if self._style.get(name, _UNSET) == value:
            return
        self._style[name] = value
        _ipycanvas._CANVAS_MANAGER.send_command(self._canvas, [_ipycanvas.COMMANDS["set"], [code, value]])

    # Polygons and polylines as plain path commands. ipycanvas sends their points as a numpy array, one binary
    # buffer per shape: a harvested Key Harvest tile was 13 buffers, each a frame of its own from the kernel
    # to the browser, and twice the Python time of the path (numpy's conversion dominates a 6-point shape).
    def fill_polygon(self, points: Sequence[tuple[float, float]]) -> None:
        """Fill the polygon through ``points``."""
        if self._path(points, close=True):
            self._send([_FILL, []])
        else:
            self._canvas.fill_polygon(points)

    def stroke_polygon(self, points: Sequence[tuple[float, float]]) -> None:
        """Outline the polygon through ``points``."""
        if self._path(points, close=True):
            self._send([_STROKE, []])
        else:
            self._canvas.stroke_polygon(points)

    def stroke_lines(self, points: Sequence[tuple[float, float]]) -> None:
        """Stroke the open polyline through ``points``."""
        if self._path(points, close=False):
            self._send([_STROKE, []])
        else:
            self._canvas.stroke_lines(points)

    def _path(self, points: Sequence[tuple[float, float]], close: bool) -> bool:
        """Make the path through ``points`` the current one (unless it already is: a polygon filled, then
        outlined); False (nothing sent) outside a batch, where each command would be a message of its own."""
        if not _ipycanvas._CANVAS_MANAGER._caching or len(points) < 2:
            object.__setattr__(self, "_path_points", None)
            return False
        key = (tuple(points), close)
        if key == self._path_points:
            return True
        object.__setattr__(self, "_path_points", key)
        send = self._send
        send([_BEGIN, []])
        (x, y), *rest = points
        send([_MOVE, [float(x), float(y)]])
        for x, y in rest:
            send([_LINE, [float(x), float(y)]])
        if close:
            send([_CLOSE, []])
        return True

    def _send(self, command: list[Any]) -> None:
        _ipycanvas._CANVAS_MANAGER.send_command(self._canvas, command)

    def restore(self) -> None:
        """Restore the saved drawing state (the styles set since are no longer known)."""
        self._canvas.restore()
        self._style.clear()

    def forget(self) -> None:
        """Forget every style set (the next one of each is sent), and the current path."""
        self._style.clear()
        object.__setattr__(self, "_path_points", None)


class Layer:
    """One canvas layer drawn in CSS pixels: ``ctx`` sets the HiDPI transform once per batch."""

    def __init__(self, canvas: Canvas, scale: float) -> None:
        self.canvas = canvas
        self.scale = scale
        self._serial = -1
        self._pen = Pen(canvas)

    @property
    def ctx(self) -> Pen:
        """The layer's pen (ipycanvas's drawing calls), ready to draw in CSS pixels."""
        if self._serial != _Batch.serial:
            self._serial = _Batch.serial
            self._pen.forget()
            s = self.scale
            self.canvas.set_transform(s, 0, 0, s, 0, 0)
        return self._pen

    def clear(self) -> None:
        """Clear the whole layer."""
        self.ctx.clear_rect(0, 0, self.canvas.width / self.scale, self.canvas.height / self.scale)

    def clear_rect(self, x: float, y: float, w: float, h: float) -> None:
        """Clear a rectangle (CSS px)."""
        self.ctx.clear_rect(x, y, w, h)


class StackedCanvas(W.GridBox):
    """Layer canvases stacked in one grid cell (bottom first); the top one gets the mouse.

    Looks like a ``MultiCanvas`` to Python code: ``width``/``height`` in canvas pixels, and
    ``stack[i]`` is layer i.
    """

    def __init__(self, canvases: Sequence[Canvas], **kwargs: object) -> None:
        for c in {id(c.layout): c for c in canvases}.values():    # layers may share one Layout (SheetCanvas)
            c.layout.grid_area = "1 / 1 / 2 / 2"
        # sk-stack: TABLE_CSS scales the stack (and its layers) down to a narrow screen; classes go in with the widget
        # (an add_class after it is made is one more message at page load)
        kwargs["_dom_classes"] = ("sk-stack", *kwargs.get("_dom_classes", ()))  # type: ignore[misc]
        super().__init__(list(canvases), **kwargs)
        self._layers = list(canvases)

    def __getitem__(self, i: int) -> Canvas:
        return self._layers[i]

    @property
    def width(self) -> int:
        """Canvas pixels across (all layers are the same size)."""
        return int(self._layers[0].width)

    @property
    def height(self) -> int:
        """Canvas pixels down."""
        return int(self._layers[0].height)


class SheetCanvas:
    """Named layers, ``width`` × ``height`` CSS px drawn at ``scale``× (HiDPI): a MultiCanvas or a StackedCanvas.

    The widget's layout width/height are set in px to the CSS size, so the browser never
    stretches it (a stretched canvas maps clicks to the wrong cell). ``on_click`` callbacks get
    CSS-px coordinates: the browser already reports clicks in canvas pixels of the rendered size.
    """

    def __init__(self, width: float, height: float, layers: Sequence[str], scale: float = theme.SCALE,
                 css_class: str | None = None, stacked: bool = False) -> None:
        self.width, self.height, self.scale = width, height, scale
        w, h = round(width * scale), round(height * scale)
        size = {"width": f"{width:g}px", "height": f"{height:g}px"}
        self.widget: MultiCanvas | StackedCanvas
        if stacked:
            # one Layout for every layer: they are the same size, and each model is one more for the page to load
            shared = W.Layout(**size, grid_area="1 / 1 / 2 / 2")
            canvases = [Canvas(width=w, height=h, layout=shared) for _ in layers]
            self.widget = StackedCanvas(canvases, layout=W.Layout(
                **size, min_width=size["width"], min_height=size["height"], flex="0 0 auto",
                grid_template_columns=size["width"], grid_template_rows=size["height"]),
                _dom_classes=(css_class,) if css_class else ())
            self._events: MultiCanvas | Canvas = canvases[-1]
        else:
            self.widget = MultiCanvas(len(layers), width=w, height=h)
            self.widget.layout = W.Layout(**size, min_width=size["width"], min_height=size["height"],
                                          flex="0 0 auto")
            self._events = self.widget
        if css_class and css_class not in self.widget._dom_classes:
            self.widget.add_class(css_class)
        self.layers = {name: Layer(self.widget[i], scale) for i, name in enumerate(layers)}
        self.clients = 0           # browsers that said they are ready (each gets a full redraw)
        self._ready_cbs: list[Callable[[], None]] = []
        self._events.on_client_ready(self._client_ready)

    def __getitem__(self, name: str) -> Layer:
        return self.layers[name]

    @property
    def ready(self) -> bool:
        """True once a browser has shown this canvas (before that, drawing is wasted)."""
        return self.clients > 0

    def on_ready(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` whenever a browser is ready for a full redraw."""
        self._ready_cbs.append(callback)

    def _client_ready(self, *_: object) -> None:
        self.clients += 1
        for cb in self._ready_cbs:
            cb()

    def focus(self) -> None:
        """Give the keyboard focus to the canvas that takes the clicks (ipywidgets' focus message)."""
        self._events.focus()

    def on_click(self, callback: Callable[[float, float], None]) -> None:
        """Call ``callback(x, y)`` in CSS px once per mouse press or tap (``touch.Taps``: a swipe or a pinch is no
        tap, and a mouse press echoing a tap is dropped)."""
        taps, k, ev = Taps(callback), 1 / self.scale, self._events

        def css(touches: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
            return [(x * k, y * k) for x, y in touches]

        ev.on_mouse_down(lambda x, y: taps.mouse_down(x * k, y * k))
        ev.on_touch_start(lambda ts: taps.touch_start(css(ts)))
        ev.on_touch_move(lambda ts: taps.touch_move(css(ts)))
        ev.on_touch_end(lambda ts: taps.touch_end(css(ts)))
        ev.on_touch_cancel(lambda ts: taps.touch_cancel(css(ts)))

    def close(self) -> None:
        """Close the canvas and its layers (when a table replaces its sheet)."""
        for layer in self.layers.values():
            layer.canvas.close()
        self.widget.close()

    # ----- test hooks: what the browser would send ------------------------------------------
    def simulate_client_ready(self) -> None:
        """Behave as if a browser had just rendered the canvas."""
        self.widget[len(self.layers) - 1]._handle_frontend_event(None, {"event": "client_ready"}, [])

    def simulate_click(self, x: float, y: float) -> None:
        """Behave as if the user clicked at CSS px (x, y)."""
        self._simulate({"event": "mouse_down", "x": x * self.scale, "y": y * self.scale})

    def simulate_touch(self, event: str, *touches: tuple[float, float]) -> None:
        """Behave as if the browser sent ``touch_start`` / ``touch_move`` / ``touch_end`` / ``touch_cancel`` with the
        fingers on the glass at CSS px ``touches`` (as ipycanvas does: a one-finger tap ends with none)."""
        self._simulate({"event": event, "touches": [{"x": x * self.scale, "y": y * self.scale} for x, y in touches]})

    def simulate_tap(self, x: float, y: float) -> None:
        """Behave as if the user tapped CSS px (x, y) with one finger."""
        self.simulate_touch("touch_start", (x, y))
        self.simulate_touch("touch_end")

    def _simulate(self, content: dict[str, object]) -> None:
        self.widget[len(self.layers) - 1]._handle_frontend_event(None, content, [])
