"""members: a league's owner; teams left without a coach

Revision ID: members01a2b3
Revises: 7a3c9e51d2f4
Create Date: 2026-11-28 10:50:00.000000

A league's owner is its creator (or whom he handed it to): filled in from the
first member still a commissioner (the creator is a league's first member), else
the first member. A team whose coach was removed may be left without a coach
(`coachless_since`): then only commissioners act on it.
"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "members01a2b3"
down_revision = "7a3c9e51d2f4"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("league", schema=None) as batch_op:
        batch_op.add_column(sa.Column("owner_id", sa.Integer(), nullable=True))
    op.execute(
        """
        UPDATE league SET owner_id = (
            SELECT m.user_id FROM league_member m WHERE m.league_id = league.id
            ORDER BY CASE WHEN m.role = 'commissioner' AND m.removed_at IS NULL THEN 0 ELSE 1 END,
                     m.id
            LIMIT 1
        )
        """
    )
    with op.batch_alter_table("league", schema=None) as batch_op:
        batch_op.alter_column("owner_id", existing_type=sa.Integer(), nullable=False)
        batch_op.create_index(batch_op.f("ix_league_owner_id"), ["owner_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_league_owner_id_user"), "user", ["owner_id"], ["id"]
        )

    with op.batch_alter_table("team", schema=None) as batch_op:
        batch_op.add_column(sa.Column("coachless_since", sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table("team", schema=None) as batch_op:
        batch_op.drop_column("coachless_since")

    with op.batch_alter_table("league", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_league_owner_id_user"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_league_owner_id"))
        batch_op.drop_column("owner_id")
