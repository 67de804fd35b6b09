"""re-draft: new hires and rest and recovery rolls

Revision ID: 7a3c9e51d2f4
Revises: cdd5fb4b2baf
Create Date: 2026-11-24 02:00:00.000000

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "7a3c9e51d2f4"
down_revision = "cdd5fb4b2baf"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("redraft", schema=None) as batch_op:
        batch_op.add_column(sa.Column("hires", sa.JSON(), server_default="[]", nullable=False))
        batch_op.add_column(sa.Column("recovery", sa.JSON(), server_default="[]", nullable=False))


def downgrade():
    with op.batch_alter_table("redraft", schema=None) as batch_op:
        batch_op.drop_column("recovery")
        batch_op.drop_column("hires")
