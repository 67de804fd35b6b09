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
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from flask import Flask, current_app, request, session
from flask_login import current_user
from werkzeug.wrappers import Response

from league.extensions import db
from league.models.revision import current_revision

#: Rendered bodies kept per process (a roster page is some 40 KB).
MAX_PAGES = 512


class PageCache:
    """A small thread-safe LRU: key -> (etag, body)."""

    def __init__(self, size: int = MAX_PAGES) -> None:
        self.size = size
        self._pages: OrderedDict[str, tuple[str, bytes]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str, etag: str) -> bytes | None:
        with self._lock:
            found = self._pages.get(key)
            if found is None or found[0] != etag:
                return None
            self._pages.move_to_end(key)
            return found[1]

    def put(self, key: str, etag: str, body: bytes) -> None:
        with self._lock:
            self._pages[key] = (etag, body)
            self._pages.move_to_end(key)
            while len(self._pages) > self.size:
                self._pages.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()


pages = PageCache()


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


def revision_cached(render: Callable[[], str]) -> Response | str:
    """A page that may show anything stored: cached until the next write, for signed-out
    visitors (keyed on the path and query string); rendered as usual for everyone else."""
    if anonymous_and_plain():
        version = current_revision(db.session())
        if version is not None:
            return cached_response(f"page:{request.full_path}", version, render)
    return render()


def register_caching(app: Flask, language_key: Callable[[], str] | None = None) -> None:
    if language_key is not None:
        app.extensions[LANGUAGE_KEY] = language_key

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
