"""the NAF name and number on a user's profile, and a team's two colours

Revision ID: identity01base
Revises: livelog01a2b3
Create Date: 2026-11-28 16:40:00
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "identity01base"
down_revision = "livelog01a2b3"
branch_labels = None
depends_on = None

HEX = "{column} IS NULL OR (length({column}) = 7 AND substr({column}, 1, 1) = '#')"


def upgrade():
    with op.batch_alter_table("user") as batch:
        batch.add_column(sa.Column("naf_name", sa.String(length=60), nullable=True))
        batch.add_column(sa.Column("naf_number", sa.Integer(), nullable=True))
        batch.create_check_constraint("naf_number_positive", "naf_number IS NULL OR naf_number > 0")
    with op.batch_alter_table("team") as batch:
        batch.add_column(sa.Column("primary_colour", sa.String(length=7), nullable=True))
        batch.add_column(sa.Column("secondary_colour", sa.String(length=7), nullable=True))
        batch.create_check_constraint("primary_colour_hex", HEX.format(column="primary_colour"))
        batch.create_check_constraint("secondary_colour_hex", HEX.format(column="secondary_colour"))


def downgrade():
    with op.batch_alter_table("team") as batch:
        batch.drop_constraint("secondary_colour_hex", type_="check")
        batch.drop_constraint("primary_colour_hex", type_="check")
        batch.drop_column("secondary_colour")
        batch.drop_column("primary_colour")
    with op.batch_alter_table("user") as batch:
        batch.drop_constraint("naf_number_positive", type_="check")
        batch.drop_column("naf_number")
        batch.drop_column("naf_name")
