"""match-day players and inducements in the ledger

Revision ID: c63f22444a9a
Revises: 155d01332505
Create Date: 2026-11-24 01:18:08.273910

A pre-game's journeymen, mercenaries and star players are players of the team
with a status of their own (off the roster) and the match they were taken on
for; the treasury a side spent on inducements is booked as a ledger row of kind
'inducements' on that match when the result is finalised. A side keeps BB2025's
MVP draw and a conceding team's departure rolls.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c63f22444a9a'
down_revision = "155d01332505"
branch_labels = None
depends_on = None

STATUSES_BEFORE = "'active', 'mng', 'dead', 'retired', 'fired'"
STATUSES = STATUSES_BEFORE + ", 'journeyman', 'mercenary', 'star'"
KINDS_BEFORE = (
    "'starting', 'hire', 'purchase', 'winnings', 'mistake', 'correction', 'adjustment', "
    "'refund', 'prize', 'redraft'"
)
KINDS = KINDS_BEFORE + ", 'inducements'"


def upgrade():
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('match_day_match_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_player_match_day_match_id'), ['match_day_match_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_player_match_day_match_id_match'), 'match', ['match_day_match_id'], ['id'])
        batch_op.drop_constraint(op.f('ck_player_status_known'), type_='check')
        batch_op.create_check_constraint('status_known', f"status IN ({STATUSES})")

    with op.batch_alter_table('treasury_entry', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_treasury_entry_kind_known'), type_='check')
        batch_op.create_check_constraint('kind_known', f"kind IN ({KINDS})")

    with op.batch_alter_table('match_team', schema=None) as batch_op:
        batch_op.add_column(sa.Column('mvp_draw', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('departures', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('match_team', schema=None) as batch_op:
        batch_op.drop_column('departures')
        batch_op.drop_column('mvp_draw')

    with op.batch_alter_table('treasury_entry', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_treasury_entry_kind_known'), type_='check')
        batch_op.create_check_constraint('kind_known', f"kind IN ({KINDS_BEFORE})")

    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_player_status_known'), type_='check')
        batch_op.create_check_constraint('status_known', f"status IN ({STATUSES_BEFORE})")
        batch_op.drop_constraint(batch_op.f('fk_player_match_day_match_id_match'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_player_match_day_match_id'))
        batch_op.drop_column('match_day_match_id')
