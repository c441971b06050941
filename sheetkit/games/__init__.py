"""The built-in games; importing this package registers them."""

from sheetkit.games import avenue  # noqa: F401  (registers itself)
