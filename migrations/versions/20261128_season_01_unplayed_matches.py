"""season: matches a closed season left unplayed

Revision ID: season_01_unplayed
Revises: lead5e450n01
Create Date: 2026-11-28 11:00:00

Closing a season may mark the matches still waiting for a result "unplayed";
reopening it schedules them again. Only the CHECK on match.state changes.
"""
from alembic import op


# revision identifiers, used by Alembic.
revision = "season_01_unplayed"
down_revision = "lead5e450n01"
branch_labels = None
depends_on = None

BEFORE = "state IN ('scheduled', 'draft', 'played', 'voided')"
AFTER = "state IN ('scheduled', 'draft', 'played', 'voided', 'unplayed')"


def upgrade():
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_match_state_known"), type_="check")
        batch_op.create_check_constraint("state_known", AFTER)


def downgrade():
    op.execute("UPDATE match SET state = 'scheduled' WHERE state = 'unplayed'")
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_match_state_known"), type_="check")
        batch_op.create_check_constraint("state_known", BEFORE)
