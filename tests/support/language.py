"""Reading output for English left in a translated screen, and a scripted stdin."""

from __future__ import annotations

import io
import re

SYNTAX = re.compile(r"--?[\w-]+|<[^>]*>|\$\w+|`[^`]*`|[a-z]+_[a-z_]+|\S*[/:.=]\S*")
"""What a help screen shows as typed, not as words: options, types, variables, code, keys,
paths and addresses."""

ENGLISH_SENTENCE = re.compile(r"\b[A-Za-z]{2,}(?:,? [A-Za-z]{2,}){2,}")
"""Three or more ASCII words in a row: a sentence (or its piece) left in English."""


def english_sentences(screen: str) -> list[str]:
    """The English sentences (three ASCII words or more) a screen shows beside its syntax."""
    text = SYNTAX.sub(" ", screen.replace("│", " "))
    return ENGLISH_SENTENCE.findall(text)


class ScriptedPlayer(io.StringIO):
    """Stdin that answers the zero-score question with "y" and otherwise types the next
    scripted line: so the script needs no knowledge of the dice."""

    def __init__(self, out: io.StringIO, lines: list[str]) -> None:
        super().__init__()
        self.out = out
        self.lines = lines

    def isatty(self) -> bool:
        return False

    def readline(self, size: int | None = -1) -> str:
        if self.out.getvalue().endswith("[y/N] "):
            return "y\n"
        return self.lines.pop(0) + "\n" if self.lines else ""
