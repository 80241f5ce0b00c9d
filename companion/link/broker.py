"""A Mosquitto of the table's own: the embedded default for two tables on one network, and
the broker the tests start on a free loopback port. It keeps its sessions and retained
messages in ``workdir`` (persistence), so a broker killed and started again loses nothing it
had written down."""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from pathlib import Path

CONFIG = """\
# Written by companion.link.broker: the table's own broker (docs/tables.md).
# Started as root (a test), mosquitto would otherwise switch to the user "mosquitto", which
# may not write its persistence here.
user {user}
listener {port} {bind}
allow_anonymous true
persistence true
persistence_location {workdir}/
autosave_interval 1
max_queued_messages 10000
log_dest stderr
log_type error
"""


def installed() -> str | None:
    """The mosquitto program, if this machine has it (Debian's package puts it in /usr/sbin)."""
    return shutil.which("mosquitto") or next(
        (str(p) for p in (Path("/usr/sbin/mosquitto"),) if p.exists()), None)


def free_port(bind: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((bind, 0))
        return int(s.getsockname()[1])


class Mosquitto:
    """``start()`` runs mosquitto on ``port``; ``kill()`` kills it (-9, as a power cut);
    ``start()`` again brings it back with what it had saved."""

    def __init__(self, workdir: Path, port: int | None = None, bind: str = "127.0.0.1"):
        program = installed()
        if program is None:
            raise FileNotFoundError("mosquitto is not installed (apt-get install mosquitto)")
        self.program = program
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.bind = bind
        self.port = port or free_port(bind)
        self.config = self.workdir / "mosquitto.conf"
        self.config.write_text(CONFIG.format(port=self.port, bind=bind, workdir=self.workdir,
                                             user=getpass.getuser()))
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return f"{self.bind}:{self.port}"

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def start(self, wait: float = 10.0) -> None:
        if self.running:
            return
        log = open(self.workdir / "mosquitto.log", "ab")
        self._process = subprocess.Popen([self.program, "-c", str(self.config)],
                                         stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        log.close()
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"mosquitto stopped at once: see {self.workdir}/mosquitto.log")
            try:
                socket.create_connection((self.bind, self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError(f"mosquitto did not listen on {self.address}")

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def kill(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None

    def stop(self) -> None:
        """A clean stop: it writes its sessions down first."""
        if self._process is not None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            self._process = None
