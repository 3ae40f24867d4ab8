"""The tables (SQLAlchemy Core). Alembic migrations in `migrations/` create and change them;
this module is what the code reads and writes, and must match the newest migration.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

profiles = Table(
    "profiles",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),
    # Names are matched ignoring case and outer spaces: "ann" plays as "Ann".
    Column("name_key", String(40), nullable=False, unique=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

games = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("status", String(12), nullable=False),  # in_progress | finished | abandoned
    Column("rules_json", Text, nullable=False),  # RuleSet.settings() as JSON
    Column("rules_key", String(40), nullable=False),  # preset name or custom-<hash>
    Column("first_player", String(20), nullable=False),
    Column("match_length", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("practice", Boolean, nullable=False),
    Column("seat_count", Integer, nullable=False),
    Column("opening_dice", String(2000), nullable=False),  # roll-off dice, digits
    # Number of actions in the log; every write checks and bumps it (optimistic locking).
    Column("version", Integer, nullable=False),
    Column("totals_json", Text, nullable=False),  # match totals per seat, for listings
    # Who rolls: 'play' (the app) or 'table' (real dice; the app keeps the card).
    Column("kind", String(8), nullable=False, server_default="play"),
    # Verifiable dice (migration 0002_dicecommit; see fivedice.core.fairdice). Games saved
    # before, and games with a seed the client chose, have the legacy scheme and no seeds.
    Column("dice_scheme", String(20), nullable=False, server_default="python-random-v0"),
    Column("server_seed", String(64), nullable=True),  # hex; secret until the game is over
    Column("dice_commitment", String(64), nullable=True),  # SHA-256 of the server seed, hex
    Column("client_seeds_json", Text, nullable=True),  # one seed per seat, "" for none
)
Index("ix_games_status", games.c.status)

game_seats = Table(
    "game_seats",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(40), nullable=False),
    Column("cpu_level", String(20), nullable=True),
    Column("profile_id", Integer, ForeignKey("profiles.id"), nullable=True),
    # Migration 0004_seatrights: raised when the seat changes hands (its old token refused).
    Column("generation", Integer, nullable=False, server_default="0"),
)

actions = Table(
    "actions",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    # 1-based; the primary key refuses a second action with the same number.
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("action", String(60), nullable=False),  # action notation, e.g. "hold 1 3"
    Column("dice", String(2000), nullable=False),  # every die the action rolled, in order
    Column("created_at", DateTime(timezone=True), nullable=False),
)

results = Table(
    "results",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("game_number", Integer, primary_key=True),  # game of the match, from 1
    Column("seat", Integer, primary_key=True),
    Column("profile_id", Integer, ForeignKey("profiles.id"), nullable=True),
    Column("total", Integer, nullable=False),
    Column("rank", Integer, nullable=False),
    Column("upper_bonuses", Integer, nullable=False),  # columns that earned the upper bonus
    Column("yahtzees", Integer, nullable=False),  # Yahtzee boxes scored + extra Yahtzees
    Column("boxes_json", Text, nullable=False),  # {box: [score per column]}
    Column("finished_at", DateTime(timezone=True), nullable=False),
)
Index("ix_results_profile", results.c.profile_id)

# Seats a web browser holds (migration 0002_websessions): the browser keeps one random session
# cookie; this table, keyed by the cookie's SHA-256, says which game seats it may act for.
web_seats = Table(
    "web_seats",
    metadata,
    Column("session_key", String(64), primary_key=True),
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
Index("ix_web_seats_game", web_seats.c.game_id)

# What a front end keeps of a game besides the game itself (the terminal app: CPU pace, coach
# mode, language and the move log), so that a resumed game looks as it was left. One row per
# game, replaced on every save; the game never depends on it.
game_sessions = Table(
    "game_sessions",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("session_json", Text, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

# Tutorial progress (migration 0002_tutorial): one row per owner and lesson done or skipped;
# the owner is "" for the local user, or the SHA-256 of a web browser's session. Tutorial
# games are never saved as games, so nothing of them reaches `games`, `results` or statistics.
tutorial_progress = Table(
    "tutorial_progress",
    metadata,
    Column("owner", String(64), primary_key=True),
    Column("lesson", String(40), primary_key=True),
    Column("status", String(12), nullable=False),  # done | skipped
    Column("times_done", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

# Drills (migration 0012_drills): per owner ("" for the local user, or a browser session's
# SHA-256), the positions practised and where each stands; nothing refers to a game row.
drill_owners = Table(
    "drill_owners",
    metadata,
    Column("owner", String(64), primary_key=True),
    Column("answers", Integer, nullable=False),
    Column("harvested_game", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

drill_positions = Table(
    "drill_positions",
    metadata,
    Column("owner", String(64), primary_key=True),
    Column("key", String(60), primary_key=True),
    Column("position_json", Text, nullable=False),
    Column("source_loss", Float, nullable=True),
    Column("source_choice", String(60), nullable=True),
    Column("rank", Integer, nullable=False),
    Column("right_in_a_row", Integer, nullable=False),
    Column("times_answered", Integer, nullable=False),
    Column("times_missed", Integer, nullable=False),
    Column("due", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

# Rooms (migration 0002_rooms): the seats of a game before it starts, and who joined them.
rooms = Table(
    "rooms",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(6), nullable=False, unique=True),
    Column("host_key", String(64), nullable=False),  # SHA-256 of the host's session, or ""
    Column("status", String(8), nullable=False),  # waiting | started
    Column("options_json", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # Migration 0003_roomseeds: the game's secret server seed (hex), drawn with the room so
    # that its commitment is shown before any friend adds a client seed; NULL: older rooms.
    Column("server_seed", String(64), nullable=True),
)
Index("ix_rooms_game", rooms.c.game_id)

room_seats = Table(
    "room_seats",
    metadata,
    Column("room_id", Integer, ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # me | friend | local | cpu
    Column("name", String(40), nullable=False),
    Column("level", String(20), nullable=True),
    Column("joined", Boolean, nullable=False),
    Column("game_seat", Integer, nullable=True),
    Column("client_seed", String(256), nullable=True),  # the seat's own dice seed (0003)
    # 0004_seatrights: SHA-256 of the one pending device code (another device of its holder).
    Column("device_code", String(64), nullable=True),
)

room_claims = Table(
    "room_claims",
    metadata,
    Column("room_id", Integer, ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("session_key", String(64), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=True),  # 0004_seatrights; NULL: older
)

# Commitments a game was created with (migration 0010_commitmentuses): a commitment drawn
# before its client seeds (`fivedice.core.fairdice.Commitment`) makes one game only, or a
# client could replay a handle and play dice it already knows. Rows older than a handle
# lives are forgotten as new ones are written (an expired handle is refused anyway).
used_commitments = Table(
    "used_commitments",
    metadata,
    Column("commitment", String(64), primary_key=True),
    Column("used_at", DateTime(timezone=True), nullable=False),
)
Index("ix_used_commitments_used_at", used_commitments.c.used_at)

# Review summaries (migration 0011_reviewsummaries): each human seat's proficiency in a
# finished game (`fivedice.strategy.review.Proficiency`: the loss per decision and how it
# splits), written when the game finishes or first needed by the statistics. Derived data:
# a missing row, or one of an older `method`, is computed again from the game's log.
SUMMARY_COUNTS = (
    "decisions",
    "optimal",
    "keeps",
    "boxes",
    "early",
    "late",
    "longest_run",
    "opening_run",
    "closing_run",
)
SUMMARY_LOSSES = ("loss", "keep_loss", "box_loss", "early_loss", "late_loss")
review_summaries = Table(
    "review_summaries",
    metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("method", Integer, nullable=False),
    Column("exact", Boolean, nullable=False),
    *(Column(name, Integer, nullable=False) for name in SUMMARY_COUNTS),
    *(Column(name, Float, nullable=False) for name in SUMMARY_LOSSES),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

TABLE_NAMES = frozenset(metadata.tables)

# Texas Hold'em Yahtzee games (migration 0013_holdem): one row a game, its record as text
# (`fivedice.core.holdem.record`, with the server seed and the faces: never shown as is).
holdem_games = Table(
    "holdem_games",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("status", String(20), nullable=False),
    Column("record", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)
