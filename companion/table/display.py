"""The table's own outputs: the OLED and the LED animator, driven from the game thread.

Announcements (a Strike, a Lantern) hold the OLED and their squares one after another, over
the normal picture. The OLED is drawn and the scene handed to the animator only when they
change. The words and scenes themselves come from :mod:`.outputs` and :mod:`.views`.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable

from firmware import screens
from firmware.hardware import Hardware

from . import outputs, views
from .seats import Seats
from .session import GameSession


class Display:
    def __init__(self, hardware: Hardware):
        self._hw = hardware
        self._shows: list[outputs.Show] = []
        self._key: tuple[object, ...] | None = None
        self._scene: tuple[object, ...] | None = None
        self.lines: outputs.Lines = ()        # what the OLED says now (the views carry it)
        self._image = screens.status_screen(outputs.STARTING[0], list(outputs.STARTING[1:]))

    def announce(self, shows: list[outputs.Show]) -> None:
        self._shows += shows

    def deadline(self) -> float | None:
        """When the announcement on show ends, if one is."""
        return self._shows[0].until if self._shows and self._shows[0].until else None

    def _current_show(self) -> outputs.Show | None:
        now = time.monotonic()
        while self._shows:
            show = self._shows[0]
            if not show.until:
                show.until = now + show.seconds
            if now < show.until:
                return show
            self._shows.pop(0)
        return None

    def update(self, game: GameSession | None, *, occupancy: frozenset[int], seats: Seats,
               page: int, game_lines: Callable[[], outputs.Lines],
               join_url: Callable[[str], str]) -> None:
        """Draw what the table shows now: a takeover question, an announcement, a join code
        (``page``, or a game with secrets waiting for a phone), else ``game_lines()``."""
        show = self._current_show()
        join_seat = views.join_seat(game, page, seats.free_seat())
        # A takeover waits while the mat asks a question: A and B answer what is shown.
        waiting = None if views.asking(game) else seats.waiting()
        if waiting is not None:
            lines = outputs.takeover_lines(waiting.seat)
        elif show is not None:
            lines = show.lines
        elif join_seat is not None:
            lines = outputs.join_lines(join_seat)
        else:
            lines = game_lines()
        key = (lines, seats.token(join_seat) if join_seat else None)
        if key != self._key:
            self._key = key
            self.lines = lines
            if join_seat and show is None and waiting is None:
                self._image = screens.qr_screen(join_url(join_seat), outputs.join_caption(join_seat))
            else:
                self._image = screens.status_screen(lines[0], list(lines[1:]))
            self._hw.oled.display(self._image)
        scene = outputs.with_show(views.led_scene(game, occupancy), show)
        if scene != self._scene:
            self._scene = scene
            self._hw.animator.set_scene(dict(scene))

    def png(self, *, for_table: bool = True) -> bytes:
        """The OLED as a picture. A join QR code never leaves the table: on the Pi, and in the
        simulation for anyone but the table, the picture is drawn from the OLED's text lines
        (a join page says "Scan to join", without the code)."""
        if self._hw.sim is not None and for_table:
            image = self._hw.sim.i2c.image()
        else:
            lines = self.lines
            image = screens.status_screen(lines[0], list(lines[1:])) if lines else self._image
        out = io.BytesIO()
        image.save(out, format="PNG")
        return out.getvalue()
