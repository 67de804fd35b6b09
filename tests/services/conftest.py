import pytest


@pytest.fixture(autouse=True)
def _app_context(app):
    """Every service test runs inside the app with a fresh database."""
    return app
