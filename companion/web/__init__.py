"""The companion's web pages: the public table, the desktop simulation, the game list.

``create_app(companion)`` builds the Flask app around a ``companion.table.service.Companion``;
``Server`` runs it under waitress. The pages are plain HTML, CSS and JavaScript
from ``static/`` (no build step, nothing fetched from the internet: the Pi has none).
"""

from .app import create_app
from .server import Server

__all__ = ["create_app", "Server"]
