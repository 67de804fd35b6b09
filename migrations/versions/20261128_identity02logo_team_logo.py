"""a team's logo: the key of its files on disk

Revision ID: identity02logo
Revises: dayof01a
Create Date: 2026-11-28 17:00:00
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "identity02logo"
down_revision = "dayof01a"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("team") as batch:
        batch.add_column(sa.Column("logo_key", sa.String(length=80), nullable=True))


def downgrade():
    with op.batch_alter_table("team") as batch:
        batch.drop_column("logo_key")
