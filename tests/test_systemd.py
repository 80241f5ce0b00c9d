"""The Pi service unit must pass ``systemd-analyze verify`` with no warning at all
(it exits 0 on unknown keys and bad values, so stderr is what counts)."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "onitama-companion.service"
INSTALLED = "/opt/onitama-companion/venv/bin/onitama-companion"


def verify(text: str, tmp_path: Path) -> subprocess.CompletedProcess:
    assert shutil.which("systemd-analyze"), "systemd-analyze is missing: apt-get install systemd"
    # verify checks that ExecStart exists: point it at this checkout's installed command.
    unit = tmp_path / UNIT.name
    unit.write_text(text.replace(INSTALLED, str(Path(sys.executable).parent / "onitama-companion")))
    return subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)


def test_unit_verifies_without_warnings(tmp_path):
    text = UNIT.read_text()
    assert INSTALLED in text
    result = verify(text, tmp_path)
    assert result.returncode == 0 and result.stderr == "", result.stderr


def test_a_broken_unit_is_caught(tmp_path):
    result = verify(UNIT.read_text().replace("Restart=on-failure", "Restart=sometimes"), tmp_path)
    assert "restart specifier" in result.stderr


def test_unit_keeps_device_access_and_restarts():
    directives = [line for line in UNIT.read_text().splitlines() if not line.startswith("#")]
    for line in ("Restart=on-failure", "SupplementaryGroups=gpio i2c spi", "DevicePolicy=closed",
                 "StateDirectory=onitama-companion", "ConfigurationDirectory=onitama-companion"):
        assert line in directives
    assert not any(line.startswith("PrivateDevices") for line in directives)


def test_the_installer_and_the_install_check_parse():
    for script in (ROOT / "systemd" / "install.sh", ROOT / "tests" / "pi" / "pi-check.sh",
                   ROOT / "tests" / "pi" / "inside.sh"):
        done = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
        assert done.returncode == 0, f"{script.name}: {done.stderr}"


def test_the_installer_changes_the_network_only_with_the_option():
    script = (ROOT / "systemd" / "install.sh").read_text()
    # Every nmcli use and the config's 0640 sit behind --hotspot.
    guarded = script[script.index('if [ "$HOTSPOT" = yes ]; then\n    echo "== the table'):]
    guarded = guarded[:guarded.index("\nfi\n")]
    outside = script.replace(guarded, "")
    assert "companion.table.network" in guarded and "companion.table.network" not in outside
    assert "chmod 0640" in guarded and "chmod" not in outside
