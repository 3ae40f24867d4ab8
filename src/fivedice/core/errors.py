"""The typed errors of the core. Every one is a `ValueError` whose message says what was wrong.

The core has no language: an error keeps its English message template and the values that
fill it (`error.template`, `error.params`), so a front end can show it translated
(`fivedice.wording.text.error_text`). Templates are marked for extraction with `N_`.

>>> error = IllegalActionError(N_("die {position} is already held"), position=2)
>>> str(error), error.template, error.params
('die 2 is already held', 'die {position} is already held', {'position': 2})
"""

from __future__ import annotations

from typing import Any


def N_(message: str) -> str:
    """Marks a message for translation without translating it (the core has no language)."""
    return message


class Phrase(str):
    """A parameter of an error message that is itself a message, translated with it.

    The store says what it "could not {doing}" and a rule option error names the option
    ("Rolls per turn"): those words are English text here, and `fivedice.wording.text.error_text`
    translates a `Phrase` parameter before filling the template with it.
    """

    __slots__ = ()


class Phrases(tuple[str, ...]):
    """A list of `Phrase`s as one parameter ("Ones, Chance"): each is translated, then they
    are joined with commas."""

    def __str__(self) -> str:
        return ", ".join(self)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class FivediceError(ValueError):
    """Base class of every error fivedice raises for bad input.

    Args:
        template: the English message, with `{name}` placeholders when `params` are given.
        params: the values that fill the placeholders (box keys, numbers, dice, ...).
    """

    template: str
    params: dict[str, Any]

    def __init__(self, template: str = "", /, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(template.format(**params) if params else template)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickles (e.g. from a worker process) with the template and parameters.
        return (_rebuild, (type(self), self.template, self.params, self.__dict__))


def _rebuild(
    cls: type[FivediceError], template: str, params: dict[str, Any], state: dict[str, Any]
) -> FivediceError:
    error = cls.__new__(cls)
    ValueError.__init__(error, template.format(**params) if params else template)
    error.__dict__.update(state)
    return error


class RuleSetError(FivediceError):
    """A rule option has an impossible value, or an unknown option or preset was named."""


class DiceError(FivediceError):
    """Dice values that are not faces 1-6, or the wrong number of dice."""


class CardError(FivediceError):
    """A score card that cannot exist (unknown box, impossible score, wrong column count)."""


class ActionError(FivediceError):
    """Base class of errors about an action."""


class MalformedActionError(ActionError):
    """The text of an action could not be read."""


class IllegalActionError(ActionError):
    """A well-formed action that the rules do not allow in this state."""


class SettingsError(FivediceError):
    """Game settings that cannot be played (no seats, a bad name, a bad match length, ...)."""
