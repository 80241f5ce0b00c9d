"""The table's own outputs: the OLED and the LED animator, driven from the game thread.

Announcements (a Strike, a Lantern) hold the OLED and their squares one after another, over
the normal picture. The OLED is drawn and the scene handed to the animator only when they
change. The words and scenes themselves come from :mod:`.outputs` and :mod:`.views`.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from dataclasses import replace

from firmware import screens
from firmware.hardware import Hardware

from ..rules.referee import SEATS
from ..mat import oled
from . import outputs, views
from .seats import Seats
from .publicgame import PublicGame


class Display:
    def __init__(self, hardware: Hardware, wifi: tuple[str, str] | None = None,
                 version: Callable[[], object] = lambda: None):
        self._hw = hardware
        self._version = version               # the game's version now (news of a turn is of it)
        self._wifi = wifi                     # (network name, WIFI: payload): the table's own
        self.shown: str | None = None         # the QR code on the OLED: "wifi", a seat, None
        self._shows: list[outputs.Show] = []
        self._key: tuple[object, ...] | None = None
        self._scene: tuple[object, ...] | None = None
        self.lines: outputs.Lines = ()        # what the OLED says now (the views carry it)
        self.takeover: str | None = None      # the seat a new phone asks for, on the OLED now
        self._image = screens.status_screen(oled.STARTING[0], list(oled.STARTING[1:]))

    def announce(self, shows: list[outputs.Show]) -> None:
        # Copies: a show keeps the time it ends, and the same constant (NO_HINT_SHOW) may be
        # announced again once that time has passed. News of a turn is of the game as it is
        # when it is announced, not when it is first drawn: a takeback and the turn made
        # instead, read in one go, are drawn together, and the takeback is old news by then.
        version = self._version()
        self._shows += [replace(show, until=0.0, version=version if show.turn else None)
                        for show in shows]

    def deadline(self) -> float | None:
        """When the announcement on show ends, if one is."""
        return self._shows[0].until if self._shows and self._shows[0].until else None

    def _current_show(self, game: PublicGame | None) -> outputs.Show | None:
        now = time.monotonic()
        version = game.version if game is not None else None
        # News of a turn that is over is dropped, not shown late on the next one.
        self._shows = [show for show in self._shows if not show.turn or show.version == version]
        while self._shows:
            show = self._shows[0]
            if not show.until:
                show.until = now + show.seconds
            if now < show.until:
                return show
            self._shows.pop(0)
        return None

    def update(self, game: PublicGame | None, *, occupancy: frozenset[int], seats: Seats,
               page: int, game_lines: Callable[[], outputs.Lines],
               join_url: Callable[[str], str]) -> None:
        """Draw what the table shows now: a takeover question, an announcement, the Wi-Fi or
        a join code (``page``, or a game with secrets waiting for phones), else ``game_lines()``."""
        show = self._current_show(game)
        computer = frozenset(game.seating.computer) if game is not None else frozenset()
        target = views.join_seat(game, page, seats.free_seat(), wifi=self._wifi is not None,
                                 joined=any(seats.held().values()), computer=computer)
        # A takeover waits while the mat asks a question: A and B answer what is shown.
        waiting = None if views.asking(game) else seats.waiting()
        self.takeover = None if waiting is None else waiting.seat
        if waiting is not None:
            lines = oled.takeover_lines(waiting.seat)
        elif show is not None:
            lines = outputs.with_next(show.lines, game_lines())
        elif target == "wifi" and self._wifi is not None:
            lines = oled.wifi_lines(self._wifi[0])
        elif target is not None:
            lines = oled.join_lines(target)
        else:
            lines = game_lines()
        lines = outputs.page_now(lines, time.monotonic())     # a text longer than the screen pages
        self.shown = target if show is None and waiting is None else None
        self._draw_oled(lines, seats.token(target) if target in SEATS else None, join_url)
        self._draw_leds(game, occupancy, show)

    def _draw_oled(self, lines: outputs.Lines, token: object, join_url: Callable[[str], str]) -> None:
        """The OLED's picture, drawn again only when its text or the join code changed."""
        key = (lines, token)
        if key == self._key:
            return
        self._key = key
        self.lines = lines
        if self.shown == "wifi" and self._wifi is not None:
            self._image = screens.wifi_screen(self._wifi[1], oled.wifi_caption(self._wifi[0]))
        elif self.shown is not None:
            self._image = screens.qr_screen(join_url(self.shown), oled.join_caption(self.shown))
        else:
            self._image = screens.status_screen(lines[0], list(lines[1:]))
        self._hw.oled.display(self._image)

    def _draw_leds(self, game: PublicGame | None, occupancy: frozenset[int],
                   show: outputs.Show | None) -> None:
        lights = views.led_scene(game, occupancy)
        if show is not None and views.hand_on_mat(game):
            # The player to move holds a piece: its destinations are what they need now, so an
            # announcement's squares (a Lantern's sweep, a Strike's blink) go under them.
            show = replace(show, scene={sq: e for sq, e in show.scene.items() if sq not in lights})
        scene = outputs.with_show(lights, show)
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
