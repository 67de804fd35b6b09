"""tournament entries: a team's club or nation, seed rating, late entry and drop; a
league's Swiss pairing settings

Revision ID: entries01a
Revises: schedule01a
Create Date: 2026-11-28 17:00:00
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "entries01a"
down_revision = "schedule01a"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("team") as batch:
        batch.add_column(sa.Column("club", sa.String(length=60), nullable=True))
        batch.add_column(sa.Column("seed_rating", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("entered_round", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("dropped_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("dropped_after_round", sa.Integer(), nullable=True))
        batch.create_check_constraint(
            "seed_rating_not_negative", "seed_rating IS NULL OR seed_rating >= 0"
        )
    with op.batch_alter_table("league") as batch:
        batch.add_column(
            sa.Column(
                "pairing_avoid_same_club", sa.Boolean(), nullable=False, server_default=sa.true()
            )
        )
        batch.add_column(
            sa.Column(
                "pairing_first_round", sa.String(length=10), nullable=False, server_default="random"
            )
        )
        batch.create_check_constraint(
            "first_round_known", "pairing_first_round IN ('random', 'rating', 'manual')"
        )


def downgrade():
    with op.batch_alter_table("league") as batch:
        batch.drop_constraint("first_round_known", type_="check")
        batch.drop_column("pairing_first_round")
        batch.drop_column("pairing_avoid_same_club")
    with op.batch_alter_table("team") as batch:
        batch.drop_constraint("seed_rating_not_negative", type_="check")
        batch.drop_column("dropped_after_round")
        batch.drop_column("dropped_at")
        batch.drop_column("entered_round")
        batch.drop_column("seed_rating")
        batch.drop_column("club")
