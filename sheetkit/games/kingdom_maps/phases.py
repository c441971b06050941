"""The phases of a game: the table rolls, the active player announces, everyone draws, or it is over."""

TABLE, ANNOUNCE, DRAW, OVER = "table", "announce", "draw", "over"
