"""The line-based front end, for screen readers and scripts: a game (`game`), the score
keeper at the table (`table`) and the lessons (`tutorial`), line by line."""
