#!/usr/bin/env bash
# Install or upgrade the Onitama mat companion on Raspberry Pi OS (Bookworm), as root:
#   sudo ./systemd/install.sh             joins the network the Pi is on, as before
#   sudo ./systemd/install.sh --hotspot   the Pi becomes the table's own Wi-Fi access point
# A virtual environment under /opt, configuration in /etc, saved games in /var/lib, a
# dedicated user in the gpio, i2c and spi groups, and a systemd service started at boot.
set -euo pipefail
# The venv must be readable by the service's user whatever root's umask is (sudo keeps the
# caller's; hardened systems use 027 or 077, which would leave /opt/onitama-companion to root).
umask 022

HOTSPOT=no
for arg in "$@"; do
    case "$arg" in
        --hotspot) HOTSPOT=yes ;;
        *) echo "usage: sudo $0 [--hotspot]" >&2; exit 2 ;;
    esac
done

APP=onitama-companion
PREFIX=/opt/$APP
CONF=/etc/$APP
STATE=/var/lib/$APP
SRC="$(cd "$(dirname "$0")/.." && pwd)"

if [ "$(id -u)" -ne 0 ]; then
    echo "run as root: sudo $0" >&2
    exit 1
fi

if [ "$HOTSPOT" = yes ] && ! command -v nmcli >/dev/null; then
    echo "--hotspot needs NetworkManager (nmcli), the default on Raspberry Pi OS Bookworm" >&2
    exit 1
fi

echo "== system packages"
apt-get update -qq
# python3-lgpio is gpiozero's pin back-end on Bookworm; gcc and the headers build rpi-ws281x
# and the computer's native search core.
# Raspberry Pi OS has python3-lgpio; plain Debian does not: there the venv gets lgpio from PyPI.
# mosquitto: the broker a host table starts for a game with another table (docs/tables.md).
packages=(python3-venv python3-dev gcc swig mosquitto)
LGPIO_FROM_PYPI=yes
if apt-cache show python3-lgpio >/dev/null 2>&1; then
    packages+=(python3-lgpio)
    LGPIO_FROM_PYPI=no
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}"

echo "== I2C and SPI"
if command -v raspi-config >/dev/null; then
    raspi-config nonint do_i2c 0
    raspi-config nonint do_spi 0
fi
BOOTCFG=/boot/firmware/config.txt
[ -f "$BOOTCFG" ] || BOOTCFG=/boot/config.txt
if [ -f "$BOOTCFG" ] && ! grep -q "# onitama-companion" "$BOOTCFG"; then
    # WS2812 timing over SPI needs a fixed core clock; 400 kHz I2C refreshes the OLED in 23 ms.
    model=$({ tr -d '\0' </proc/device-tree/model; } 2>/dev/null || true)
    {
        echo "# onitama-companion"
        echo "dtparam=i2c_arm=on,i2c_arm_baudrate=400000"
        echo "dtparam=spi=on"
        case "$model" in
            *"Pi 4"*) echo "core_freq=500"; echo "core_freq_min=500" ;;
            *) echo "core_freq=250" ;;
        esac
    } >>"$BOOTCFG"
    echo "   $BOOTCFG updated: reboot once after this install"
fi

echo "== user"
for group in gpio i2c spi; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
if ! id "$APP" >/dev/null 2>&1; then
    useradd --system --home-dir "$STATE" --no-create-home --shell /usr/sbin/nologin \
        --user-group "$APP"
fi
usermod -a -G gpio,i2c,spi "$APP"

echo "== program"
# --system-site-packages lets the venv see Debian's python3-lgpio.
[ -x "$PREFIX/venv/bin/python" ] || python3 -m venv --system-site-packages "$PREFIX/venv"
"$PREFIX/venv/bin/pip" install --quiet --upgrade pip
"$PREFIX/venv/bin/pip" install --quiet "$SRC[pi]"
if [ "$LGPIO_FROM_PYPI" = yes ]; then
    "$PREFIX/venv/bin/pip" install --quiet "lgpio>=0.2.2"
fi
# The computer's native search core (gcc and python3-dev above), built into the installed
# package (from /, so that the source tree is not on the path); without it, the Python search.
(cd / && "$PREFIX/venv/bin/python" -m companion.ai.native.build) || echo "   the computer uses the Python search"

echo "== configuration"
install -d -m 0755 "$CONF"
if [ ! -f "$CONF/config.toml" ]; then
    install -m 0644 "$SRC/systemd/config.toml" "$CONF/config.toml"
fi
if [ ! -f "$CONF/pinmap.toml" ]; then
    install -m 0644 "$SRC/hardware/pinmap.toml" "$CONF/pinmap.toml"
fi
install -d -m 0750 -o "$APP" -g "$APP" "$STATE"
if [ "$HOTSPOT" = yes ]; then
    echo "== the table's own Wi-Fi"
    # The network's name and password are generated once and kept in config.toml, which
    # then holds a secret: readable by root and the service's group only.
    chown root:"$APP" "$CONF/config.toml"
    chmod 0640 "$CONF/config.toml"
    "$PREFIX/venv/bin/python" -m companion.table.network hotspot --config "$CONF/config.toml"
fi

echo "== service"
install -m 0644 "$SRC/systemd/$APP.service" /etc/systemd/system/$APP.service
# The companion starts its own mosquitto for games with another table (companion/link/setup.py,
# port 1883): Debian's own service would hold that port with an open default config.
systemctl disable --now mosquitto.service 2>/dev/null || true
systemctl daemon-reload
systemctl enable "$APP.service"
systemctl restart "$APP.service"
echo "done: 'systemctl status $APP' shows it running; the OLED shows the phone address"
