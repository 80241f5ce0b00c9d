#!/usr/bin/env bash
# Run by tests/pi/pi-check.sh INSIDE the arm64 chroot after systemd/install.sh:
#   inside.sh first     the plain install (the README's Pi steps)
#   inside.sh hotspot   after install.sh --hotspot
# Prints one line per check; exits 1 at the first failure.
set -euo pipefail

APP=onitama-companion
VENV=/opt/$APP/venv
CONF=/etc/$APP
STATE=/var/lib/$APP
LOGS=/var/log/pi-check
stage="$1"

ok() { echo "   ok   $*"; }
fail() { echo "   FAIL $*"; exit 1; }
mode_owner() { stat -c '%a %U:%G' "$1"; }
expect_mode() {  # path, "mode user:group"
    [ -e "$1" ] || fail "$1 is missing"
    [ "$(mode_owner "$1")" = "$2" ] || fail "$1 is $(mode_owner "$1"), want $2"
    ok "$1 $2"
}
as_service() { runuser -u "$APP" -- "$@"; }

if [ "$stage" = first ]; then
    # -- the virtual environment, and the pi extra compiled for arm64 ---------------------------
    [ "$(uname -m)" = aarch64 ] || fail "not running arm64 programs"
    "$VENV/bin/python" - <<'PY' || fail "the venv cannot import the Pi's libraries"
import platform, importlib.metadata as md
import _rpi_ws281x, rpi_ws281x, gpiod, lgpio, neopixel_spi, luma.oled.device, zeroconf
import companion, firmware.hardware
assert platform.machine() == "aarch64", platform.machine()
ext = _rpi_ws281x.__file__
assert ext.endswith(".so") and "aarch64" in ext, ext
print(f"   ok   venv: Python {platform.python_version()} on {platform.machine()}; rpi-ws281x "
      f"{md.version('rpi-ws281x')} ({ext.rsplit('/', 1)[-1]}), gpiod {md.version('gpiod')}, "
      f"lgpio {md.version('lgpio')}, neopixel-spi {md.version('adafruit-circuitpython-neopixel-spi')}, "
      f"luma.oled {md.version('luma.oled')}, zeroconf {md.version('zeroconf')}")
PY
    grep -q "include-system-site-packages = true" "$VENV/pyvenv.cfg" ||
        fail "the venv does not see Debian's packages (--system-site-packages)"
    ok "the venv sees the system site packages (python3-lgpio on Raspberry Pi OS)"

    # -- the user and its groups (docs/pi.md: a system user in gpio, i2c and spi) ------------------
    id "$APP" >/dev/null || fail "no user $APP"
    for group in gpio i2c spi; do
        id -nG "$APP" | tr ' ' '\n' | grep -qx "$group" || fail "$APP is not in $group"
    done
    [ "$(id -u "$APP")" -lt 1000 ] || fail "$APP is not a system user"
    entry=$(getent passwd "$APP")
    [ "$(echo "$entry" | cut -d: -f6)" = "$STATE" ] || fail "home is not $STATE: $entry"
    [ "$(echo "$entry" | cut -d: -f7)" = /usr/sbin/nologin ] || fail "login shell: $entry"
    ok "user $APP (uid $(id -u "$APP")): groups $(id -nG "$APP"), no login, home $STATE"

    # -- folders and file modes --------------------------------------------------------------
    expect_mode "$CONF" "755 root:root"
    expect_mode "$CONF/config.toml" "644 root:root"
    expect_mode "$CONF/pinmap.toml" "644 root:root"
    expect_mode "$STATE" "750 $APP:$APP"
    expect_mode /etc/systemd/system/$APP.service "644 root:root"
    expect_mode "$VENV/bin/$APP" "755 root:root"
    expect_mode "/opt/$APP" "755 root:root"
    expect_mode "$VENV/lib" "755 root:root"

    # -- the unit's paths --------------------------------------------------------------------
    unit=/etc/systemd/system/$APP.service
    exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
    read -r -a words <<<"$exec_start"
    [ -x "${words[0]}" ] || fail "ExecStart ${words[0]} is not executable"
    for i in "${!words[@]}"; do
        case "${words[$i]}" in
            --config) [ -f "${words[$((i + 1))]}" ] || fail "--config ${words[$((i + 1))]} is missing" ;;
            --state) [ -d "${words[$((i + 1))]}" ] || fail "--state ${words[$((i + 1))]} is missing" ;;
        esac
    done
    for key in User Group; do
        getent "$( [ $key = User ] && echo passwd || echo group )" "$(sed -n "s/^$key=//p" "$unit")" >/dev/null ||
            fail "$key= names nobody"
    done
    for group in $(sed -n 's/^SupplementaryGroups=//p' "$unit"); do
        getent group "$group" >/dev/null || fail "SupplementaryGroups names a missing group $group"
    done
    grep -qx "# onitama-companion" /boot/firmware/config.txt || fail "config.txt was not updated"
    ok "unit: ExecStart, --config, --state, User, Group and SupplementaryGroups all exist"

    # -- what the stand-ins were asked -------------------------------------------------------
    for call in "daemon-reload" "enable $APP.service" "restart $APP.service"; do
        grep -qx "$call" $LOGS/systemctl.log || fail "install.sh never ran systemctl $call"
    done
    ok "systemctl was asked: $(paste -sd ';' $LOGS/systemctl.log)"
    for call in "nonint do_i2c 0" "nonint do_spi 0"; do
        grep -qx "$call" $LOGS/raspi-config.log || fail "install.sh never ran raspi-config $call"
    done
    ok "raspi-config was asked: $(paste -sd ';' $LOGS/raspi-config.log)"
    for line in "dtparam=i2c_arm=on,i2c_arm_baudrate=400000" "dtparam=spi=on" "core_freq=250"; do
        grep -qx "$line" /boot/firmware/config.txt || fail "config.txt lacks $line"
    done
    ok "/boot/firmware/config.txt: I2C at 400 kHz, SPI, core_freq=250"
    [ ! -e $LOGS/nmcli.log ] || fail "nmcli was called without --hotspot"
    ok "no nmcli call without --hotspot"

    # -- the companion runs, as its own user -------------------------------------------------
    cd /tmp
    as_service "$VENV/bin/$APP" selftest --sim >/tmp/selftest.log 2>&1 ||
        { cat /tmp/selftest.log; fail "selftest --sim"; }
    grep -q "All good" /tmp/selftest.log || { cat /tmp/selftest.log; fail "selftest --sim did not pass"; }
    ok "selftest --sim: $(grep -c '\[ ok \]' /tmp/selftest.log) checks ok ($(grep '\[ ok \]' /tmp/selftest.log | awk '{print $4}' | paste -sd,))"
    for pinmap in /home/pi/$APP/tests/pi/pinmap-pi5.toml; do
        as_service "$VENV/bin/$APP" selftest --sim --pinmap "$pinmap" >/tmp/selftest5.log 2>&1 ||
            { cat /tmp/selftest5.log; fail "selftest --sim --pinmap $pinmap"; }
        ok "selftest --sim with the Pi 5 choices (SPI LEDs, SH1106): all good"
    done
