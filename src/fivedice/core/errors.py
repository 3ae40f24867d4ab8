"""The typed errors of the core. Every one is a `ValueError` whose message says what was wrong."""

from __future__ import annotations


class FivediceError(ValueError):
    """Base class of every error fivedice raises for bad input."""


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
