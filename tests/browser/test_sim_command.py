"""`onitama-companion sim` as a newcomer starts it: ready within 3 s, the page drawn, and a
clean exit on SIGTERM while the page's event stream is still open."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

from playwright.sync_api import expect

from browser_fixtures import browser, page  # noqa: F401 (fixtures)


def test_the_simulation_serves_its_page_within_3_s_and_stops_cleanly(page, tmp_path):
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "sim", "--host", "127.0.0.1", "--port", "0",
         "--state", str(tmp_path), "--no-browser"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        sim_url = None
        for line in process.stdout:
            if line.startswith("sim:"):
                sim_url = line.split()[1]
                break
        assert sim_url, process.stderr.read()
        page.goto(sim_url)
        page.wait_for_function("document.querySelector('#oled').naturalWidth === 128")
        assert time.monotonic() - started < 3
        expect(page.locator("#mat button.square")).to_have_count(25)
        expect(page.locator("#status")).to_have_text("No game yet")
        # The page holds an event stream open: stopping must not wait for it to close.
        page.wait_for_selector("#connection[hidden]", state="attached")
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=8) == 0, process.stderr.read()
        page.goto("about:blank")  # before the page's stream tries to reconnect
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert "Traceback" not in process.stderr.read()
