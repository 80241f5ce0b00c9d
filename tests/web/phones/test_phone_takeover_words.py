"""A takeover's loose ends (issue 23): the pages' headings are capitalised, also after a
reload of a used code; a phone that gives up stops the OLED's question at once; the table
and simulation pages say what the OLED asks."""

from __future__ import annotations

import re

from phone_helpers import join, token_path, wait_for, table  # noqa: F401 (fixture)

JSON = {"Content-Type": "application/json"}


def heading(response) -> str:
    return re.search(r"<h1>(.*?)</h1>", response.get_data(as_text=True), re.S)[1].strip()


def test_the_join_pages_headings_are_capitalised_also_after_a_reload(table):
    c = table.companion
    first, second = table.phone(), table.phone()
    join(first, c, "red")
    path = token_path(c, "red")
    waiting = second.get(path)
    assert heading(waiting) == "The Red seat is taken"
    reloaded = second.get(path)                      # the code was used: the reload says so
    assert reloaded.status_code == 403 and heading(reloaded)[0].isupper(), heading(reloaded)


def test_a_phone_that_stops_asking_withdraws_the_question_at_once(table):
    c = table.companion
    first, second = table.phone(), table.phone()
    join(first, c, "red")
    assert second.get(token_path(c, "red")).status_code == 202
    wait_for(lambda: c.view(None)["oled"][:2] == ["New phone for", "the Red seat"])
    # The table and simulation pages say it too (their status lines).
    assert c.view(None)["instruction"] == {
        "title": "A new phone asks for the Red seat",
        "detail": "On the companion: A lets it take the seat, B refuses."}
    assert second.post("/join/cancel", data="{}", headers=JSON).get_json() == {"ok": True}
    # At once: well before the seconds after which a silent phone is missed (seats.GONE_S).
    wait_for(lambda: c.view(None)["oled"][:1] != ["New phone for"], timeout=1.5)
    assert c.view(None).get("instruction") is None
    assert second.get("/join/pending").status_code == 404
    assert second.post("/join/cancel", data="{}", headers=JSON).status_code == 404
    # The seat stays with the first phone.
    assert first.get("/seat/view").status_code == 200
