"""sheetkit: paper-and-pencil games for Jupyter — a pure-Python engine with widgets on top."""

__version__ = "0.1.0"
