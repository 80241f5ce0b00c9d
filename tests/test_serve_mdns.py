"""``serve`` announces onitama.local when configured: the announcer starts once the web server
listens, with the hotspot's address, and says goodbye before the server stops; a failure to
announce is logged and the table serves on. (The real announcer on loopback: test_network.py.)"""

from __future__ import annotations

import os
import signal

import pytest

from companion import serve

CONFIG = '[network]\nhotspot = true\nssid = "Onitama-7KQD"\npassword = "rM5fTU5vmQSR"\n'


class FakeAnnouncer:
    made: list["FakeAnnouncer"] = []
    fail = False

    def __init__(self, port, addresses):
        self.port, self.addresses, self.calls = port, addresses, []
        FakeAnnouncer.made.append(self)

    def start(self):
        self.calls.append("start")
        if FakeAnnouncer.fail:
            raise OSError("no multicast here")

    def stop(self):
        self.calls.append("stop")


@pytest.fixture
def run_serve(tmp_path, monkeypatch):
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    FakeAnnouncer.made, FakeAnnouncer.fail = [], False
    monkeypatch.setattr(serve, "MdnsAnnouncer", FakeAnnouncer)
    stopped = []
    from companion.web import server as web_server
    original, original_start = web_server.Server.stop, web_server.Server.start

    def start(self):
        original_start(self)
        # The service is up: stop it as systemd would (run's own handler sets its stop event).
        os.kill(os.getpid(), signal.SIGTERM)

    def stop(self):
        stopped.append([list(a.calls) for a in FakeAnnouncer.made])
        original(self)

    monkeypatch.setattr(web_server.Server, "stop", stop)
    monkeypatch.setattr(web_server.Server, "start", start)

    def run(config: str) -> int:
        path = tmp_path / "config.toml"
        path.write_text(config)
        return serve.run(["--config", str(path), "--state", str(tmp_path / "state"), "--port", "0",
                          "--no-browser"], sim=True)
    yield run, stopped
    for sig, handler in handlers.items():
        signal.signal(sig, handler)


def test_serve_announces_the_hotspot_address_and_stops_before_the_server(run_serve):
    run, stopped = run_serve
    assert run(CONFIG) == 0
    [announcer] = FakeAnnouncer.made
    assert announcer.addresses == ["10.42.0.1"] and announcer.port > 0
    assert announcer.calls == ["start", "stop"]
    assert stopped == [[["start", "stop"]]]        # the goodbye came before the server stopped


def test_a_failure_to_announce_is_logged_never_fatal(run_serve, caplog):
    run, _ = run_serve
    FakeAnnouncer.fail = True
    assert run(CONFIG) == 0
    assert "could not announce onitama.local" in caplog.text
    assert FakeAnnouncer.made[0].calls == ["start"]   # nothing to say goodbye to


def test_without_the_option_nothing_is_announced(run_serve):
    run, _ = run_serve
    assert run("") == 0
    assert FakeAnnouncer.made == []


def test_a_wifi_password_wpa2_cannot_use_is_a_clear_error(tmp_path, capsys):
    # It stopped the service with a ValueError traceback.
    from companion.serve import run
    config = tmp_path / "config.toml"
    config.write_text('[network]\nhotspot = true\nssid = "Onitama-AB12"\npassword = "short"\n')
    assert run(["--config", str(config), "--state", str(tmp_path / "state")], sim=True) == 2
    err = capsys.readouterr().err
    assert "WPA2 password is 8 to 63 ASCII characters" in err and "Traceback" not in err


@pytest.mark.parametrize("pieces", ["7", "five"])
def test_an_endgame_setting_it_cannot_use_is_a_clear_error(tmp_path, capsys, monkeypatch, pieces):
    # It stopped the service with a ValueError traceback, the store and the hardware left open.
    from companion.ai import memory
    from companion.serve import run
    monkeypatch.setenv(memory.PIECES_SETTING, pieces)
    before = memory.budget()
    config = tmp_path / "config.toml"
    config.write_text("")
    assert run(["--config", str(config), "--state", str(tmp_path / "state")], sim=True) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ONITAMA_ENDGAME_PIECES must be 0, 4, 5 or 6") and "Traceback" not in err
    assert memory.budget() is before
