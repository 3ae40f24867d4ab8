"""Player names: the one rule for what a name may hold, and how stored text is shown safely.

A name is printed on terminals, in listings, in exported records and on web pages, and it is
a profile key for statistics. So the rule (`check_name`, applied by every `Seat`) refuses
what could forge output or hide what a name is:

* control characters (C0 and C1, NUL, ESC, DEL), so no terminal escape, no NUL;
* line and paragraph separators (``\\n``, ``\\r``, U+0085, U+2028, U+2029, ...), so a name
  can never print as several lines;
* the bidirectional controls (U+202A-U+202E, U+2066-U+2069, ...), which reorder what is shown
  around them;
* lone surrogates, which no output encoding can write;
* invisible characters and characters that only look like a space, by which two names
  that look alike would be two players (or a name would look empty): Unicode's default
  ignorable code points (zero-width spaces and joiners, the Hangul fillers U+115F, U+1160,
  U+3164 and U+FFA0, tag characters, a byte order mark, ...), the blank Braille pattern
  U+2800, and spaces other than the plain and the ideographic one - except a zero-width
  joiner or a variation selector right after a visible character (emoji such as ❤️ or
  👩‍💻 are made of them);
* names with nothing visible in them, and names longer than `MAX_NAME_LENGTH` once the outer
  whitespace is trimmed (the name is stored trimmed).

Text read back from a database may have been edited by hand and never checked:
`visible_text` shows any text on one line with every such character written as an escape.

>>> check_name("  Ann ")
'Ann'
>>> name_key(" STRASSE ") == name_key("Straße")
True
>>> visible_text("a\\nseed: 99\\x1b[31m")
'a\\\\nseed: 99\\\\x1b[31m'
"""

from __future__ import annotations

import unicodedata

from fivedice.core.errors import N_, SettingsError

MAX_NAME_LENGTH = 40
"""At most this many characters, counted after trimming (and for the case-folded profile
key, which is what names are matched by)."""

# Format characters that change the order in which the text around them is displayed.
_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# Categories of characters that must never be in a name: control, surrogate, line separator,
# paragraph separator.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)  # fmt: skip
"""Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt, Unicode 15):
characters shown as nothing at all."""
_BLANK_LOOKALIKES = frozenset("\u2800")  # BRAILLE PATTERN BLANK: a symbol drawn as a space
_SPACES = frozenset(" \u3000")  # the plain space and the ideographic one (Japanese input)
_AFTER_VISIBLE = frozenset("\u200d") | frozenset(map(chr, range(0xFE00, 0xFE10)))
"""Invisible characters allowed right after a visible one: the zero-width joiner and the
variation selectors of emoji sequences."""


def _is_invisible(char: str, before: str) -> bool:
    """Whether `char` (after `before`, "" at the start) is invisible or only looks like a
    space, and not part of an emoji sequence."""
    code = ord(char)
    ignorable = any(low <= code <= high for low, high in _DEFAULT_IGNORABLE)
    if ignorable and char in _AFTER_VISIBLE and before and _is_visible(before):
        return False
    if unicodedata.category(char) == "Zs":
        return char not in _SPACES
    return ignorable or char in _BLANK_LOOKALIKES


class PlayerNameError(SettingsError):
    """A player name that cannot be used (empty, too long, or with a refused character)."""


def _is_refused(char: str) -> bool:
    return unicodedata.category(char) in _REFUSED_CATEGORIES or char in _BIDI_CONTROLS


def _is_visible(char: str) -> bool:
    # Letters, digits, punctuation and symbols; not spaces, marks or invisible formats.
    return unicodedata.category(char)[0] in "LNPS"


def check_name(name: object) -> str:
    """The name, trimmed, if players may use it.

    Raises:
        PlayerNameError: not a string, nothing visible in it, longer than `MAX_NAME_LENGTH`
            characters, or it holds a control character, a line or paragraph separator or a
            bidirectional control (the message names the character by its code point).
    """
    if not isinstance(name, str):
        raise PlayerNameError(N_("every seat needs a name"))
    for before, char in zip(" " + name, name, strict=False):
        if _is_refused(char):
            reason = N_(
                "a name cannot hold control characters, line breaks or direction marks"
                " ({code} in {name})"
            )
        elif _is_invisible(char, before.strip()):
            reason = N_(
                "a name cannot hold invisible characters or characters that only look"
                " like a space ({code} in {name})"
            )
        else:
            continue
        raise PlayerNameError(
            reason,
            code=f"U+{ord(char):04X}",
            name=visible_text(name[:MAX_NAME_LENGTH], quote=True),
        )
    trimmed = name.strip()
    if not any(_is_visible(char) for char in trimmed):
        raise PlayerNameError(N_("every seat needs a name"))
    if len(trimmed) > MAX_NAME_LENGTH:
        raise PlayerNameError(
            N_("a name has at most {most} characters: {name}…"),
            most=MAX_NAME_LENGTH,
            name=visible_text(trimmed[:MAX_NAME_LENGTH], quote=True),
        )
    if len(name_key(trimmed)) > MAX_NAME_LENGTH:
        # Names are matched ignoring case ("ß" as "ss"): the key must fit as well.
        raise PlayerNameError(
            N_("a name has at most {most} characters when compared ignoring case: {name}"),
            most=MAX_NAME_LENGTH,
            name=visible_text(trimmed, quote=True),
        )
    return trimmed


def name_key(name: str) -> str:
    """The key a name is matched by: trimmed and case-folded, so "Ann", " ann " and "ANN"
    are one player (a profile, a seat at a table, a name taken in a room).

    >>> name_key("  Ann ")
    'ann'
    """
    return name.strip().casefold()


def visible_text(text: str, *, quote: bool = False) -> str:
    """`text` on one line, safe for a terminal: refused and invisible characters escaped.

    Control characters, separators, bidirectional controls and every other character that
    `str.isprintable` calls unprintable (except the plain space) are written as ``\\n``,
    ``\\x1b``, ``\\u2028``; a backslash as ``\\\\``, so what is shown is unambiguous.
    With `quote`, the result is also put in double quotes (a quote inside written ``\\"``).
    """
    out = []
    for char in text:
        if char == "\\":
            out.append("\\\\")
        elif quote and char == '"':
            out.append('\\"')
        elif char == " " or char.isprintable():
            out.append(char)
        else:
            escaped = repr(char)[1:-1]
            out.append(escaped if escaped.startswith("\\") else f"\\u{ord(char):04x}")
    shown = "".join(out)
    return f'"{shown}"' if quote else shown