fi

if [ "$stage" = hotspot ]; then
    expect_mode "$CONF/config.toml" "640 root:$APP"
    as_service "$VENV/bin/python" - <<'PY' || fail "the hotspot configuration"
import shlex
from companion.table.config import load_config
from companion.table.network import Hotspot, hotspot_commands, wifi_qr_payload
config = load_config("/etc/onitama-companion/config.toml")
assert config.hotspot and config.announce_mdns, config
assert config.public_url == "http://10.42.0.1:8080", config.public_url
hotspot = Hotspot(config.ssid, config.wifi_password, config.wifi_interface)
want = [" ".join(c[1:]) for c in hotspot_commands(hotspot)]
got = open("/var/log/pi-check/nmcli.log").read().splitlines()
assert got == want, (got, want)
print(f"   ok   config.toml [network]: hotspot on, network {config.ssid!r}, join codes to "
      f"{config.public_url}, readable by the service")
print(f"   ok   nmcli was asked exactly: {len(got)} commands ({'; '.join(c.split()[1] for c in got)})")
PY
    [ "$(grep -c '^\[network\]' "$CONF/config.toml")" = 1 ] || fail "[network] written twice"
    [ "$(grep -cx '# onitama-companion' /boot/firmware/config.txt)" = 1 ] || fail "config.txt appended twice"
    ok "rerun: config.txt and config.toml not appended twice"
fi

# -- a short serve on the simulated mat, with the installed configuration, as the service ------
cd /tmp
as_service "$VENV/bin/python" - "$stage" <<'PY' || fail "serve on the simulated mat"
import getpass, re, signal, socket, subprocess, sys, time, urllib.request
with socket.socket() as s:  # a free port (the printed URLs name public_url when it is set)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
proc = subprocess.Popen(["/opt/onitama-companion/venv/bin/onitama-companion", "sim", "--no-browser",
                         "--config", "/etc/onitama-companion/config.toml",
                         "--state", "/var/lib/onitama-companion", "--host", "127.0.0.1", "--port", str(port)],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
lines = []
for line in proc.stdout:
    lines.append(line)
    if line.startswith("ready in"):
        break
assert lines and lines[-1].startswith("ready in"), "".join(lines)
seat = next(line for line in lines if line.startswith("red seat:"))
want = "HTTP://10.42.0.1:8080/J/" if sys.argv[1] == "hotspot" else f"HTTP://127.0.0.1:{port}/J/"
assert want in seat, (want, seat)
page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60).read().decode()
assert "<html" in page.lower(), page[:200]
proc.send_signal(signal.SIGTERM)
rest = proc.communicate(timeout=60)[0]
assert proc.returncode == 0, (proc.returncode, "".join(lines) + rest)
print(f"   ok   serve (sim) as {getpass.getuser()}: http://127.0.0.1:{port}/ answered {len(page)} bytes, "
      f"join codes to {want}...; {lines[-1].strip()}; stopped cleanly on SIGTERM")
PY
[ -f "$STATE/games.db" ] && [ "$(stat -c %U "$STATE/games.db")" = "$APP" ] || fail "no save file in $STATE"
ok "the save file $STATE/games.db belongs to $APP"
