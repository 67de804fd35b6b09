"""finding a time to play: the times each side offers, the agreed kick-off, reminders sent

Revision ID: schedule01a
Revises: identity01base
Create Date: 2026-11-28 16:50:00
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "schedule01a"
down_revision = "identity01base"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "time_slot",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(length=4), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("offered_by_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("side IN ('home', 'away')", name=op.f("ck_time_slot_side_known")),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], name=op.f("fk_time_slot_match_id_match")),
        sa.ForeignKeyConstraint(["offered_by_id"], ["user.id"], name=op.f("fk_time_slot_offered_by_id_user")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_time_slot")),
        sa.UniqueConstraint("match_id", "side", "starts_at", name=op.f("uq_time_slot_match_id_side_starts_at")),
    )
    op.create_index(op.f("ix_time_slot_match_id"), "time_slot", ["match_id"])
    op.create_index(op.f("ix_time_slot_offered_by_id"), "time_slot", ["offered_by_id"])
    op.create_table(
        "reminder_sent",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('time', 'pregame', 'report')", name=op.f("ck_reminder_sent_kind_known")),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], name=op.f("fk_reminder_sent_match_id_match")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reminder_sent")),
        sa.UniqueConstraint("match_id", "kind", name=op.f("uq_reminder_sent_match_id_kind")),
    )
    op.create_index(op.f("ix_reminder_sent_match_id"), "reminder_sent", ["match_id"])
    with op.batch_alter_table("match") as batch:
        batch.add_column(sa.Column("kickoff_at", sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table("match") as batch:
        batch.drop_column("kickoff_at")
    op.drop_index(op.f("ix_reminder_sent_match_id"), table_name="reminder_sent")
    op.drop_table("reminder_sent")
    op.drop_index(op.f("ix_time_slot_offered_by_id"), table_name="time_slot")
    op.drop_index(op.f("ix_time_slot_match_id"), table_name="time_slot")
    op.drop_table("time_slot")
