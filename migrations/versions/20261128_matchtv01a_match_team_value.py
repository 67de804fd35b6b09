"""a match side keeps the team value the team took the field with, for the team value chart

Revision ID: matchtv01a
Revises: champion01a
Create Date: 2026-11-28 20:10:00

Results recorded before this keep none (NULL): the roster has changed since, so the value
a team played with then cannot be rebuilt. The chart shows their pre-game's CTV instead,
where they had a pre-game.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "matchtv01a"
down_revision = "champion01a"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("match_team") as batch:
        batch.add_column(sa.Column("team_value", sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table("match_team") as batch:
        batch.drop_column("team_value")
