"""The web's routes, one module a subject: `api` (the JSON API and its event streams),
`pages` (the game pages), `rooms`, `table`, `tutorial`, `review`, `sheet` and `fairness` (the
verify page and the record)."""
