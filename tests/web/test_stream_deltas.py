"""Streams send the moves since their last view, and the whole view only on (re)connecting
(issue 14: every view event re-sent the whole log, 9 kB per move at move 500)."""

from __future__ import annotations

import json

from test_web_streams import Events

from companion.web.streams import since
from web_helpers import app, client, companion, lay_out, new_game  # noqa: F401 (fixtures)


def test_after_the_snapshot_a_view_carries_only_the_new_turns(client, companion):
    new_game(client)
    lay_out(client, companion)
    events = Events(client.get("/events", buffered=False))
    first = events.until("view")
    assert first["table"]["log"] == [] and "log_since" not in first["table"]
    companion.submit("red", {"type": "action", "text": "Tiger c1c3"})
    view = events.until("view", lambda v: v["table"].get("log_since", {}).get("turns"))
    assert "log" not in view["table"]
    assert view["table"]["log_since"] == {"from": 0, "turns": ["Tiger c1c3"]}
    companion.submit("blue", {"type": "action", "text": "Monkey b5a4"})
    view = events.until("view", lambda v: v["table"].get("log_since", {}).get("turns"))
    assert view["table"]["log_since"] == {"from": 1, "turns": ["Monkey b5a4"]}
    events.close()
    # A page that (re)connects holds nothing: it gets the whole log again.
    again = Events(client.get("/events", buffered=False))
    assert again.until("view")["table"]["log"] == ["Tiger c1c3", "Monkey b5a4"]
    again.close()


def test_since_keeps_what_the_page_has_and_handles_a_takeback():
    def view(log):
        return {"game": {"id": 1}, "table": {"log": log, "to_act": ["red"]}}
    sent, held = since(None, view(["a", "b"]))
    assert sent == view(["a", "b"]) and held == {"log": ["a", "b"]}
    sent, held = since(held, view(["a", "b", "c"]))
    assert sent["table"] == {"to_act": ["red"], "log_since": {"from": 2, "turns": ["c"]}}
    sent, held = since(held, view(["a", "b"]))                  # a takeback
    assert sent["table"]["log_since"] == {"from": 2, "turns": []} and held == {"log": ["a", "b"]}
    sent, held = since(held, view(["a", "x"]))                  # a takeback, then another move
    assert sent["table"]["log_since"] == {"from": 1, "turns": ["x"]}
    sent, held = since(held, {"game": None, "table": None})     # no game any more
    assert sent == {"game": None, "table": None} and held is None
    # Long logs: the event stays the size of one turn.
    log = [f"Tiger c1c{n % 3 + 2}" for n in range(1000)]
    _, held = since(None, view(log))
    sent, _ = since(held, view(log + ["Crab a1a2"]))
    assert len(json.dumps(sent)) < 200


def test_the_moves_in_words_are_sent_since_the_last_view_too():
    # The moves in players' words grow a turn at a time like the log: a stream sent them all
    # again with every view (17.7 kB per event at turn 200).
    def view(n):
        log = [f"Tiger c1c{k % 3 + 2}" for k in range(n)]
        words = [{"n": k + 1, "seat": "red", "text": t, "words": f"Red: Tiger, {t}"}
                 for k, t in enumerate(log)]
        return {"game": {"id": 1}, "table": {"log": log, "moves": words}}
    first, held = since(None, view(1000))
    assert first == view(1000)
    sent, held = since(held, view(1001))
    assert "moves" not in sent["table"] and sent["table"]["moves_since"]["from"] == 1000
    assert len(json.dumps(sent)) < 300
    assert held == {"log": view(1001)["table"]["log"], "moves": view(1001)["table"]["moves"]}
