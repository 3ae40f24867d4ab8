"""The score sheet pages: a form, a print-ready sheet, and the same sheet as a PDF download.

`GET /sheet` shows the form (rules, players, columns, paper, language) and the sheet it
describes, laid out for printing (the print stylesheet hides everything else);
`GET /sheet.pdf` with the same query is the PDF. `GET /g/{id}/sheet` and
`/g/{id}/sheet.pdf` are a saved game's sheet, filled in. Everything is a GET: nothing
changes on the server. The words come from `fivedice.sheet.model`, so the page and the PDF say
the same thing.

A PDF costs CPU: a sheet is bounded (`MAX_SCORE_COLUMNS`), rendered PDFs are kept per sheet
and paper (`RENDERED`), and each client may have only so many rendered (`RateSettings.sheets`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from fivedice.core.errors import N_, FivediceError
from fivedice.core.rules import OPTION_NAMES, find_ruleset
from fivedice.i18n import LANGUAGES
from fivedice.sheet.model import (
    COLUMNS_PER_PAGE,
    MAX_SHEET_COLUMNS,
    Paper,
    Sheet,
    SheetError,
    blank_columns,
    build_sheet,
    game_sheet,
    parse_names,
    parse_paper,
)
from fivedice.sheet.rendered import RenderedSheets
from fivedice.web.deps import Hub
from fivedice.web.hub import GameHub
from fivedice.web.rates import ClientRates, client_of
from fivedice.web.routers.pages import Visitor, Who, new_game_context, render
from fivedice.web.wording import gettext_for, in_language

router = APIRouter(include_in_schema=False)
FIELD_LIMIT = 300


def sheet_texts(_: Callable[[str], str]) -> dict[str, str]:
    """The words of the sheet page (not of the sheet itself), translated by `_`."""
    return {
        "score_sheet": _("Score sheet"),
        "sheet_intro": _(
            "A score sheet to print, like the pad in the box: the boxes of the rules you "
            "choose, one column per game or per player."
        ),
        "players_names": _("Players (names separated by commas; optional)"),
        "columns": _("Columns (default: one per player, else 6)"),
        "paper": _("Paper"),
        "letter": _("Letter"),
        # Translators: two example names as typed in the players field, with its separator.
        "names_example": _("Ann, Bob"),
        "sheet_language": _("Language of the sheet"),
        "show_sheet": _("Show the sheet"),
        "download_pdf": _("Download PDF"),
        "print": _("Print"),
        "print_note": _(
            "Print this page (only the sheet is printed), or download the PDF. "
            "Up to six columns fit on one page; more continue on the next."
        ),
        "game_sheet": _("Score sheet of this game"),
        "back_to_game": _("Back to the game"),
    }


@dataclass(frozen=True)
class SheetForm:
    """What the form asked for, as typed (shown again when it is refused)."""

    preset: str = "classic"
    players: str = ""
    columns: str = ""
    paper: str = "a4"
    language: str = "en"
    options: Mapping[str, str] | None = None


def _form_of(request: Request, visitor: Visitor) -> SheetForm:
    query = request.query_params

    def field(name: str, default: str = "") -> str:
        return (query.get(name) or default).strip()[:FIELD_LIMIT]

    language = field("lang", visitor.language)
    options = {name: field(f"opt_{name}") for name in OPTION_NAMES if field(f"opt_{name}")}
    return SheetForm(
        preset=field("preset", "classic"),
        players=field("players"),
        columns=field("columns"),
        paper=field("paper", "a4"),
        language=language if language in LANGUAGES else visitor.language,
        options=options,
    )


def _blank_sheet(form: SheetForm) -> tuple[Sheet, Paper]:
    """The sheet the form describes.

    Raises:
        FivediceError: an unknown preset or option, a bad column count, paper or name.
    """
    paper = parse_paper(form.paper)
    rules = find_ruleset(form.preset, dict(form.options or {}))
    count: int | None = None
    if form.columns:
        if not (form.columns.isascii() and form.columns.isdigit()):
            raise SheetError(
                N_("the number of columns is a whole number from 1 to {most}, not {count!r}"),
                most=MAX_SHEET_COLUMNS,
                count=form.columns,
            )
        count = int(form.columns)
    names = parse_names(form.players)
    sheet = in_language(
        form.language,
        lambda: build_sheet(rules, blank_columns(names, count), language=form.language),
    )
    return sheet, paper


RENDERED = RenderedSheets()
"""This worker's rendered sheets: the same sheet asked for again is not rendered again."""

RENDERING = threading.Lock()
"""One PDF rendered at a time in this worker. A render is ~0.4 s of pure-Python CPU in a
worker thread; eight at once kept the GIL from the event loop, and every other player's
request waited 0.35–0.5 s (benchmarks/attacks.py, `sheets`); one at a time, the loop gets
its turn. Requests that wait hold no GIL, and the per-client rate bounds how many wait."""


