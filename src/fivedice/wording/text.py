"""The shared wording in one import: the public names of `wording`'s topic modules that the
front ends use most. Each is defined once, in its topic module (see the package's docstring).
"""

from __future__ import annotations

from fivedice.wording.boxes import (
    box_name,
    find_box,
    par_label,
    parse_score_words,
    total_label,
    upper_bonus_label,
    upper_total_label,
    yahtzee_bonus_label,
)
from fivedice.wording.coach import choice_text, coach_lines, keep_text
from fivedice.wording.errors import (
    changed_elsewhere_text,
    error_text,
    not_saved_lines,
    refused_text,
    undo_refused_text,
)
from fivedice.wording.game import (
    CELL,
    card_lines,
    dice_text,
    game_result_line,
    match_progress_lines,
    opening_lines,
    placement_notes,
    ranking_lines,
    resuming_line,
    state_lines,
    table_turn_lines,
    turn_lines,
)
from fivedice.wording.labels import (
    cpu_name,
    first_player_name,
    level_name,
    player_name,
    preset_description,
    preset_title,
    status_text,
)
from fivedice.wording.lists import list_text
from fivedice.wording.moves import (
    dice_values,
    entry_taken_back_text,
    hold_sentence,
    move_sentence,
    placement_text,
    placement_words,
    replay_sentence,
    roll_sentence,
    score_sentence,
    undo_sentence,
)
from fivedice.wording.rules import box_rule, box_sentence, describe_rules

__all__ = [
    "CELL",
    "box_name",
    "box_rule",
    "box_sentence",
    "card_lines",
    "changed_elsewhere_text",
    "choice_text",
    "coach_lines",
    "cpu_name",
    "describe_rules",
    "dice_text",
    "dice_values",
    "entry_taken_back_text",
    "error_text",
    "find_box",
    "first_player_name",
    "game_result_line",
    "hold_sentence",
    "keep_text",
    "level_name",
    "list_text",
    "match_progress_lines",
    "move_sentence",
    "not_saved_lines",
    "opening_lines",
    "par_label",
    "parse_score_words",
    "placement_notes",
    "placement_text",
    "placement_words",
    "player_name",
    "preset_description",
    "preset_title",
    "ranking_lines",
    "refused_text",
    "replay_sentence",
    "resuming_line",
    "roll_sentence",
    "score_sentence",
    "state_lines",
    "status_text",
    "table_turn_lines",
    "total_label",
    "turn_lines",
    "undo_refused_text",
    "undo_sentence",
    "upper_bonus_label",
    "upper_total_label",
    "yahtzee_bonus_label",
]
