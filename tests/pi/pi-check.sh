#!/usr/bin/env bash
# The install proven on the Pi's architecture: a Debian Bookworm arm64 root file system
# (debootstrap + qemu-user-static), systemd/install.sh run inside it UNCHANGED, then the
# installed companion checked there. Run as root:  ./dev pi-check  (or tests/pi/pi-check.sh)
#
# Stand-ins, only for what a chroot cannot do, in a folder put first on PATH for the check
# alone: systemctl (no systemd runs in a chroot), reboot, raspi-config (Raspberry Pi OS only)
# and nmcli (no NetworkManager daemon). Each logs its arguments so the check can read them.
#
# Slow under emulation (tens of minutes the first time). The debootstrapped root file system
# is cached as a tarball, and pip's and apt's downloads are cached next to it, so reruns only
# unpack it and run the installer: PI_CHECK_CACHE (default ~/.cache/onitama-pi-check).
# PI_CHECK_MIRROR overrides the Debian mirror (default: this machine's apt configuration).
set -euo pipefail

SRC="$(cd "$(dirname "$0")/../.." && pwd)"
CACHE="${PI_CHECK_CACHE:-$HOME/.cache/onitama-pi-check}"
TARBALL="$CACHE/bookworm-arm64.tar"
APP=onitama-companion
started=$(date +%s)

say() { printf '[pi-check %4ss] %s\n' "$(( $(date +%s) - started ))" "$*"; }
fail() { say "FAIL: $*"; exit 1; }

[ "$(id -u)" -eq 0 ] || { echo "pi-check needs root (debootstrap, chroot, mounts)" >&2; exit 1; }

# --- tools ----------------------------------------------------------------------------------
missing=()
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v qemu-aarch64-static >/dev/null || missing+=(qemu-user-static)
command -v update-binfmts >/dev/null || missing+=(binfmt-support)
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# --- binfmt_misc: run arm64 programs through qemu ------------------------------------------
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
    update-binfmts --enable qemu-aarch64 || true
fi
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
    # binfmt-support did not register it (no systemd here): register qemu by hand, with the
    # F flag so that the interpreter is opened now and works inside the chroot.
    printf '%s' ':qemu-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:/usr/bin/qemu-aarch64-static:F' \
        >/proc/sys/fs/binfmt_misc/register
fi
grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 || fail "qemu-aarch64 is not enabled in binfmt_misc"

# --- the Debian mirror this machine uses ----------------------------------------------------
mirror="${PI_CHECK_MIRROR:-}"
if [ -z "$mirror" ]; then
    mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null |
        grep -oE 'https?://[^ ]*/debian/?( |$)' | grep -v security | head -1 | tr -d ' ' || true)
    mirror="${mirror:-http://deb.debian.org/debian}"
fi

# --- the cached root file system -------------------------------------------------------------
mkdir -p "$CACHE/pip" "$CACHE/apt"
if [ ! -f "$TARBALL" ]; then
    say "debootstrap bookworm arm64 from $mirror (the first run only)"
    build=$(mktemp -d /var/tmp/pi-check-build.XXXXXX)
    debootstrap --arch=arm64 --variant=minbase --include=ca-certificates,python3 \
        bookworm "$build" "$mirror" >"$CACHE/debootstrap.log" 2>&1 ||
        { tail -20 "$CACHE/debootstrap.log"; rm -rf "$build"; fail "debootstrap"; }
    rm -rf "$build"/var/cache/apt/archives/*.deb
    tar -C "$build" -cf "$TARBALL.part" . && mv "$TARBALL.part" "$TARBALL"
    rm -rf "$build"
fi

ROOT=$(mktemp -d /var/tmp/pi-check-root.XXXXXX)
cleanup() {
    # Leave no mounts behind, whatever happened: deepest first, then the tree.
    for m in $(awk -v r="$ROOT" '$2 ~ "^"r {print $2}' /proc/mounts | sort -r); do
        umount -l "$m" 2>/dev/null || true
    done
    awk -v r="$ROOT" '$2 ~ "^"r {found=1} END {exit found ? 0 : 1}' /proc/mounts ||
        rm -rf "$ROOT"
}
trap cleanup EXIT
say "unpacking the root file system into $ROOT"
tar -C "$ROOT" -xf "$TARBALL"
# mktemp made the folders 0700 (and tar gives "/" the mode it was packed with): a Pi's "/" is
# 0755, or the service user could reach nothing.
chmod 0755 "$ROOT"
mount -t proc proc "$ROOT/proc"
mount --rbind /sys "$ROOT/sys"
mount --rbind /dev "$ROOT/dev"
mkdir -p "$ROOT/var/cache/pi-check-pip"
mount --bind "$CACHE/pip" "$ROOT/var/cache/pi-check-pip"
mount --bind "$CACHE/apt" "$ROOT/var/cache/apt/archives"
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
# Reach PyPI the way this machine does: trust the certificate authorities it added locally
# (a network that inspects HTTPS has its own). Nothing changes when there are none.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
    chroot "$ROOT" update-ca-certificates >/dev/null 2>&1 || fail "update-ca-certificates in the chroot"
fi
echo "deb $mirror bookworm main" >"$ROOT/etc/apt/sources.list"

# The repository as a maker would clone it (only what git tracks, plus uncommitted edits).
mkdir -p "$ROOT/home/pi/onitama-companion"
(cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
    tar --null -T - -cf -) | tar -C "$ROOT/home/pi/onitama-companion" -xf -

# Stand-ins for what a chroot cannot do. They log to /var/log/pi-check/<name>.log.
STANDINS=/opt/pi-check-standins
mkdir -p "$ROOT$STANDINS" "$ROOT/var/log/pi-check"
for tool in systemctl reboot raspi-config nmcli; do
    cat >"$ROOT$STANDINS/$tool" <<STANDIN
#!/bin/sh
# pi-check stand-in: a chroot has no $tool to run. Logs the call and succeeds.
echo "\$*" >>/var/log/pi-check/$tool.log
STANDIN
    chmod 0755 "$ROOT$STANDINS/$tool"
done
# A Raspberry Pi OS boot configuration, to see the installer add its lines once.
mkdir -p "$ROOT/boot/firmware"
printf '# Raspberry Pi OS default\narm_64bit=1\n' >"$ROOT/boot/firmware/config.txt"

in_root() {
    chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
        PATH="$STANDINS:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
        PIP_CACHE_DIR=/var/cache/pi-check-pip PIP_DEFAULT_TIMEOUT=180 "$@"
}

say "running systemd/install.sh (unchanged) inside the arm64 chroot"
in_root uname -m | grep -qx aarch64 || fail "the chroot does not run arm64 programs"
# Under a hardened root umask (077): the installer must still leave a venv the service can read.
in_root bash -c 'umask 077 && exec bash /home/pi/onitama-companion/systemd/install.sh' || fail "install.sh failed"
say "install.sh finished"

say "checking the installation"
in_root bash /home/pi/onitama-companion/tests/pi/inside.sh first || fail "the checks failed"

say "running install.sh --hotspot again (an upgrade that turns the hotspot on)"
in_root bash /home/pi/onitama-companion/systemd/install.sh --hotspot || fail "install.sh --hotspot failed"
in_root bash /home/pi/onitama-companion/tests/pi/inside.sh hotspot || fail "the hotspot checks failed"

say "PASS: install.sh on Debian Bookworm arm64 in $(( $(date +%s) - started )) s"
