"""sheetkit.widgets: ipycanvas sheets that draw a game's state and turn clicks into actions."""
