"""user session secret

The session and "remember me" cookies carry a per-user random secret instead
of the user id; replacing the secret (log-out, password change, "log out
everywhere") ends every session signed in with the old one. Existing users get
a random secret each.

Revision ID: 3f1c9a7b2d10
Revises: 0b5c49b3ed5f
Create Date: 2026-11-23 19:40:00.000000

"""
import secrets

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '3f1c9a7b2d10'
down_revision = '0b5c49b3ed5f'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_secret', sa.String(length=64), nullable=True))

    user = sa.table('user', sa.column('id', sa.Integer), sa.column('session_secret', sa.String))
    connection = op.get_bind()
    for (user_id,) in connection.execute(sa.select(user.c.id)).all():
        connection.execute(
            user.update()
            .where(user.c.id == user_id)
            .values(session_secret=secrets.token_urlsafe(32))
        )

    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.alter_column('session_secret', existing_type=sa.String(length=64), nullable=False)
        batch_op.create_unique_constraint(batch_op.f('uq_user_session_secret'), ['session_secret'])


def downgrade():
    with op.batch_alter_table('user', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_user_session_secret'), type_='unique')
        batch_op.drop_column('session_secret')
