"""tournament day: roster and correction deadlines, a team's roster approval

Revision ID: dayof01a
Revises: tiebreaks01a
Create Date: 2026-11-28 16:40:00
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "dayof01a"
down_revision = "tiebreaks01a"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("league") as batch:
        batch.add_column(sa.Column("roster_deadline", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(
            sa.Column("correction_deadline", sa.DateTime(timezone=True), nullable=True)
        )
    with op.batch_alter_table("team") as batch:
        batch.add_column(
            sa.Column(
                "roster_state", sa.String(length=10), nullable=False, server_default="open"
            )
        )
        batch.add_column(sa.Column("roster_state_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("roster_note", sa.String(length=500), nullable=True))
        batch.create_check_constraint(
            "roster_state_known", "roster_state IN ('open', 'submitted', 'approved', 'returned')"
        )


def downgrade():
    with op.batch_alter_table("team") as batch:
        batch.drop_constraint("roster_state_known", type_="check")
        batch.drop_column("roster_note")
        batch.drop_column("roster_state_at")
        batch.drop_column("roster_state")
    with op.batch_alter_table("league") as batch:
        batch.drop_column("correction_deadline")
        batch.drop_column("roster_deadline")
