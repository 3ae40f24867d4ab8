"""Names that pass for another: Unicode's mixed-script and confusable rules (UTS #39).

`fivedice.core.names.check_name` refuses what cannot be seen (controls, invisible and
space-like characters) with the standard library alone. What a name *looks like* needs
Unicode's script and confusables data, read here from the `confusable_homoglyphs` package
(its copy of Scripts.txt and confusables.txt):

* a name keeps to the scripts of one writing system - UTS #39's "highly restrictive"
  level: one script, or Latin with Han and Hiragana and Katakana (Japanese), with Han and
  Bopomofo (Chinese), or with Han and Hangul (Korean); digits, punctuation, emoji and
  combining marks (scripts Common and Inherited) go with any of them. So "Zoë", "山田たろう",
  "Ann 👩‍💻" are names, and a Latin name with a Cyrillic "а" in it is not;
* two seats of one game or room may not have names that look the same: their skeletons
  (each character as the look-alike with the lowest code point, after NFKC, case-folded:
  `skeleton`) differ, so a Greek "ΑΝΝ" or a mathematical bold "𝐀𝐧𝐧" cannot sit next to "Ann".

>>> check_scripts("Zoë"), check_scripts("山田たろう")
('Zoë', '山田たろう')
>>> skeleton("Ann") == skeleton("ΑΝΝ") == skeleton("𝐀𝐧𝐧")
True
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence

from confusable_homoglyphs import categories, confusables

from fivedice.core.errors import N_
from fivedice.core.names import PlayerNameError, name_key, visible_text

_ANY_SCRIPT = frozenset({"COMMON", "INHERITED"})
_WRITING_SYSTEMS = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),  # Japanese
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),  # Chinese
    frozenset({"LATIN", "HAN", "HANGUL"}),  # Korean
)
"""The mixes of scripts UTS #39 allows at its "highly restrictive" level (besides one)."""


def scripts_of(name: str) -> frozenset[str]:
    """The scripts of a name's characters (Unicode's names, upper case), Common and
    Inherited left out."""
    return frozenset(categories.unique_aliases(name)) - _ANY_SCRIPT


def check_scripts(name: str) -> str:
    """The name, if its scripts are those of one writing system (see the module).

    Raises:
        PlayerNameError: it mixes scripts (the message names them).
    """
    scripts = scripts_of(name)
    if len(scripts) <= 1 or any(scripts <= system for system in _WRITING_SYSTEMS):
        return name
    raise PlayerNameError(
        N_("a name keeps to one script, so that it cannot pass for another ({scripts} in {name})"),
        scripts=" + ".join(sorted(script.title() for script in scripts)),
        name=visible_text(name, quote=True),
    )


@functools.cache
def _prototype(char: str) -> str:
    """The look-alike of `char` (itself included) with the lowest code point."""
    found = confusables.is_confusable(char, greedy=True) or []
    return min([char, *(str(glyph["c"]) for entry in found for glyph in entry["homoglyphs"])])


def skeleton(name: str) -> str:
    """What a name looks like: two names with one skeleton pass for each other."""
    text = unicodedata.normalize("NFKC", name.strip())
    return "".join(_prototype(char) for char in text).casefold()


def check_lookalikes(names: Sequence[str]) -> None:
    """Refuses a seat whose name looks like an earlier seat's (see `check_not_like`).

    Raises:
        PlayerNameError: the first name that passes for an earlier one.
    """
    for number, name in enumerate(names):
        check_not_like(name, names[:number])


def check_not_like(name: str, others: Sequence[str]) -> None:
    """Refuses `name` if it looks like one of `others` without being it (the same name is
    refused as such elsewhere: `GameSettings`, a room's "taken").

    Raises:
        PlayerNameError: the name passes for another.
    """
    looks = skeleton(name)
    for other in others:
        if skeleton(other) == looks and name_key(other) != name_key(name):
            raise PlayerNameError(
                N_("{name} looks like {other}, who plays here too; choose a name of your own"),
                name=visible_text(name, quote=True),
                other=visible_text(other, quote=True),
            )
