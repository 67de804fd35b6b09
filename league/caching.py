"""Conditional GETs (ETag, 304) and a rendered-response cache, shared by web and API.

Every public HTML page gets an ETag (a hash of the body) and answers
`If-None-Match` with 304 Not Modified, so a browser revalidating a page it has
does not download it again.

Responses whose content can be fingerprinted cheaply in the database (the team
roster page for anonymous visitors and the roster JSON:
`rosters.team_page_version`) do better: the fingerprint is the ETag, so a
304 needs no rendering at all, and the rendered body is kept in this process's
memory under that fingerprint. The cache holds no state of its own: every
request checks the fingerprint against the database, so what one app process
writes is seen by every other at once, and a process that has never rendered a
page just renders it.

The league pages (home, standings, fixtures, statistics) show a little of
everything in a league; their version is the data revision, a token every
committed write changes (`models.revision`): one primary-key read per visit.

Signed-in visitors share pages too (`shared_page`): the body is rendered once per
page, language and *variant* (what the viewer may do there: their role in the
league, whether they manage the team) with holes where a per-person value goes
(the CSRF token, a one-time form token, the user's name, a fixture's "enter
result" link that only its two coaches get), and the holes are filled in for
each request. So no token or name of one user is ever in the shared copy.
"""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Generic, TypeVar

from flask import Flask, current_app, g, request, session
from flask_login import current_user
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup, escape
from werkzeug.wrappers import Response

from league.extensions import db
from league.models.revision import current_revision

#: Rendered bodies kept per process (a roster page is some 40 KB).
MAX_PAGES = 512


Body = TypeVar("Body", bytes, str)


class PageCache(Generic[Body]):
    """A small thread-safe LRU: key -> (etag, body)."""

    def __init__(self, size: int = MAX_PAGES) -> None:
        self.size = size
        self._pages: OrderedDict[str, tuple[str, Body]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str, etag: str) -> Body | None:
        with self._lock:
            found = self._pages.get(key)
            if found is None or found[0] != etag:
                return None
            self._pages.move_to_end(key)
            return found[1]

    def put(self, key: str, etag: str, body: Body) -> None:
        with self._lock:
            self._pages[key] = (etag, body)
            self._pages.move_to_end(key)
            while len(self._pages) > self.size:
                self._pages.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()


pages: PageCache[bytes] = PageCache()
#: Signed-in page bodies, holes and all (`shared_page`).
shared_pages: PageCache[str] = PageCache()


def build_stamp() -> str:
    """Changes when the code, templates, static files or rules data change (a deploy).

    Part of every fingerprint ETag, so a browser's copy from before a deploy is
    not confirmed as current by the new code. The app's own folders are hashed:
    the `league` package (code and rules data), its templates and static files.
    """
    app = current_app
    folders = (app.root_path, app.template_folder or "templates", app.static_folder or "static")
    return stamp_of_files(tuple(Path(app.root_path, folder).resolve() for folder in folders))


