"""languages of users and leagues

Revision ID: 155d01332505
Revises: 5d2e8a41c7b9
Create Date: 2026-11-24 01:02:49.415058

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '155d01332505'
down_revision = '5d2e8a41c7b9'
branch_labels = None
depends_on = None

LANGUAGES = "('en', 'fr', 'de', 'es', 'it')"


def upgrade():
    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.add_column(sa.Column('default_language', sa.String(length=5), server_default='en', nullable=False))
        batch_op.create_check_constraint('default_language_known', f"default_language IN {LANGUAGES}")

    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=5), nullable=True))
        batch_op.create_check_constraint('language_known', f"language IS NULL OR language IN {LANGUAGES}")


def downgrade():
    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_user_language_known'), type_='check')
        batch_op.drop_column('language')

    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_league_default_language_known'), type_='check')
        batch_op.drop_column('default_language')
