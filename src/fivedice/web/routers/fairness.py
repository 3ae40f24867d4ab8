"""Fair dice on the web: the verify page, the game record and the key that signs records
(`/g/{id}/verify`, `/g/{id}/record.txt`, `/fairness/key`).

The verify page runs the same check as `fivedice verify RECORD`, on the record exactly as it
is downloaded here - so what the page says is what anyone can re-check with the record and
the README's few lines of code, without trusting this server. Every record is signed with
this server's record key (`fivedice.service.signing`); `/fairness/key` publishes its public
half and fingerprint, which `fivedice verify --key` pins.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, PlainTextResponse, Response

from fivedice.core.errors import FivediceError
from fivedice.core.verify import VerifyRefusedError
from fivedice.service.signing import record_key
from fivedice.web.deps import GameId, Hub
from fivedice.web.hub import UnknownGameError
from fivedice.web.routers.pages import Who, render
from fivedice.web.wording import gettext_for
from fivedice.wording.text import error_text
from fivedice.wording.verdicts import verdict_lines

router = APIRouter(include_in_schema=False)


@router.get("/g/{public_id}/verify", response_class=HTMLResponse)
async def verify_page(
    request: Request, public_id: str, game_id: GameId, hub: Hub, visitor: Who
) -> Response:
    """The outcome of checking the game's dice: every roll recomputed from the seeds."""
    gettext = gettext_for(visitor.language)
    try:
        view = await run_in_threadpool(hub.load, game_id)
        verification = await run_in_threadpool(hub.service.verify_dice, game_id)
    except VerifyRefusedError as refused:
        return render(
            request, visitor, "verify.html", status=409, pid=public_id,
            refused=error_text(refused, gettext), commitment=view.dice_commitment,
        )  # fmt: skip
    except FivediceError as problem:
        if isinstance(problem, UnknownGameError):
            raise  # (a signed id of a game not saved here): the app's one not-found page
        return render(request, visitor, "message.html", status=422,
                      message=error_text(problem, gettext))  # fmt: skip
    verdict, *more = verdict_lines(
        verification.verdict,
        rolls=verification.rolls,
        fingerprint=verification.signature.fingerprint,
        pinned=True,  # the page checks this server's own record with this server's key
        server_alone=verification.server_alone,
        gettext=gettext,
    )
    first = verification.first_bad_action
    return render(
        request,
        visitor,
        "verify.html",
        pid=public_id,
        ok=verification.ok,
        verdict=verdict,
        notes=more,
        problems=[error_text(p.error, gettext) for p in verification.problems],
        first_bad=None
        if first is None
        else gettext("The first action that does not match: {number}.").format(number=first),
        commitment=view.dice_commitment,
        server_seed=view.server_seed,
        key_fingerprint=verification.signature.fingerprint,
    )


@router.get("/fairness/key", response_class=PlainTextResponse)
async def record_signing_key() -> Response:
    """The public key that signs this server's game records, and its fingerprint:
    ``ed25519 HEX`` then ``fingerprint: ...`` (what `fivedice verify --key FILE` reads)."""
    key = await run_in_threadpool(record_key)
    return PlainTextResponse(key.published, headers={"Cache-Control": "public, max-age=3600"})


@router.get("/g/{public_id}/record.txt", response_class=PlainTextResponse)
async def record_text(
    request: Request, public_id: str, game_id: GameId, hub: Hub, visitor: Who
) -> Response:
    """The game record as `fivedice export` writes it (the server seed only once it is over)."""
    try:
        text = await run_in_threadpool(hub.service.export, game_id)
    except FivediceError as problem:
        return render(request, visitor, "message.html", status=422,
                      message=error_text(problem, gettext_for(visitor.language)))  # fmt: skip
    return PlainTextResponse(
        text,
        headers={"Content-Disposition": f'attachment; filename="fivedice-{public_id}.txt"'},
    )
