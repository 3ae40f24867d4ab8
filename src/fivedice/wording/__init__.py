"""Every label and sentence the front ends share, in the current language (`fivedice.i18n`),
so the plain mode, the CLI, the terminal app, the web and the score sheet say the same thing.

One topic a module: `boxes` (box names, the card's labels, a box the player typed), `labels`
(presets, seats, CPU levels, statuses, first-player modes), `options` (rule options on the
new-game forms), `rules` (the rules in words), `game` (a game as plain text), `plain` (the
plain mode's terse lines for screen readers), `moves` (actions and undos as sentences),
`coach` (the coach's options), `reasons` and `verdicts` (why an option is best, how good a move
was), `goal` (a target total), `guide` (the printed strategy guide), `drills`, `table` (games
at the table), `shares` (winning chances), `errors` (errors for players), `lessons` (the lesson
list), `review` (a game's review), `lists` and `cells` (lists in words, text measured in
terminal cells). `text` imports the most used of
them in one line.

Functions that take `gettext` (or `_`) translate with it instead: the web passes each
request's catalog.
"""
