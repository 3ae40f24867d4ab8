"""The thirteen boxes of a score card, in score-card order."""

from __future__ import annotations

from enum import Enum

from fivedice.core.errors import N_, CardError, Phrase


class Category(Enum):
    """A box on the score card. The value is the key used in notation, JSON and saves."""

    ONES = "ones"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    THREE_OF_A_KIND = "three_of_a_kind"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    SMALL_STRAIGHT = "small_straight"
    LARGE_STRAIGHT = "large_straight"
    YAHTZEE = "yahtzee"
    CHANCE = "chance"

    @property
    def key(self) -> str:
        return self.value

    @property
    def index(self) -> int:
        """Position on the card, 0-12."""
        return CATEGORY_INDEX[self]

    @property
    def is_upper(self) -> bool:
        return self in UPPER

    @property
    def face(self) -> int | None:
        """The face an upper box counts (ones → 1 …), None for lower boxes."""
        return UPPER.index(self) + 1 if self in UPPER else None

    @classmethod
    def parse(cls, text: str) -> Category:
        """Finds a box by its key ("full_house"); dashes and spaces also work, any case.

        Raises:
            CardError: no box has that name.
        """
        key = text.strip().lower().replace("-", "_").replace(" ", "_")
        try:
            return cls(key)
        except ValueError:
            known = ", ".join(c.value for c in cls)
            raise CardError(
                N_("no box is called {text!r}; the boxes are {boxes}"), text=text, boxes=known
            ) from None


CATEGORIES: tuple[Category, ...] = tuple(Category)
UPPER: tuple[Category, ...] = CATEGORIES[:6]
LOWER: tuple[Category, ...] = CATEGORIES[6:]
CATEGORY_INDEX: dict[Category, int] = {c: i for i, c in enumerate(CATEGORIES)}


BOX_NAMES: dict[Category, str] = {
    Category.ONES: N_("Ones"),
    Category.TWOS: N_("Twos"),
    Category.THREES: N_("Threes"),
    Category.FOURS: N_("Fours"),
    Category.FIVES: N_("Fives"),
    Category.SIXES: N_("Sixes"),
    Category.THREE_OF_A_KIND: N_("Three of a kind"),
    Category.FOUR_OF_A_KIND: N_("Four of a kind"),
    Category.FULL_HOUSE: N_("Full house"),
    Category.SMALL_STRAIGHT: N_("Small straight"),
    Category.LARGE_STRAIGHT: N_("Large straight"),
    Category.YAHTZEE: N_("Yahtzee"),
    Category.CHANCE: N_("Chance"),
}
"""Each box's English name as on the card (`fivedice.text.box_name` translates it)."""


def box_phrase(category: Category) -> Phrase:
    """The box's name for an error message, translated with it ("the Full house box is
    already filled"), never its key."""
    return Phrase(BOX_NAMES[category])


def upper_box(face: int) -> Category:
    """The upper box that counts `face` (1 → ones)."""
    return UPPER[face - 1]
