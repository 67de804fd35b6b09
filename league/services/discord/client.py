"""Calls to Discord's HTTP API: registering the slash commands, and editing a deferred
answer. The address is DISCORD_API_URL (the operator's setting, not an address a user
typed, so the webhooks' public-address check does not apply); redirects are never
followed, so the bot token goes to that address only, and it is never logged."""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from flask import current_app

log = logging.getLogger(__name__)

#: Seconds to wait for Discord (a job's follow-up, a commissioner's button).
TIMEOUT = 10.0
USER_AGENT = "DiscordBot (league-manager, 1)"


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    #: The start of the body (Discord's error message; never the request's headers).
    body: str = ""

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *_args: Any, **_kwargs: Any) -> None:
        return None


_opener = urllib.request.build_opener(_NoRedirect())


def api_url(path: str) -> str:
    return str(current_app.config["DISCORD_API_URL"]).rstrip("/") + path


def call(method: str, path: str, body: Any, *, bot_token: str | None = None) -> Answer:
    """`method` `path` with a JSON body; (status 0: Discord could not be reached)."""
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT}
    if bot_token is not None:
        headers["Authorization"] = f"Bot {bot_token}"
    url = api_url(path)
    if not url.startswith(("https://", "http://")):
        raise RuntimeError("DISCORD_API_URL must be an http(s) address")
    request = urllib.request.Request(  # noqa: S310 - http(s) only, checked above
        url, data=json.dumps(body).encode(), headers=headers, method=method
    )
    try:
        with _opener.open(request, timeout=TIMEOUT) as response:
            return Answer(response.status, response.read(2000).decode("utf-8", "replace"))
    except urllib.error.HTTPError as error:
        return Answer(error.code, error.read(2000).decode("utf-8", "replace"))
    except OSError as error:
        log.warning("Discord's API did not answer %s %s: %s", method, path.split("/")[1], error)
        return Answer(0, str(error)[:200])


def put_guild_commands(
    application_id: str, guild_id: str, bot_token: str, commands: list[dict[str, Any]]
) -> Answer:
    """Replace the application's commands in the guild (Discord's bulk overwrite)."""
    path = f"/applications/{application_id}/guilds/{guild_id}/commands"
    return call("PUT", path, commands, bot_token=bot_token)


def edit_original(application_id: str, interaction_token: str, message: dict[str, Any]) -> Answer:
    """Replace a deferred answer ("thinking...") with the message (the interaction's token
    authorises it for 15 minutes; no bot token)."""
    path = f"/webhooks/{application_id}/{interaction_token}/messages/@original"
    return call("PATCH", path, message)
