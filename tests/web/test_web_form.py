"""The new-game form says what each way of playing is, and how the Wind Spirit count works
(issue 11: the form listed the ways by name only)."""

from __future__ import annotations

from companion.rules.ways import WAYS
from web_helpers import app, client, companion  # noqa: F401 (fixtures)


def test_the_form_describes_the_way_and_the_wind_spirit_count(client):
    page = client.get("/").get_data(as_text=True)
    first = next(iter(WAYS.values()))
    assert f'<p id="ng-about" class="hint">{first.description}</p>' in page
    assert "this many\n      of them are Wind Spirit cards" in page
    script = client.get("/static/common.js").get_data(as_text=True)
    assert "about.textContent = (byName[variant.value] || {}).description" in script
