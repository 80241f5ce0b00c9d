"""The shapes of what the service publishes: the public view, a seat's view (the public one
with the seat's own parts), and the simulated hardware's state the simulation page streams.

Built by :mod:`.views` (the views), :mod:`.headlines` and :mod:`.instructions` (their words)
and :mod:`.hands` (the simulated mat); sent as JSON by the web layer. Typed here so that a key
misspelt or a part of the wrong shape is mypy's to find, not a page's. The ``table`` part is
the referee's own view (``companion.rules``: each way's referee says what it shows) and stays
a JSON object here.
"""

# No ``from __future__ import annotations``: the types are read at run time too (their
# ``__required_keys__``), and NotRequired is seen only in annotations that are evaluated.
from typing import Any, NotRequired, TypedDict

from ..rules.results import ResultWords
from .saved import GameEntry

RefereeView = dict[str, Any]    # the referee's view of the game (companion.rules.referee)


class Said(TypedDict):
    """Two lines of words: a phone's headline, the table page's instruction."""
    title: str
    detail: str


class ExpectedView(TypedDict):
    seat: str
    by: str
    text: str
    words: str


class GameView(TypedDict):
    """A view's ``game``: the game's public facts."""
    id: int
    way: str
    variant: str            # the older name of "way", still sent for pages and scripts
    sets: list[str]
    status: str
    computer: dict[str, str]
    remote: list[str]
    table: list[str]         # seats played at another table (companion.link)
    hints: int
    thinking: bool
    handed_back: str | None  # a computer seat that could not move, now a person's (until it has)
    expected: ExpectedView | None


class SetupView(TypedDict):
    """A view's ``setup``: the deal to lay out."""
    board: str
    red: list[str]
    blue: list[str]
    side: str
    first: str
    ninjas: bool


class ReplyView(TypedDict):
    """"Whose step was it?": the other seat may answer that the step was theirs."""
    seat: str
    choose: list[str]
    buttons: dict[str, str]
    turns: dict[str, int]     # card -> the turn its answer names (see PromptView)


class PromptView(TypedDict):
    """The recognizer's question for a seat, with the mat's buttons that answer it."""
    seat: str
    choose: list[str]
    buttons: dict[str, str]   # card -> "A", "B" (or "C" for the reply's one card)
    # card (or "takeback") -> the number of the turn its answer says something of, which the
    # phone sends with it (the recognizer's ``turn_of``): an answer sent as the question
    # changes is kept for that turn, never taken for another that offers the same card.
    turns: dict[str, int]
    question: str
    takeback: NotRequired[str]
    reply: NotRequired[ReplyView]


class SpiritView(TypedDict):
    """The last move's mover (``seat``) may still make the Spirit step of a Wind Spirit card
    (``cards``): the pawn step read as a regular card's turn is also that card's first step."""
    seat: str
    cards: list[str]


class MatView(TypedDict):
    """What the mat shows: ``ok``, ``moving``, ``prompt``, ``mismatch`` or ``setup``; the
    squares out of step and each misplaced pawn paired with where it goes; ``reason``: the
    rule a pawn moved where no card allows breaks; ``spirit``: a Spirit step may still follow."""
    state: str
    prompt: PromptView | None
    wrong: list[str]
    pairs: list[list[str]]
    reason: NotRequired[str]
    spirit: NotRequired[SpiritView]


class HintsView(TypedDict):
    """A seat's own hints: how many are left, whether one is on (its grades, and a solved
    position's outcomes in words, ``{from: {to: words}}``) or being worked out."""
    left: int
    on: bool
    asking: bool
    grades: dict[str, dict[str, str]] | None
    exact: dict[str, dict[str, str]] | None


class View(TypedDict, total=False):
    """An audience's view. Always there once published: ``version``, ``game``, ``setup``,
    ``table``, ``mat``, ``oled``, ``ways``, ``variants``, ``sets``, ``seats``; the others when
    they apply (``result_words``: with a game) (``hints``, ``notice`` and ``headline``: a seat's view only; ``instruction``
    and ``buttons``: the public one). Before the first is published: ``starting``."""
    version: int
    starting: bool
    game: GameView | None
    setup: SetupView | None
    table: RefereeView | None
    result_words: ResultWords | None   # the game's result as the pages say it
    mat: MatView | None
    oled: list[str]
    ways: list[str]
    variants: list[str]       # the older name of "ways"
    sets: dict[str, str]      # a card set's name -> what it is
    seats: dict[str, bool]    # which seats a phone holds
    takeover: bool            # another phone asks for this seat
    instruction: Said | None
    hints: HintsView | None
    unsaved: str | None       # why the last change is not on the disk
    buttons: dict[str, str]
    notice: str
    headline: Said


class ListedGame(GameEntry):
    """A game in the list the pages show: its header without what the save file keeps
    secret, and its finished turns (None when its record no longer replays)."""
    turns: int | None


class Reply(TypedDict):
    """The answer to a request a page or a phone sends (``Companion.submit``): done, and what
    the page needs next: the new game's id, the hints left, that the move waits for the mat, or
    that an answer is kept for the turn it names (the mat asks about another now)."""
    ok: bool
    game: NotRequired[int]
    left: NotRequired[int]
    on_mat: NotRequired[bool]
    kept: NotRequired[bool]


class SimState(TypedDict):
    """The simulated hardware, streamed to the simulation page: the pawns on the mat and what
    the LED strip shows (square or edge group -> RGB), with its count of frames written."""
    pawns: list[str]
    leds: dict[str, list[int]]
    edges: dict[str, list[int]]
    frame: int