@functools.cache
def stamp_of_files(folders: tuple[Path, ...]) -> str:
    """A hash of the names and contents of every file under `folders` (once per process).

    Contents, not modification times: every machine of a deploy gets the same stamp.
    """
    digest = hashlib.blake2b(digest_size=8)
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(f"{path.relative_to(folder)}\0".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def anonymous_and_plain() -> bool:
    """True when the page is the same for every visitor: a GET, signed out, no flash."""
    return (
        request.method in ("GET", "HEAD")
        and not current_user.is_authenticated
        and not session.get("_flashes")
    )


#: app.extensions key: the function giving the language part of a page's cache key.
LANGUAGE_KEY = "league.cache_language"


def cache_language() -> str:
    """The language part of a page's cache key (the web layer's selection, given to
    `register_caching`); without one every page is keyed alike."""
    language_key: Callable[[], str] | None = current_app.extensions.get(LANGUAGE_KEY)
    return language_key() if language_key is not None else "en"


def cached_response(
    key: str, version: str, render: Callable[[], str], mimetype: str = "text/html"
) -> Response:
    """The body `key` at `version`: 304, from the cache, or rendered and kept.

    An HTML page varies with the session cookie (signed-in visitors get forms) and
    is kept per language (`league.web.i18n.cache_language`); a JSON body is the
    same for every caller.
    """
    if mimetype == "text/html":
        # A page is in the reader's language: a German coach never gets a French copy.
        key = f"{key}|lang:{cache_language()}"
    etag = hashlib.blake2b(f"{key}|{version}|{build_stamp()}".encode(), digest_size=16).hexdigest()
    response = Response(mimetype=mimetype)
    response.set_etag(etag)
    response.cache_control.no_cache = True
    if mimetype == "text/html":
        response.vary.add("Cookie")
        response.vary.add("Accept-Language")
    if etag in request.if_none_match:
        response.status_code = 304
        return response
    body = pages.get(key, etag)
    if body is None:
        body = render().encode()
        pages.put(key, etag, body)
    response.set_data(body)
    return response.make_conditional(request)


def revision_cached(
    render: Callable[[], str], variant: Callable[[], str] | None = None
) -> Response | str:
    """A page that may show anything stored: cached until the next write (keyed on the
    path and query string), whole for signed-out visitors; with a `variant`, the body
    shared by the signed-in viewers of that variant (`shared_page`). Rendered as usual
    after a form post or with a flash message."""
    if anonymous_and_plain():
        version = current_revision(db.session())
        if version is not None:
            return cached_response(f"page:{request.full_path}", version, render)
    elif variant is not None and signed_in_and_plain():
        version = current_revision(db.session())
        if version is not None:
            return shared_page(variant(), version, render)
    return render()


def signed_in_and_plain() -> bool:
    """True for a signed-in visitor's GET without a flash message to show."""
    return (
        request.method in ("GET", "HEAD")
        and current_user.is_authenticated
        and not session.get("_flashes")
    )


#: Names the holes of a shared body: random per process (as the cache is), in characters
#: HTML escaping leaves alone, so a hole survives an attribute and no stored text can
#: imitate one.
_HOLE = f"hole{secrets.token_hex(8)}"
#: `g` attribute set while a shared body renders.
_SHARING = "league_shared_render"


#: The per-person values a shared body may hold, each made afresh for the request (plain
#: text, escaped where it goes): name -> how.
PERSONAL_VALUES: dict[str, Callable[[], str]] = {
    "csrf_token": generate_csrf,
    # OneTimeForm's token (league.web.forms): a fresh one per page shown, as before.
    "one_time_token": lambda: secrets.token_urlsafe(32),
    # Shared bodies are for signed-in visitors only.
    "username": lambda: current_user.username,
}
_CHOICE = re.compile(
    rf"<!--{_HOLE}:for ([0-9,]*)-->(.*?)<!--{_HOLE}:else-->(.*?)<!--{_HOLE}:end-->", re.DOTALL
)


def personal(name: str) -> Markup:
    """The per-person value `name` (a key of PERSONAL_VALUES); its hole in a shared body."""
    if g.get(_SHARING):
        return escape(f"{_HOLE}:{name}:")
    return escape(PERSONAL_VALUES[name]())


def only_for(user_ids: Collection[int | None], mine: Markup, others: Markup) -> Markup:
    """`mine` (HTML) for the users `user_ids`, `others` for everyone else; in a shared
    body both, for `shared_page` to choose per request."""
    if g.get(_SHARING):
        users = ",".join(str(user_id) for user_id in user_ids if user_id is not None)
        return Markup(
            "<!--{hole}:for {users}-->{mine}<!--{hole}:else-->{others}<!--{hole}:end-->"
        ).format(hole=_HOLE, users=users, mine=mine, others=others)
    signed_in = current_user.is_authenticated and current_user.id in user_ids
    return mine if signed_in else others


def _render_shared(render: Callable[[], str]) -> str:
    """`render()` with a hole wherever a per-person value goes."""
    # Flask-WTF renders every form's CSRF token from g; a token made before is kept aside.
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    own_token = g.pop(field, None)
    setattr(g, _SHARING, True)
    setattr(g, field, personal("csrf_token"))
    try:
        return render()
    finally:
        g.pop(_SHARING)
        g.pop(field)
        if own_token is not None:
            setattr(g, field, own_token)


def _fill_holes(body: str) -> str:
    user = str(current_user.id)
    body = _CHOICE.sub(lambda found: found[2] if user in found[1].split(",") else found[3], body)
    for name, value in PERSONAL_VALUES.items():
        hole = f"{_HOLE}:{name}:"
        if hole in body:
            body = body.replace(hole, str(escape(value())))
    return body


def shared_page(variant: str, version: str, render: Callable[[], str]) -> str:
    """A signed-in visitor's page at `version`: the body every viewer of this `variant`
    shares (rendered once with holes, kept per path and language), holes filled for them."""
    key = f"page:{request.full_path}|{variant}|lang:{cache_language()}"
    stamp = f"{version}|{build_stamp()}"
    body = shared_pages.get(key, stamp)
    if body is None:
        body = _render_shared(render)
        shared_pages.put(key, stamp, body)
    return _fill_holes(body)


def register_caching(app: Flask, language_key: Callable[[], str] | None = None) -> None:
    if language_key is not None:
        app.extensions[LANGUAGE_KEY] = language_key
    app.jinja_env.globals.update(personal=personal, only_for=only_for)

    @app.after_request
    def etag_for_pages(response: Response) -> Response:
        """ETag (hash of the body) and 304 for the HTML pages that have none yet."""
        if (
            request.method in ("GET", "HEAD")
            and response.status_code == 200
            and response.mimetype == "text/html"
            and not response.direct_passthrough
            and "ETag" not in response.headers
        ):
            response.add_etag()
            response.cache_control.no_cache = True
            return response.make_conditional(request)
        return response
