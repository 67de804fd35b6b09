"""money: a conceding team's Dedicated Fans loss (D3) and the server's roll of it

Revision ID: money26a1b2c3
Revises: members01a2b3
Create Date: 2026-11-28 11:00:00.000000

A team that concedes loses D3 Dedicated Fans (BB2020/BB2025), so a side's
fans_change now runs from -3 to +1. concession_fans_roll keeps the D3 the
server rolled for it (null: the table's roll was entered, or no concession), so
a correction does not roll again. Downgrading brings larger losses back to -1.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "money26a1b2c3"
down_revision = "members01a2b3"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("match_team", schema=None) as batch_op:
        batch_op.add_column(sa.Column("concession_fans_roll", sa.Integer(), nullable=True))
        batch_op.drop_constraint(op.f("ck_match_team_fans_change_range"), type_="check")
        batch_op.create_check_constraint("fans_change_range", "fans_change BETWEEN -3 AND 1")


def downgrade():
    op.execute("UPDATE match_team SET fans_change = -1 WHERE fans_change < -1")
    with op.batch_alter_table("match_team", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_match_team_fans_change_range"), type_="check")
        batch_op.create_check_constraint("fans_change_range", "fans_change BETWEEN -1 AND 1")
        batch_op.drop_column("concession_fans_roll")
