"""voided fixtures replayed, winnings inputs and expensive mistakes dice

Voiding a fixture's result schedules the fixture again (`replaces_id`) and
keeps who voided it and when. A side keeps whether its winnings were typed and
the formula's inputs, so a correction recomputes what was computed, and the
dice behind its Expensive Mistakes. Results stored before this revision kept
neither: their winnings count as typed, so a correction leaves them as they are.

Revision ID: ccc6de438016
Revises: 3f1c9a7b2d10
Create Date: 2026-11-23 19:17:56.615144

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'ccc6de438016'
down_revision = '3f1c9a7b2d10'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.add_column(sa.Column('voided_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('voided_by_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('replaces_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_match_voided_by_id'), ['voided_by_id'], unique=False)
        batch_op.create_unique_constraint(batch_op.f('uq_match_replaces_id'), ['replaces_id'])
        batch_op.create_foreign_key(batch_op.f('fk_match_replaces_id_match'), 'match', ['replaces_id'], ['id'])
        batch_op.create_foreign_key(batch_op.f('fk_match_voided_by_id_user'), 'user', ['voided_by_id'], ['id'])

    with op.batch_alter_table('match_team', schema=None) as batch_op:
        batch_op.add_column(sa.Column('winnings_entered', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('winnings_d6', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('fame', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('stalled', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('mistake_treasury', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('mistake_d6', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('mistake_roll', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('mistake_dice', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('mistake_rolled', sa.Boolean(), server_default=sa.false(), nullable=False))

    op.execute(sa.text('UPDATE match_team SET winnings_entered = true'))


def downgrade():
    with op.batch_alter_table('match_team', schema=None) as batch_op:
        batch_op.drop_column('mistake_rolled')
        batch_op.drop_column('mistake_dice')
        batch_op.drop_column('mistake_roll')
        batch_op.drop_column('mistake_d6')
        batch_op.drop_column('mistake_treasury')
        batch_op.drop_column('stalled')
        batch_op.drop_column('fame')
        batch_op.drop_column('winnings_d6')
        batch_op.drop_column('winnings_entered')

    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_match_voided_by_id_user'), type_='foreignkey')
        batch_op.drop_constraint(batch_op.f('fk_match_replaces_id_match'), type_='foreignkey')
        batch_op.drop_constraint(batch_op.f('uq_match_replaces_id'), type_='unique')
        batch_op.drop_index(batch_op.f('ix_match_voided_by_id'))
        batch_op.drop_column('replaces_id')
        batch_op.drop_column('voided_by_id')
        batch_op.drop_column('voided_at')
