"""season.schedule: how a season's league fixtures were first scheduled

Revision ID: lead5e450n01
Revises: money26a1b2c3
Create Date: 2026-11-28 12:00:00.000000

"round_robin" when they were generated, "swiss" when paired round by round; the
fixtures page offers the Swiss pairing only in a season that is not a round robin.
Existing seasons take it from the first scheduling step in the audit log.
"""
import json

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "lead5e450n01"
down_revision = "money26a1b2c3"
branch_labels = None
depends_on = None

KINDS = {"fixtures.generate": "round_robin", "league.swiss_round": "swiss"}


def upgrade():
    with op.batch_alter_table("season", schema=None) as batch_op:
        batch_op.add_column(sa.Column("schedule", sa.String(length=12), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(
        sa.text(
            "SELECT entity_id, action, detail FROM audit_log WHERE entity_type = 'league' "
            "AND action IN ('fixtures.generate', 'league.swiss_round') ORDER BY id"
        )
    )
    first = {}
    for league_id, action, detail in rows:
        if isinstance(detail, str):
            detail = json.loads(detail)
        number = (detail or {}).get("season")
        if number is not None:
            first.setdefault((league_id, number), KINDS[action])
    for (league_id, number), kind in first.items():
        connection.execute(
            sa.text(
                "UPDATE season SET schedule = :kind WHERE league_id = :league AND number = :number"
            ),
            {"kind": kind, "league": league_id, "number": number},
        )


def downgrade():
    with op.batch_alter_table("season", schema=None) as batch_op:
        batch_op.drop_column("schedule")
