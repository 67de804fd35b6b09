"""data revision: a token every committed write changes (the league pages' cache key)

Revision ID: 5d2e8a41c7b9
Revises: 8e26c0b986b0
Create Date: 2026-11-23 22:20:00.000000

One row; the league pages rendered at one token are served from memory until a
write sets another (league/models/revision.py).
"""

import secrets

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "5d2e8a41c7b9"
down_revision = "8e26c0b986b0"
branch_labels = None
depends_on = None


def upgrade():
    table = op.create_table(
        "data_revision",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("token", sa.String(length=32), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_data_revision")),
    )
    op.bulk_insert(table, [{"id": 1, "token": secrets.token_hex(16)}])


def downgrade():
    op.drop_table("data_revision")
