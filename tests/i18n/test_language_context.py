"""The language is a ContextVar: concurrent requests in different languages
each speak their own, with no lock between them, and the process's language stays put."""

from __future__ import annotations

import asyncio
import threading

import pytest

from fivedice.core.categories import Category
from fivedice.i18n import (
    _,
    current_language,
    in_language,
    load_translations,
    ngettext,
    set_language,
    use_language,
)
from fivedice.wording.text import box_name

MESSAGE = "Play unsaved"
LANGUAGES = ("en", "nl", "de")


def expected(language: str) -> str:
    return load_translations(language).gettext(MESSAGE)


def test_the_message_differs_per_language() -> None:  # else the tests below prove nothing
    assert len({expected(language) for language in LANGUAGES}) == len(LANGUAGES)


def test_threads_in_different_languages_overlap_and_each_keeps_its_own() -> None:
    set_language("en")
    # Every thread waits inside its language for all the others: with a lock around the
    # language (the old way) they could never all be inside at once.
    inside = threading.Barrier(len(LANGUAGES) * 2, timeout=20)
    seen: dict[tuple[str, int], tuple[str, str, str]] = {}

    def render(language: str, number: int) -> None:
        def words() -> tuple[str, str, str]:
            inside.wait()
            first = _(MESSAGE)
            inside.wait()  # the others have set theirs meanwhile
            return first, _(MESSAGE), current_language()

        seen[language, number] = in_language(language, words)

    threads = [
        threading.Thread(target=render, args=(language, number))
        for number in range(2)
        for language in LANGUAGES
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(seen) == len(threads)
    for (language, _number), (first, second, code) in seen.items():
        assert first == second == expected(language)
        assert code == language
    assert current_language() == "en" and _(MESSAGE) == MESSAGE


def test_asyncio_tasks_each_keep_their_language() -> None:
    set_language("de")

    async def render(language: str, ready: asyncio.Event, go: asyncio.Event) -> tuple[str, str]:
        with use_language(language):
            ready.set()
            await go.wait()  # every task has set its language before any reads it
            return _(MESSAGE), box_name(Category.SMALL_STRAIGHT)

    async def main() -> list[tuple[str, str]]:
        events = [(asyncio.Event(), asyncio.Event()) for _ in LANGUAGES]
        tasks = [
            asyncio.create_task(render(language, ready, go))
            for language, (ready, go) in zip(LANGUAGES, events, strict=True)
        ]
        for ready, _go in events:
            await ready.wait()
        for _ready, go in events:
            go.set()
        return list(await asyncio.gather(*tasks))

    try:
        results = asyncio.run(main())
        assert [text for text, _box in results] == [expected(lang) for lang in LANGUAGES]
        boxes = [box for _text, box in results]
        assert len(set(boxes)) == len(boxes)  # the shared wording follows the context too
        assert current_language() == "de"  # the process's language is untouched
    finally:
        set_language("en")


def test_a_context_language_ends_with_its_block_and_bad_codes_fall_back() -> None:
    set_language("nl")
    try:
        with use_language("de") as code:
            assert code == "de" and _(MESSAGE) == expected("de")
            with use_language("xx") as fallback:  # unknown: English, not an error
                assert fallback == "en" and _(MESSAGE) == MESSAGE
            assert current_language() == "de"
            assert ngettext("{rules}: {games:,} game", "{rules}: {games:,} games", 2) != (
                "{rules}: {games:,} games"
            )
        assert current_language() == "nl" and _(MESSAGE) == expected("nl")
        with pytest.raises(ZeroDivisionError), use_language("de"):
            raise ZeroDivisionError
        assert current_language() == "nl"
    finally:
        set_language("en")


def test_a_thread_started_by_the_app_speaks_the_process_language() -> None:
    set_language("nl")
    try:
        seen: list[str] = []
        thread = threading.Thread(target=lambda: seen.append(_(MESSAGE)))
        thread.start()
        thread.join()
        assert seen == [expected("nl")]
    finally:
        set_language("en")
