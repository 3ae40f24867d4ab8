"""Two requests in different languages at the same moment each get their own: the language
is a ContextVar set per request, with no lock between requests."""

from __future__ import annotations

import threading

from fivedice.core.rules import RuleSet
from fivedice.i18n import current_language
from fivedice.web.routers import pages
from fivedice.wording.text import describe_rules


def test_concurrent_requests_render_in_their_own_languages(client, monkeypatch) -> None:
    # Both requests wait inside their language for each other, so they are in it at the same
    # time: under a lock around the language (the old way) the barrier would break.
    inside = threading.Barrier(2, timeout=20)
    languages_seen: list[str] = []

    def describe_when_both_are_inside(rules: RuleSet) -> list[str]:
        inside.wait()
        lines = describe_rules(rules)
        inside.wait()  # the other request has rendered its own meanwhile
        languages_seen.append(current_language())
        return [*lines, *describe_rules(rules)]

    monkeypatch.setattr(pages, "describe_rules", describe_when_both_are_inside)
    pages_by_language: dict[str, str] = {}

    def fetch(language: str) -> None:
        response = client.get("/rules", headers={"Accept-Language": language})
        assert response.status_code == 200
        pages_by_language[language] = response.text

    threads = [threading.Thread(target=fetch, args=(code,)) for code in ("de", "nl")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(languages_seen) == ["de", "nl"]
    german, dutch = pages_by_language["de"], pages_by_language["nl"]
    english = describe_rules(RuleSet())
    assert current_language() == "en"  # the process's language never changed
    assert 'lang="de"' in german and 'lang="nl"' in dutch
    for line in english[:3]:
        assert line not in german and line not in dutch  # each translated, none English
    assert set(_rule_lines(german)).isdisjoint(_rule_lines(dutch))


def _rule_lines(html: str) -> list[str]:
    """The rules' lines as the page lists them (<li> items)."""
    import re

    return [item.strip() for item in re.findall(r"<li[^>]*>([^<]+)</li>", html) if item.strip()]
