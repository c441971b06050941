"""Entry point for ``python -m sheetkit``."""

from sheetkit.cli import main

raise SystemExit(main())
