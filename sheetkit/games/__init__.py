"""The built-in games; importing this package registers them."""

from sheetkit.games import avenue, key_harvest, kingdom_maps  # noqa: F401  (each registers itself)
