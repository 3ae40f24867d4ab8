"""The strategy guide pages: `GET /guide` shows the guide (in the visitor's language, or the
one `?lang=` names) ready to print, `GET /guide.pdf` is the same guide as a PDF download
(`?paper=a4|letter`). Everything is a GET: nothing changes on the server.

The guide is data shipped with the package (`service.guide`), put into words by
`wording.guide`; the PDF is drawn by `sheet.guide_pdf`. A PDF depends only on the preset,
the language and the paper, so each is rendered once per worker and kept.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from fivedice.core.errors import FivediceError
from fivedice.i18n import LANGUAGES
from fivedice.service.guide import GUIDE_PRESETS, guide_data
from fivedice.sheet.model import Paper, parse_paper
from fivedice.web.routers.pages import Visitor, Who, render
from fivedice.web.wording import gettext_for, in_language
from fivedice.wording.guide import GuideText, guide_text

router = APIRouter(include_in_schema=False)

RENDERED: dict[tuple[str, str, Paper], bytes] = {}
"""This worker's rendered guides by (preset, language, paper): a few dozen at most."""

RENDERING = threading.Lock()
"""One guide rendered at a time in this worker (a render is pure-Python CPU)."""


def guide_page_texts(_: Callable[[str], str]) -> dict[str, str]:
    """The words of the guide page around the guide, translated by `_`."""
    return {
        "guide_language": _("Language of the guide"),
        "show_guide": _("Show the guide"),
        "download_pdf": _("Download PDF"),
        "paper": _("Paper"),
        "letter": _("Letter"),
        "print_guide_note": _(
            "Print this page (only the guide is printed), or download the PDF. The CPU level "
            "\u201cguide\u201d plays exactly these rules."
        ),
    }


def _choices(request: Request, visitor: Visitor) -> tuple[str, str, str]:
    """(preset, language, paper) the query asks for, with the visitor's language by default."""
    query = request.query_params
    language = (query.get("lang") or visitor.language).strip()[:10]
    return (
        (query.get("rules") or "classic").strip()[:40],
        language if language in LANGUAGES else visitor.language,
        (query.get("paper") or "a4").strip()[:10],
    )


def _words(preset: str, language: str) -> tuple[GuideText, dict[str, Any]]:
    data = guide_data(preset)
    return in_language(language, lambda: guide_text(data, data.get("optimum"))), data


def _refusal(request: Request, visitor: Visitor, problem: FivediceError) -> HTMLResponse:
    from fivedice.wording.text import error_text

    gettext = gettext_for(visitor.language)
    return render(
        request,
        visitor,
        "guide.html",
        status=422,
        gt=guide_page_texts(gettext),
        guide=None,
        error=error_text(problem, gettext),
        form={"rules": "classic", "lang": visitor.language, "paper": "a4"},
        presets=GUIDE_PRESETS,
        papers=[p.value for p in Paper],
    )


@router.get("/guide", response_class=HTMLResponse)
def guide_page(request: Request, visitor: Who) -> Response:
    """The guide, ready to print, and a form for its language and paper."""
    preset, language, paper = _choices(request, visitor)
    try:
        parse_paper(paper)
        text, _data = _words(preset, language)
    except FivediceError as problem:
        return _refusal(request, visitor, problem)
    query = request.url.query
    return render(
        request,
        visitor,
        "guide.html",
        gt=guide_page_texts(gettext_for(visitor.language)),
        guide=text,
        guide_language=language,
        error=None,
        form={"rules": preset, "lang": language, "paper": paper},
        presets=GUIDE_PRESETS,
        papers=[p.value for p in Paper],
        pdf_url="/guide.pdf" + (f"?{query}" if query else ""),
    )


@router.get("/guide.pdf")
def guide_pdf(request: Request, visitor: Who) -> Response:
    """The guide as a PDF download (the page again, with the reason, if refused)."""
    preset, language, paper_name = _choices(request, visitor)
    try:
        paper = parse_paper(paper_name)
        key = (preset, language, paper)
        pdf = RENDERED.get(key)
        if pdf is None:
            from fivedice.sheet.guide_pdf import render_guide_pdf

            text, _data = _words(preset, language)
            with RENDERING:
                pdf = RENDERED.get(key)
                if pdf is None:
                    pdf = in_language(language, lambda: render_guide_pdf(text, paper))
                    RENDERED[key] = pdf
    except FivediceError as problem:
        return _refusal(request, visitor, problem)
    return Response(
        pdf,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="fivedice-guide-{language}.pdf"'},
    )
