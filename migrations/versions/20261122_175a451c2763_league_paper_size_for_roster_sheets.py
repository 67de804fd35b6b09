"""league paper size for roster sheets

A league picks the paper its roster sheets and league pack print on (A4 or US
Letter); existing leagues keep A4.

Revision ID: 175a451c2763
Revises: 644afb5a04cc
Create Date: 2026-11-22 09:04:59.770125

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '175a451c2763'
down_revision = '644afb5a04cc'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.add_column(sa.Column('paper_size', sa.String(length=10), server_default='a4', nullable=False))
        batch_op.create_check_constraint('paper_size_known', "paper_size IN ('a4', 'letter')")


def downgrade():
    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_league_paper_size_known'), type_='check')
        batch_op.drop_column('paper_size')
