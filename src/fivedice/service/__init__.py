"""The one service: every use case the front ends need, above the strategy layer and the store.

Front ends (plain, tui, web, cli) read input, call the service and render what it returns;
only the service reaches `fivedice.strategy` and `fivedice.store`. `GameService`
(`service.games`) is the façade for saved games — create, read (`saved`), act, undo
(`undo.undo_refusal`: the policy as one pure function), CPU moves (`cpu`), the coach and
winning chances (`coach`), reviews (`review`), export and statistics (`records`), the
tutorial (`tutorial`) — and `LocalGame` (`local`) plays a game kept in memory.
Beside it: `opening` (the game to resume or start), `settings` (seats, levels, first player,
a score of 0: one check and one message each), `creation` (a game from submitted options),
`rooms` (waiting rooms; a start is one transaction), `seats` (turn and hand-over policies),
`table` (games at the table).
"""
