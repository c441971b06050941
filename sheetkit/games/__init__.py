"""The built-in games, one package each; the registry finds them through entry points (pyproject.toml)."""
