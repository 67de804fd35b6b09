"""live match log: the events coaches log during a match, each side's confirmation, and
the league setting that lets two confirmed logs finalise the result

Revision ID: livelog01a2b3
Revises: season_01_unplayed
Create Date: 2026-11-28 13:40:00

The kinds and injury codes are spelled out here as they stood when written (a later
edition's new kind needs its own migration of the CHECK).
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "livelog01a2b3"
down_revision = "season_01_unplayed"
branch_labels = None
depends_on = None

KINDS = (
    "kind IN ('td', 'comp', 'throw_completion', 'safe_landing', 'int', 'deflection', 'cas', "
    "'injury', 'ko', 'sent_off', 'mvp', 'stalling', 'concession')"
)


INJURIES = (
    "injury IS NULL OR injury IN ('badly_hurt', 'seriously_hurt', 'serious_injury', "
    "'lasting_injury', 'dead')"
)


def upgrade():
    op.create_table(
        "match_log_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("client_id", sa.String(length=64), nullable=False),
        sa.Column("side", sa.String(length=4), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("victim_id", sa.Integer(), nullable=True),
        sa.Column("injury", sa.String(length=20), nullable=True),
        sa.Column("lasting", sa.String(length=2), nullable=True),
        sa.Column("dice", sa.JSON(), nullable=True),
        sa.Column("half", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("disputed", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("logged_by_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("side IN ('home', 'away')", name=op.f("ck_match_log_event_side_known")),
        sa.CheckConstraint(KINDS, name=op.f("ck_match_log_event_kind_known")),
        sa.CheckConstraint(INJURIES, name=op.f("ck_match_log_event_injury_known")),
        sa.CheckConstraint("half BETWEEN 1 AND 3", name=op.f("ck_match_log_event_half_range")),
        sa.CheckConstraint("turn BETWEEN 1 AND 8", name=op.f("ck_match_log_event_turn_range")),
        sa.ForeignKeyConstraint(
            ["logged_by_id"], ["user.id"], name=op.f("fk_match_log_event_logged_by_id_user")
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_match_log_event_match_id_match")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_match_log_event_player_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["victim_id"], ["player.id"], name=op.f("fk_match_log_event_victim_id_player")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match_log_event")),
        sa.UniqueConstraint(
            "match_id", "client_id", name=op.f("uq_match_log_event_match_id_client_id")
        ),
    )
    with op.batch_alter_table("match_log_event", schema=None) as batch_op:
        for column in ("logged_by_id", "match_id", "player_id", "victim_id"):
            batch_op.create_index(
                batch_op.f(f"ix_match_log_event_{column}"), [column], unique=False
            )
    with op.batch_alter_table("match_team", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("log_confirmed_at", sa.DateTime(timezone=True), nullable=True)
        )
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("log_events", sa.Integer(), server_default="0", nullable=False)
        )
    with op.batch_alter_table("league", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("log_finalises", sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade():
    with op.batch_alter_table("league", schema=None) as batch_op:
        batch_op.drop_column("log_finalises")
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.drop_column("log_events")
    with op.batch_alter_table("match_team", schema=None) as batch_op:
        batch_op.drop_column("log_confirmed_at")
    with op.batch_alter_table("match_log_event", schema=None) as batch_op:
        for column in ("victim_id", "player_id", "match_id", "logged_by_id"):
            batch_op.drop_index(batch_op.f(f"ix_match_log_event_{column}"))
    op.drop_table("match_log_event")
