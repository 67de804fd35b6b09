from collections.abc import Callable
from typing import Any, TypeVar

from flask import Blueprint, Flask
from werkzeug.exceptions import BadRequest

_V = TypeVar("_V", bound=Callable[..., Any] | Blueprint | str)

class CSRFError(BadRequest): ...

class CSRFProtect:
    def __init__(self, app: Flask | None = None) -> None: ...
    def init_app(self, app: Flask) -> None: ...
    def exempt(self, view: _V) -> _V: ...

def generate_csrf(secret_key: str | None = None, token_key: str | None = None) -> str: ...
def validate_csrf(
    data: str | None,
    secret_key: str | None = None,
    time_limit: int | None = None,
    token_key: str | None = None,
) -> None: ...
