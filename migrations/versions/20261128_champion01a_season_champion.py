"""a closed season keeps its champion (the first of its final table), for the records

Revision ID: champion01a
Revises: discord01a
Create Date: 2026-11-28 17:40:00

Seasons closed before this keep none: their final table still names the first.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "champion01a"
down_revision = "discord01a"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("season") as batch:
        batch.add_column(sa.Column("champion_team_id", sa.Integer(), nullable=True))
        batch.create_index(batch.f("ix_season_champion_team_id"), ["champion_team_id"], unique=False)
        batch.create_foreign_key(
            batch.f("fk_season_champion_team_id_team"), "team", ["champion_team_id"], ["id"]
        )


def downgrade():
    with op.batch_alter_table("season") as batch:
        batch.drop_constraint(batch.f("fk_season_champion_team_id_team"), type_="foreignkey")
        batch.drop_index(batch.f("ix_season_champion_team_id"))
        batch.drop_column("champion_team_id")
