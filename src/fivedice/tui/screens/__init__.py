"""The terminal app's screens: setup, game, table (the score keeper), tutorial, review,
records and the small dialogs. A screen gets what it needs as arguments and posts messages
for what only the App may do; no screen imports the App."""
