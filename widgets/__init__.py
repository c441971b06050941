"""sheetkit.widgets: ipycanvas sheets that draw a game's state and turn clicks into actions."""

from sheetkit.widgets.avenue.table import AvenueTable
from sheetkit.widgets.canvas import SheetCanvas, batch, canvas_manager
from sheetkit.widgets.geometry import HexGeometry, SquareGeometry, to_canvas
from sheetkit.widgets.key_harvest.table import KeyHarvestTable
from sheetkit.widgets.kingdom_maps.table import KingdomTable
from sheetkit.widgets.live import live
from sheetkit.widgets.luck_panel import LuckPanel, luck_panel
from sheetkit.widgets.query import DashboardOptions, dashboard_options, share_query

__all__ = [
    "AvenueTable", "DashboardOptions", "HexGeometry", "KeyHarvestTable", "KingdomTable", "LuckPanel", "SheetCanvas",
    "SquareGeometry", "batch", "canvas_manager", "dashboard_options", "live", "luck_panel", "share_query", "to_canvas",
]
