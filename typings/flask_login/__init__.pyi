from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar

from flask import Flask

_F = TypeVar("_F", bound=Callable[..., Any])

class UserMixin:
    @property
    def is_active(self) -> bool: ...
    @property
    def is_authenticated(self) -> bool: ...
    @property
    def is_anonymous(self) -> bool: ...
    def get_id(self) -> str: ...

class LoginManager:
    login_view: str | None
    login_message_category: str
    def __init__(self, app: Flask | None = None, add_context_processor: bool = True) -> None: ...
    def init_app(self, app: Flask, add_context_processor: bool = True) -> None: ...
    def user_loader(self, callback: _F) -> _F: ...

# A proxy to the signed-in User or to an anonymous user: no single type fits both.
current_user: Any

def login_required(func: _F) -> _F: ...
def login_user(
    user: UserMixin,
    remember: bool = False,
    duration: timedelta | None = None,
    force: bool = False,
    fresh: bool = True,
) -> bool: ...
def logout_user() -> bool: ...
