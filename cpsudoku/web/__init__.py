"""The play page: a local web server (JSON API + static page) over the Python API."""

from .app import create_app
from .server import serve

__all__ = ["create_app", "serve"]
