"""Start-up: a page asked for before the service's first view is a clear "starting" answer,
never a 500 (issue 14: GET / answered 500 in 2 of 10 starts, the web server being up before
the first view existed). Deterministic: the companion is built but not started."""

from companion.table.service import Companion
from companion.table.store import GameStore
from companion.web import create_app
from firmware.hardware import make_hardware


def test_pages_wait_for_the_first_view(tmp_path):
    hardware = make_hardware("sim")
    store = GameStore(tmp_path / "games.db")
    companion = Companion(hardware, store, settle=0.2)
    client = create_app(companion, secret_key=b"test").test_client()
    try:
        for path in ("/", "/sim", "/games"):
            response = client.get(path)
            assert response.status_code == 503, path
            assert "Starting" in response.get_data(as_text=True)
            assert response.headers["Retry-After"] == "1"
        response = client.get("/api/view")
        assert response.status_code == 503 and "starting" in response.get_json()["error"]
        companion.start()
        for path in ("/", "/sim", "/games", "/api/view"):
            assert client.get(path).status_code == 200, path
    finally:
        companion.close()
        hardware.close()
        store.close()
