"""a league's Discord application, Discord users linked to accounts, link tokens, the
interaction signatures already answered, the reminders posted, and the times coaches
offer for a fixture

Revision ID: discord01a
Revises: identity01base
Create Date: 2026-11-28 17:00:00
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "discord01a"
down_revision = "identity01base"
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
    op.create_table(
        "fixture_slot",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("accepted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], name=op.f("fk_fixture_slot_match_id_match")),
        sa.ForeignKeyConstraint(["team_id"], ["team.id"], name=op.f("fk_fixture_slot_team_id_team")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fixture_slot")),
        sa.UniqueConstraint(
            "match_id", "team_id", "starts_at", name=op.f("uq_fixture_slot_match_id_team_id_starts_at")
        ),
    )
    with op.batch_alter_table("fixture_slot") as batch:
        batch.create_index(batch.f("ix_fixture_slot_match_id"), ["match_id"], unique=False)
        batch.create_index(batch.f("ix_fixture_slot_team_id"), ["team_id"], unique=False)
    op.create_table(
        "discord_reminder",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_discord_reminder_match_id_match")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_discord_reminder")),
        sa.UniqueConstraint("match_id", "kind", name=op.f("uq_discord_reminder_match_id_kind")),
    )
    with op.batch_alter_table("discord_reminder") as batch:
        batch.create_index(batch.f("ix_discord_reminder_match_id"), ["match_id"], unique=False)


def downgrade():
    with op.batch_alter_table("discord_reminder") as batch:
        batch.drop_index(batch.f("ix_discord_reminder_match_id"))
    op.drop_table("discord_reminder")
    with op.batch_alter_table("fixture_slot") as batch:
        batch.drop_index(batch.f("ix_fixture_slot_team_id"))
        batch.drop_index(batch.f("ix_fixture_slot_match_id"))
    op.drop_table("fixture_slot")
    with op.batch_alter_table("discord_interaction_seen") as batch:
        batch.drop_index(batch.f("ix_discord_interaction_seen_seen_at"))
    op.drop_table("discord_interaction_seen")
    op.drop_table("discord_link_token")
    op.drop_table("discord_link")
    op.drop_table("discord_connection")
