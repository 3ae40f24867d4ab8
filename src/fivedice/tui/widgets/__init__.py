"""The terminal app's widgets: the board (dice and the score table), the chances bar and the
move log."""
