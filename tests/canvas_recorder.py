"""Counts what the canvases send: every message through ipycanvas's one shared canvas manager."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from ipycanvas.canvas import _CMD_LIST
from sheetkit.widgets import canvas_manager


class Recorder:
    """Records every message the canvases send: one entry per message, as (canvas id, command) pairs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.messages: list[list[tuple[str, str]]] = []
        self.drawn: list[list[tuple[str, str, list[Any]]]] = []   # per message: (canvas id, command, args)
        self.buffers: list[int] = []                               # per message: binary buffers besides the commands
        manager = canvas_manager()
        original = manager._send_custom

        def send(command: Any, buffers: Any = None) -> Any:
            self.messages.append(self._decode(command))
            self.drawn.append(self._decode_args(command))
            self.buffers.append(len(buffers or []))
            return original(command, buffers or [])

        monkeypatch.setattr(manager, "_send_custom", send)

    @staticmethod
    def _decode(command: Any) -> list[tuple[str, str]]:
        """(canvas id, command) pairs; a polygon or polyline drawn as a path (how the pen sends them) counts as
        one ``fillPolygon``, ``strokePolygon`` or ``strokeLines``, as ipycanvas would have sent it."""
        cmds = command if command and isinstance(command[0], list) else [command]
        out: list[tuple[str, str]] = []
        current = "?"
        names = [_CMD_LIST[c[0]] for c in cmds]
        i = 0
        while i < len(names):
            name = names[i]
            if name == "switchCanvas":
                current = cmds[i][1][0].replace("IPY_MODEL_", "")
                i += 1
                continue
            shape = Recorder._polygon_at(names, i)
            if shape is not None:
                out.append((current, shape[0]))
                i = shape[1]
                continue
            out.append((current, name))
            i += 1
        return out

    @staticmethod
    def _polygon_at(names: list[str], i: int) -> tuple[str, int] | None:
        """beginPath, moveTo, lineTo…, [closePath], fill|stroke at ``i``: (the shape's name, the index after it)."""
        if names[i:i + 2] != ["beginPath", "moveTo"]:
            return None
        j = i + 2
        while j < len(names) and names[j] == "lineTo":
            j += 1
        if j == i + 2:
            return None
        closed = j < len(names) and names[j] == "closePath"
        j += closed
        end = names[j] if j < len(names) else None
        if end == "fill" and closed:
            return "fillPolygon", j + 1
        if end == "stroke":
            return ("strokePolygon" if closed else "strokeLines"), j + 1
        return None

    @staticmethod
    def _decode_args(command: Any) -> list[tuple[str, str, list[Any]]]:
        cmds = command if command and isinstance(command[0], list) else [command]
        out, current = [], "?"
        for c in cmds:
            name = _CMD_LIST[c[0]]
            if name == "switchCanvas":
                current = c[1][0].replace("IPY_MODEL_", "")
            else:
                out.append((current, name, list(c[1]) if len(c) > 1 else []))
        return out

    def clear(self) -> None:
        self.messages.clear()
        self.drawn.clear()
        self.buffers.clear()

    def count(self) -> int:
        return len(self.messages)

    def _picked(self, k: int | None) -> list[tuple[str, str]]:
        return [pair for m in (self.messages if k is None else [self.messages[k]]) for pair in m]

    def canvases(self, k: int | None = -1) -> set[str]:
        """The canvases drawn on by message ``k`` (default: the last; None: every message since ``clear``)."""
        return {cid for cid, _ in self._picked(k)}

    def commands(self, canvas: Any, k: int | None = -1) -> Counter[str]:
        """The commands sent to ``canvas`` by message ``k`` (default: the last; None: every message since ``clear``)."""
        return Counter(name for cid, name in self._picked(k) if cid == canvas.model_id)
