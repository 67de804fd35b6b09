"""a league's Discord application, Discord users linked to accounts, link tokens, the
interaction signatures already answered, the reminders posted, and the times coaches
offer for a fixture

Revision ID: discord01a
Revises: identity02logo
Create Date: 2026-11-28 17:00:00
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "discord01a"
down_revision = "identity02logo"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "discord_connection",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("application_id", sa.String(length=25), nullable=False),
        sa.Column("public_key", sa.String(length=64), nullable=False),
        sa.Column("bot_token_encrypted", sa.Text(), nullable=False),
        sa.Column("guild_id", sa.String(length=25), nullable=False),
        sa.Column("channel_id", sa.String(length=25), nullable=False),
        sa.Column("commands_registered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["league_id"], ["league.id"], name=op.f("fk_discord_connection_league_id_league")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_discord_connection")),
        sa.UniqueConstraint("application_id", name=op.f("uq_discord_connection_application_id")),
        sa.UniqueConstraint("league_id", name=op.f("uq_discord_connection_league_id")),
    )
    op.create_table(
        "discord_link",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("discord_user_id", sa.String(length=25), nullable=False),
        sa.Column("discord_name", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"], name=op.f("fk_discord_link_user_id_user")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_discord_link")),
        sa.UniqueConstraint("discord_user_id", name=op.f("uq_discord_link_discord_user_id")),
        sa.UniqueConstraint("user_id", name=op.f("uq_discord_link_user_id")),
    )
    op.create_table(
        "discord_link_token",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("discord_user_id", sa.String(length=25), nullable=False),
        sa.Column("discord_name", sa.String(length=100), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_discord_link_token")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_discord_link_token_token_hash")),
    )
    op.create_table(
        "discord_interaction_seen",
        sa.Column("signature_hash", sa.String(length=64), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("signature_hash", name=op.f("pk_discord_interaction_seen")),
    )
    with op.batch_alter_table("discord_interaction_seen") as batch:
        batch.create_index(
            batch.f("ix_discord_interaction_seen_seen_at"), ["seen_at"], unique=False
        )


def downgrade():
    with op.batch_alter_table("discord_interaction_seen") as batch:
        batch.drop_index(batch.f("ix_discord_interaction_seen_seen_at"))
    op.drop_table("discord_interaction_seen")
    op.drop_table("discord_link_token")
    op.drop_table("discord_link")
    op.drop_table("discord_connection")
