"""Start-up: a page asked for before the service's first view is a clear "starting" answer,
never a 500 (issue 14: GET / answered 500 in 2 of 10 starts, the web server being up before
the first view existed). Deterministic: the pages are asked while the companion is built but
not yet started (``before_start``)."""

from companion.web import create_app
from sim_table import sim_companion


def test_pages_wait_for_the_first_view(tmp_path):
    clients = []

    def before_start(companion):
        client = create_app(companion, secret_key=b"test").test_client()
        for path in ("/", "/sim", "/games"):
            response = client.get(path)
            assert response.status_code == 503, path
            assert "Starting" in response.get_data(as_text=True)
            assert response.headers["Retry-After"] == "1"
        response = client.get("/api/view")
        assert response.status_code == 503 and "starting" in response.get_json()["error"]
        clients.append(client)

    with sim_companion(tmp_path / "games.db", public_url=None, before_start=before_start):
        assert clients, "the pages were never asked before the start"
        for path in ("/", "/sim", "/games", "/api/view"):
            assert clients[0].get(path).status_code == 200, path
