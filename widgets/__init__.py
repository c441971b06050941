"""sheetkit.widgets: ipycanvas sheets that draw a game's state and turn clicks into actions."""

from __future__ import annotations

import importlib
from typing import Any

# ``live`` and ``luck_panel`` name a module and its function: bound here, so the name is the function.
from sheetkit.widgets.live import live
from sheetkit.widgets.luck_panel import LuckPanel, luck_panel

# The other public names load with their module, the first time they are asked for: a notebook imports one
# table, and loading every game's table (their engines and analysis) took about a third of a second of
# CPU at the start of each page (docs/performance.md).
_HOME = {
    "AvenueTable": "avenue.table", "KeyHarvestTable": "key_harvest.table", "KingdomTable": "kingdom_maps.table",
    "SheetCanvas": "canvas", "batch": "canvas", "canvas_manager": "canvas",
    "HexGeometry": "geometry", "SquareGeometry": "geometry", "to_canvas": "geometry",
    "DashboardOptions": "query", "dashboard_options": "query", "share_query": "query",
}

__all__ = [
    "AvenueTable", "DashboardOptions", "HexGeometry", "KeyHarvestTable", "KingdomTable", "LuckPanel", "SheetCanvas",
    "SquareGeometry", "batch", "canvas_manager", "dashboard_options", "live", "luck_panel", "share_query", "to_canvas",
]


def __getattr__(name: str) -> Any:
    """Import a public name's module the first time the name is asked for."""
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    globals()[name] = value
    return value
