"""The webhooks page of a league's settings: register, edit, resume, delete (asks first)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import current_user, login_required
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from league.extensions import db
from league.i18n import gettext
from league.models import League, Webhook
from league.services import webhooks
from league.services.errors import DomainError
from league.services.unit_of_work import unit_of_work
from league.services.webhooks import WebhookSettings
from league.web.forms import EmptyForm
from league.web.forms.webhooks import EVENT_LABELS, DeleteWebhookForm, WebhookForm
from league.web.helpers import commissioners_league, populate_errors, post_step

bp = Blueprint("webhooks", __name__)


def _webhook_for_commissioner(webhook_id: int) -> Webhook:
    """The webhook, for a commissioner of its league (the service's 404 or 403 page else)."""
    return webhooks.get_webhook(db.session(), current_user, webhook_id)


def _save(form: WebhookForm, save: Callable[[Session, WebhookSettings], Webhook]) -> Webhook | None:
    """Validate `form` and call `save(session, settings)`; None when the form has errors."""
    if not form.validate_on_submit():
        return None
    try:
        with unit_of_work() as session:
            saved_id = save(session, form.settings()).id
    except DomainError as error:
        populate_errors(form, error)  # a Forbidden goes on to its 403 page
        return None
    return db.session.get(Webhook, saved_id)


def _index(
    league: League, form: WebhookForm, *, new: Webhook | None = None, status: int = 200
) -> tuple[str, int]:
    hooks = webhooks.league_webhooks(db.session(), league)
    return (
        render_template(
            "webhooks/index.html",
            league=league,
            webhooks=hooks,
            deliveries={w.id: webhooks.recent_deliveries(db.session(), w) for w in hooks},
            labels={event: gettext(label) for event, label in EVENT_LABELS.items()},
            form=form,
            new=new,
            action_form=EmptyForm(),
            pause_after=webhooks.PAUSE_AFTER,
        ),
        status,
    )


@bp.route("/leagues/<int:league_id>/webhooks", methods=["GET", "POST"])
@login_required
def index(league_id: int) -> tuple[str, int]:
    league = commissioners_league(league_id, "webhooks")
    form = WebhookForm()
    created = _save(
        form,
        lambda session, settings: webhooks.create_webhook(
            session, current_user, league_id, settings
        ),
    )
    if created is not None:
        # Shown here and never again: no redirect, no flash (the session cookie is readable).
        return _index(league, WebhookForm(formdata=None), new=created, status=201)
    return _index(league, form, status=400 if form.errors or form.form_errors else 200)


@bp.route("/webhooks/<int:webhook_id>/edit", methods=["GET", "POST"])
@login_required
def edit(webhook_id: int) -> str | Response | tuple[str, int]:
    webhook = _webhook_for_commissioner(webhook_id)
    form = WebhookForm()
    if not form.is_submitted():
        form.fill_from(webhook.url, webhook.events, webhook.format)
    saved = _save(
        form,
        lambda session, settings: webhooks.update_webhook(
            session, current_user, webhook_id, settings
        ),
    )
    if saved is not None:
        flash(gettext("Webhook saved."), "success")
        return redirect(url_for("webhooks.index", league_id=saved.league_id))
    status = 400 if form.errors or form.form_errors else 200
    return render_template("webhooks/edit.html", webhook=webhook, form=form), status


@post_step(bp, "/webhooks/<int:webhook_id>/resume", "webhooks.edit")
@login_required
def resume(webhook_id: int) -> Response:
    webhook = _webhook_for_commissioner(webhook_id)
    league_id = webhook.league_id
    if not EmptyForm().validate_on_submit():
        abort(400)
    with unit_of_work() as session:
        webhooks.resume_webhook(session, current_user, webhook_id)
    flash(gettext("Webhook resumed; deliveries waiting for a retry go out again."), "success")
    return redirect(url_for("webhooks.index", league_id=league_id))


@post_step(bp, "/webhooks/<int:webhook_id>/test", "webhooks.edit")
@login_required
def send_test(webhook_id: int) -> Response:
    """Send a test message now; its delivery shows on the webhooks page with the answer."""
    webhook = _webhook_for_commissioner(webhook_id)
    league_id = webhook.league_id
    if not EmptyForm().validate_on_submit():
        abort(400)
    try:
        with unit_of_work() as session:
            webhooks.send_test(session, current_user, webhook_id)
    except DomainError as error:
        flash(error.message, "error")
    else:
        flash(gettext("Test message sent: its delivery is listed below."), "success")
    return redirect(url_for("webhooks.index", league_id=league_id, _anchor=f"webhook-{webhook_id}"))


@post_step(bp, "/webhooks/<int:webhook_id>/delete", "webhooks.edit")
@login_required
def delete(webhook_id: int) -> str | Response:
    webhook = _webhook_for_commissioner(webhook_id)
    league_id = webhook.league_id
    form = DeleteWebhookForm()
    if not form.validate_on_submit():
        abort(400)
    if not form.is_confirmed:
        return render_template(
            "teams/confirm.html",
            form=form,
            question=gettext("Delete this webhook?"),
            explanation=gettext(
                "%(url)s will not be told about %(league)s any more, and its deliveries are "
                "deleted with it.",
                url=webhook.url,
                league=webhook.league.name,
            ),
            button=gettext("Delete the webhook"),
            cancel_url=url_for("webhooks.index", league_id=league_id),
        )
    with unit_of_work() as session:
        webhooks.delete_webhook(session, current_user, webhook_id)
    flash(gettext("Webhook deleted."), "success")
    return redirect(url_for("webhooks.index", league_id=league_id))
