"""The invite through the pages: the host table deals a game with another table from the
new-game API and shows its invite (short code and QR code) to the table alone; the other
table takes it; a phone on the network gets neither."""

from __future__ import annotations

from companion.link.setup import open_links
from companion.web.app import create_app

from two_tables import FAST, broker  # noqa: F401  (fixture)
from sim_table import sim_companion
from waiting import wait_for

JSON = {"Content-Type": "application/json"}


def test_the_host_shows_its_invite_to_the_table_and_the_guest_takes_it(tmp_path, broker):
    with sim_companion(tmp_path / "h.db", **FAST) as host, sim_companion(tmp_path / "g.db", **FAST) as guest:
        host_links, own = open_links(host.companion, broker=broker.address, port=0,
                                     workdir=tmp_path, invite_host="127.0.0.1")
        guest_links, _ = open_links(guest.companion, broker=broker.address, port=0,
                                    workdir=tmp_path, invite_host="127.0.0.1")
        try:
            assert own is None            # a broker was named: none started here
            web = create_app(host.companion, secret_key=b"t").test_client()
            assert web.get("/api/tables/invite").status_code == 404          # no such game yet
            made = web.post("/api/new-game", json={"variant": "base", "seed": 3, "table": ["blue"]})
            assert made.status_code == 200, made.get_json()
            invite = wait_for(lambda: web.get("/api/tables/invite").get_json().get("code"))
            page = web.get("/api/tables/invite").get_json()
            assert invite.startswith("OT1:") and page["svg"].startswith("<svg")
            phone = create_app(host.companion, secret_key=b"t").test_client()
            phone.environ_base["REMOTE_ADDR"] = "10.0.0.5"
            assert phone.get("/api/tables/invite").status_code == 403
            gweb = create_app(guest.companion, secret_key=b"t").test_client()
            bad = gweb.post("/api/tables/join", json={"code": "OT1:nowhere"}, headers=JSON)
            assert bad.status_code == 400 and "invite" in bad.get_json()["error"]
            joined = gweb.post("/api/tables/join", json={"code": invite}, headers=JSON)
            assert joined.status_code == 200, joined.get_json()
            game = guest.companion.view(None)["game"]
            assert game["table"] == ["red"] and game["variant"] == "base"
            assert guest.companion.view(None)["table"]["position"] == host.companion.view(None)["table"]["position"]
            # The key stays out of the game list at both tables.
            for side in (host, guest):
                assert "link" not in side.companion.games()[0]["header"]
        finally:
            host_links and host_links.close()
            guest_links and guest_links.close()