def _pdf(request: Request, sheet: Sheet, paper: Paper, filename: str) -> Response:
    """The sheet as a PDF: from the cache, else rendered (counted in the client's rate of
    rendered sheets: past it, 429)."""
    pdf = RENDERED.get(sheet, paper)
    if pdf is None:
        from fivedice.sheet.pdf import render_pdf

        rates: ClientRates | None = getattr(request.app.state, "rates", None)
        if rates is not None:
            rates.take("sheets", client_of(request.scope))
        with RENDERING:
            pdf = RENDERED.get(sheet, paper)  # (rendered while this request waited?)
            if pdf is None:
                pdf = render_pdf(sheet, paper)
                RENDERED.put(sheet, paper, pdf)
    return Response(
        pdf,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


def _page(
    request: Request,
    visitor: Visitor,
    form: SheetForm,
    sheet: Sheet | None,
    paper: Paper,
    *,
    status: int = 200,
    error: str | None = None,
    pid: str | None = None,
    pdf_url: str = "",
) -> HTMLResponse:
    gettext = gettext_for(visitor.language)
    context: dict[str, Any] = {
        "st": sheet_texts(gettext),
        "form": form,
        "sheet": sheet,
        "pages": _pages(sheet) if sheet else [],
        "paper": paper.value,
        "orientation": _orientation(sheet) if sheet else "portrait",
        "error": error,
        "pid": pid,
        "pdf_url": pdf_url,
        "papers": [p.value for p in Paper],
        "most_columns": MAX_SHEET_COLUMNS,
    }
    context.update(new_game_context(visitor))
    return render(request, visitor, "sheet.html", status=status, **context)


def _orientation(sheet: Sheet) -> str:
    """Landscape when each game needs several columns (as the PDF decides, roughly)."""
    cells = min(COLUMNS_PER_PAGE, len(sheet.columns)) * sheet.sub_columns
    return "landscape" if cells > 8 else "portrait"


def _pages(sheet: Sheet) -> list[dict[str, Any]]:
    """The sheet split into printed pages of up to six columns, each with its rows' cells."""
    pages = []
    for start in range(0, len(sheet.columns), COLUMNS_PER_PAGE):
        stop = start + COLUMNS_PER_PAGE
        rows = []
        for row in sheet.rows:
            cells = []
            for index, texts in enumerate(row.cells[start:stop], start=start):
                ticks = row.ticks[index] if row.ticks else ()
                cells.append(
                    [
                        {"text": text, "ticks": ticks[sub] if ticks else 0}
                        for sub, text in enumerate(texts)
                    ]
                )
            rows.append({"row": row, "kind": row.kind.value, "cells": cells})
        pages.append({"columns": sheet.columns[start:stop], "rows": rows})
    return pages


def _said(problem: FivediceError, visitor: Visitor) -> str:
    from fivedice.wording.text import error_text

    return error_text(problem, gettext_for(visitor.language))


def _sheet_or_refusal(
    request: Request,
    visitor: Visitor,
    build: Callable[[SheetForm], tuple[Sheet, Paper]],
    public_id: str | None = None,
) -> tuple[Sheet, Paper, SheetForm] | Response:
    """The sheet `build` makes of the request's form, or the form again with the reason."""
    form = _form_of(request, visitor)
    try:
        sheet, paper = build(form)
    except FivediceError as problem:
        error = _said(problem, visitor)
        return _page(request, visitor, form, None, Paper.A4, status=422, error=error, pid=public_id)
    return sheet, paper, form


def _with_query(path: str, request: Request) -> str:
    """`path` with the request's query (the same form, another format)."""
    query = request.url.query
    return path + (f"?{query}" if query else "")


@router.get("/sheet", response_class=HTMLResponse)
def sheet_page(request: Request, visitor: Who) -> Response:
    """The form and the print-ready sheet it describes."""
    found = _sheet_or_refusal(request, visitor, _blank_sheet)
    if isinstance(found, Response):
        return found
    sheet, paper, form = found
    return _page(request, visitor, form, sheet, paper, pdf_url=_with_query("/sheet.pdf", request))


@router.get("/sheet.pdf")
def sheet_pdf(request: Request, visitor: Who) -> Response:
    """The sheet of the form as a PDF download (the form again, with the reason, if refused)."""
    found = _sheet_or_refusal(request, visitor, _blank_sheet)
    if isinstance(found, Response):
        return found
    sheet, paper, _form = found
    return _pdf(request, sheet, paper, "fivedice-sheet.pdf")


def _game_sheet_or_refusal(
    request: Request, public_id: str, hub: GameHub, visitor: Visitor
) -> tuple[Sheet, Paper, SheetForm] | Response:
    """A saved game's sheet in the asked language and paper, or the page that says why not."""
    state = hub.load(hub.game_id(public_id)).state

    def build(form: SheetForm) -> tuple[Sheet, Paper]:
        paper = parse_paper(form.paper)
        sheet = in_language(form.language, lambda: game_sheet(state, language=form.language))
        return sheet, paper

    return _sheet_or_refusal(request, visitor, build, public_id)


@router.get("/g/{public_id}/sheet", response_class=HTMLResponse)
def game_sheet_page(request: Request, public_id: str, hub: Hub, visitor: Who) -> Response:
    """A saved game's sheet, filled in, ready to print."""
    found = _game_sheet_or_refusal(request, public_id, hub, visitor)
    if isinstance(found, Response):
        return found
    sheet, paper, form = found
    pdf_url = _with_query(f"/g/{public_id}/sheet.pdf", request)
    return _page(request, visitor, form, sheet, paper, pid=public_id, pdf_url=pdf_url)


@router.get("/g/{public_id}/sheet.pdf")
def game_sheet_pdf(request: Request, public_id: str, hub: Hub, visitor: Who) -> Response:
    """A saved game's sheet as a PDF download."""
    found = _game_sheet_or_refusal(request, public_id, hub, visitor)
    if isinstance(found, Response):
        return found
    sheet, paper, _form = found
    return _pdf(request, sheet, paper, f"fivedice-game-{hub.game_id(public_id)}.pdf")
