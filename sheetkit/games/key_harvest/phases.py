"""Key Harvest's phases: the table's steps (setup, refill, end), a player's turn (act), and the game over."""

SETUP, ACT, REFILL, END, OVER = "setup", "act", "refill", "end", "over"
