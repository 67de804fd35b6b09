"""a team's stored coin toss, for the tie-breaker ``coin_toss``

Revision ID: tiebreaks01a
Revises: entries01a
Create Date: 2026-11-28 17:00:00
"""
import random

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "tiebreaks01a"
down_revision = "entries01a"
branch_labels = None
depends_on = None

#: league.rules.competitions.COIN_TOSS_MAX, as it was when this migration was written.
COIN_TOSS_MAX = 999_999


def upgrade():
    with op.batch_alter_table("team") as batch:
        batch.add_column(sa.Column("coin_toss", sa.Integer(), nullable=True))
    # Every existing team gets its draw now (new teams get one when they are created).
    bind = op.get_bind()
    team = sa.table("team", sa.column("id", sa.Integer), sa.column("coin_toss", sa.Integer))
    rng = random.SystemRandom()
    for (team_id,) in bind.execute(sa.select(team.c.id)).all():
        bind.execute(
            team.update()
            .where(team.c.id == team_id)
            .values(coin_toss=rng.randint(0, COIN_TOSS_MAX))
        )


def downgrade():
    with op.batch_alter_table("team") as batch:
        batch.drop_column("coin_toss")
