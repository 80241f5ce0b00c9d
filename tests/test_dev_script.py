"""The README's two commands are ./dev sim and ./dev test: each must start what it says."""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_dev_sim_starts_the_simulation():
    proc = subprocess.run([str(ROOT / "dev"), "sim", "--help"], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)
    assert proc.returncode == 0 and "the desktop simulation" in proc.stdout


def test_dev_refuses_an_unknown_command():
    proc = subprocess.run([str(ROOT / "dev"), "play"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "usage: ./dev sim" in proc.stderr
