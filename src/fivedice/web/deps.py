"""FastAPI dependencies shared by the routers: the hub, and a game named by its public id.

A game that does not exist is one error, `UnknownGameError`, raised here before an endpoint
runs; the app's exception handler answers it (404: the API's JSON, a page's "That game does
not exist." in the visitor's language), so no endpoint catches it itself.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from fivedice.service.games import GameView
from fivedice.web.hub import GameHub


async def hub_of(request: Request) -> GameHub:
    """The app's hub (async: a plain function would cost a hop to the thread pool)."""
    hub: GameHub = request.app.state.hub
    return hub


Hub = Annotated[GameHub, Depends(hub_of)]


async def game_id_of(public_id: str, hub: Hub) -> int:
    """The store id of the path's `public_id`.

    Raises:
        UnknownGameError: not an id of this server.
    """
    return hub.game_id(public_id)


def game_of(public_id: str, hub: Hub) -> GameView:
    """The game of the path's `public_id`, as saved now (read in the thread pool).

    Raises:
        UnknownGameError: not an id of this server, or no such game.
    """
    return hub.look(hub.load(hub.game_id(public_id)))  # (someone looks at it)


GameId = Annotated[int, Depends(game_id_of)]
"""An endpoint's game, by store id (from the path's `public_id`)."""

Game = Annotated[GameView, Depends(game_of)]
"""An endpoint's game as saved now (from the path's `public_id`)."""
