"""The Discord secrets: the bot token encrypted at rest (Fernet, DISCORD_TOKEN_KEY), and the
Ed25519 signature Discord puts on every interaction it sends."""

from __future__ import annotations

from cryptography.exceptions import InvalidSignature
from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from flask import current_app


def _cipher() -> Fernet:
    # create_app settles the key (league.config.settle_discord_token_key).
    return Fernet(str(current_app.config["DISCORD_TOKEN_KEY"]))


def encrypt_token(token: str) -> str:
    return _cipher().encrypt(token.encode()).decode("ascii")


def decrypt_token(stored: str) -> str | None:
    """The bot token, or None when it cannot be read (the key changed: enter it again)."""
    try:
        return _cipher().decrypt(stored.encode("ascii")).decode()
    except InvalidToken:
        return None


def is_public_key(text: str) -> bool:
    """An Ed25519 public key as Discord shows it: 64 hex digits."""
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(text))
    except ValueError:
        return False
    return True


def signature_valid(public_key: str, signature: str, timestamp: str, body: bytes) -> bool:
    """Whether `signature` (hex) signs timestamp + body with the key (hex)."""
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key))
        key.verify(bytes.fromhex(signature), timestamp.encode() + body)
    except (ValueError, InvalidSignature):
        return False
    return True
