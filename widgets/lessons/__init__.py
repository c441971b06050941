"""The probability lessons' panels and live explorers, one module per game."""
