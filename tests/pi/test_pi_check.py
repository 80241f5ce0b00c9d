"""systemd/install.sh on Debian Bookworm arm64 (debootstrap + qemu-user-static), run unchanged
in a chroot, then the installed companion checked there: tests/pi/pi-check.sh does it all."""

import os
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).with_name("pi-check.sh")


@pytest.mark.pi
def test_the_install_works_on_arm64():
    assert os.geteuid() == 0, "pi-check needs root (debootstrap, chroot, binfmt_misc)"
    done = subprocess.run([str(SCRIPT)], capture_output=True, text=True, timeout=3 * 3600)
    assert done.returncode == 0 and "PASS" in done.stdout, done.stdout[-4000:] + done.stderr[-4000:]
