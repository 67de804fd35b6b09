"""Advancement: GET /api/v1/players/<id>/advancement-options, POST and GET .../advancements.

Options (public) come from the advancement service's `options_for`: per kind the
SPP cost of the next advancement, the base value increase, whether the player
can take it now and the skills legal for it.

Buying (the team's coach, a commissioner or a site admin) answers:

- 201 `{"advancement": advancement, "player": player}` when the advancement is taken;
- 200 `{"pending_roll": {"kind", "category", "dice", "message"}, "player": player}`
  when the server rolled the dice (none were sent) and the result still needs the
  coach's choice (BB2025: which of the two rolled skills; a characteristic roll:
  which characteristic, or a skill instead). Nothing is bought yet, but the dice
  are kept on the player: repeat the call with the same `kind` (and `category`)
  plus the choice (`skill` or `characteristic`) and without `dice`; the kept dice
  are used, so they cannot be re-rolled. Until then any other dice-driven
  advancement is a 409 `roll_pending` (classic Star Player Rolls excepted: the one
  roll serves whichever kind the coach then takes from it). The options show the
  kept dice as `pending_roll`. The same 200 (with the reason in `message`) comes
  when dice the server has just rolled do not allow what was asked (a characteristic
  the roll does not give): they are kept all the same, and asking again for what
  they do not allow is a 422. Undoing an advancement puts its server dice back as
  `pending_roll`.

Errors: 400 `invalid_field` for a body of the wrong shape (unknown `kind`, `dice`
not a list of at most 4 integers, `characteristic` not one of ma/st/ag/pa/av);
401/403; 404; 409 (`roll_pending`, a player no longer on the roster); 422 with the
service's codes: `insufficient_spp`, `skill_not_allowed`, `already_has_skill`,
`max_advancements`, `characteristic_capped`, `invalid_dice` (also when the league
takes server dice only and dice were sent), `choice_required` (table dice that
leave a choice, sent without it), `field_not_taken` (a field the kind does not
take: a `category` on a chosen skill, `dice` where nothing is rolled, a
`characteristic` on a skill kind that rolls no characteristic).
"""

from __future__ import annotations

from typing import Any

from flask import g

from league.api import bp
from league.api.auth import token_required
from league.api.parsing import json_object
from league.api.schemas import (
    AdvancementListSchema,
    AdvancementOptionsSchema,
    AdvancementPendingSchema,
    AdvancementTakenSchema,
    NewAdvancementSchema,
)
from league.api.schemas.teams import player_line
from league.extensions import db
from league.rules import RANDOM_CHARACTERISTIC_KIND, AdvancementOption
from league.services.access import get_player
from league.services.advancement import (
    AdvancementRequest,
    PendingRoll,
    buy_advancement,
    options_for,
)
from league.services.unit_of_work import unit_of_work

PLAYER = "/players/<id:player_id>"


def _request(body: dict[str, Any]) -> AdvancementRequest:
    wanted = NewAdvancementSchema().load(body)
    dice = wanted.get("dice")
    return AdvancementRequest(
        kind=wanted["kind"],
        skill=wanted.get("skill"),
        category=wanted.get("category"),
        dice=None if dice is None else tuple(dice),
        characteristic=wanted.get("characteristic"),
    )


def _option_json(option: AdvancementOption, on_roster: bool) -> dict[str, Any]:
    refused = None if option.decision.allowed else option.decision.reasons[0].code
    result: dict[str, Any] = {
        "kind": option.kind,
        "cost": option.cost,
        "value_increase": option.value_increase,
        "affordable": option.decision.allowed and on_roster,
        "refused": refused,
        "skills": list(option.skills),
        "categories": list(option.categories),
    }
    if option.kind == RANDOM_CHARACTERISTIC_KIND:
        result["characteristic_value_increases"] = dict(option.characteristic_value_increases)
    return result


@bp.get(f"{PLAYER}/advancement-options")
def advancement_options(player_id: int) -> dict[str, Any]:
    """What the player may take next.

    `value_increase` is the base increase of a skill kind (an elite skill adds the
    ruleset's surcharge); the characteristic kind has null there and lists
    `characteristic_value_increases` instead. `refused` is the rules' reason code
    when the kind is not open now (e.g. `not_enough_spp`, `max_advancements`).
    Dice the server rolled that wait for the coach's choice show as `pending_roll`.
    ---
    get:
      tags: [Advancement]
      responses:
        200: AdvancementOptions
      errors:
        404: No such player.
    """
    player = get_player(db.session(), player_id)
    options = options_for(player)
    pending = player.pending_roll
    return AdvancementOptionsSchema.body(
        {
            "player_id": player.id,
            "available_spp": options.available_spp,
            "advancements_taken": options.advancements_taken,
            "next_advancement": options.next_advancement,
            "level": options.level,
            "must_spend": player.on_roster and options.must_spend,
            "pending_rolls": options.pending_rolls,
            "pending_roll": None
            if not pending
            else {
                "kind": pending.get("kind"),
                "category": pending.get("category"),
                "dice": list(pending.get("dice") or ()),
            },
            "options": [_option_json(option, player.on_roster) for option in options.options],
        }
    )


@bp.get(f"{PLAYER}/advancements")
def list_advancements(player_id: int) -> dict[str, Any]:
    """Every advancement the player took, undone ones included (`undone_at` set).
    ---
    get:
      tags: [Advancement]
      responses:
        200: AdvancementList
      errors:
        404: No such player.
    """
    player = get_player(db.session(), player_id)
    return AdvancementListSchema.body({"advancements": player.advancements})


@bp.post(f"{PLAYER}/advancements")
@token_required
def take_advancement(player_id: int) -> tuple[dict[str, Any], int]:
    """Take an advancement (the team's coach, a commissioner or a site admin).

    Chosen kinds name the `skill`. Random skill kinds name the `category` and
    give the `dice` rolled at the table (BB2020: `[d6, d6]`; BB2025: two pairs,
    `[d6, d6, d6, d6]`, plus the `skill` picked), or leave `dice` out for the
    server to roll. A characteristic advancement gives its roll (`[d16]` BB2020,
    `[d8]` BB2025) and names the `characteristic` picked.

    When the server rolled and the result still needs the coach's choice, the
    answer is 200 with `pending_roll` and nothing is bought: repeat the call with
    the same `kind` (and `category`) plus the choice, without `dice`.
    ---
    post:
      tags: [Advancement]
      requestBody: NewAdvancement
      responses:
        201: AdvancementTaken
        200: AdvancementPending
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller may not advance this team's players.
        404: No such player.
        409: "`roll_pending` (other dice wait for a choice), or the player is not on the roster."
        422: >-
          The rules refuse it: `insufficient_spp`, `skill_not_allowed`, `already_has_skill`,
          `max_advancements`, `characteristic_capped`, `invalid_dice`, `choice_required`,
          `field_not_taken` (a field the kind does not take, e.g. a chosen skill's `category`).
    """
    command = _request(json_object())
    with unit_of_work() as session:
        result = buy_advancement(session, g.api_user, player_id, command)
        if isinstance(result, PendingRoll):
            pending = result.player.pending_roll or {}
            body = AdvancementPendingSchema.body(
                {
                    "pending_roll": {
                        "kind": pending.get("kind", command.kind),
                        "category": pending.get("category", command.category),
                        "dice": list(result.dice),
                        "message": result.message,
                    },
                    "player": player_line(result.player),
                }
            )
            status = 200  # nothing created yet: the dice wait for the coach's choice
        else:
            body = AdvancementTakenSchema.body(
                {"advancement": result, "player": player_line(result.player)}
            )
            status = 201
    return body, status
