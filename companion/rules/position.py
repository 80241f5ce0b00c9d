"""Positions of the main board and their string form (``docs/positions.md``).

A position is what the table shows: pawns, the Wind Spirit, whose turn it is and where every
card lies. Hidden Ninjas are never part of it. Pieces are kept as bitmasks over squares
(bit ``sq`` set = a pawn on ``sq``) because the move generator works on them directly.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CARDS, CardTable, notation_name
from .errors import CardError, PositionError
from .squares import square_name

RED, BLUE = 0, 1
COLORS = ("red", "blue")
NO_SQUARE = -1
# A side that plays without a master (the Shadow Master in Way of the Light): unlike a master
# captured (NO_SQUARE), its absence wins nothing for the other side.
ABSENT = -2
# The Temple Arch each colour starts on: a master reaching the opponent's one wins.
TEMPLE = (2, 22)  # c1 (Red's), c5 (Blue's)


def color_index(name: str) -> int:
    try:
        return COLORS.index(name)
    except ValueError:
        raise ValueError(f"{name!r} is not a colour (red or blue)") from None


@dataclass(frozen=True, slots=True)
class Position:
    red: int                       # squares of Red's pawns, the master included
    blue: int
    red_master: int                # NO_SQUARE once captured, ABSENT in a mode without one
    blue_master: int
    spirit: int                    # NO_SQUARE when the Wind Spirit is not in the game
    turn: int                      # RED or BLUE
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    side: tuple[str, ...]          # the card(s) beside the mat, waiting to be taken

    def pawns(self, color: int) -> int:
        return self.blue if color else self.red

    def master(self, color: int) -> int:
        return self.blue_master if color else self.red_master

    def piece_at(self, sq: int) -> str | None:
        """``R``/``r``/``B``/``b``/``W`` as in the position string, or None for empty."""
        bit = 1 << sq
        if self.red & bit:
            return "R" if sq == self.red_master else "r"
        if self.blue & bit:
            return "B" if sq == self.blue_master else "b"
        if sq == self.spirit:
            return "W"
        return None

    def occupied(self) -> frozenset[int]:
        """The squares a presence sensor sees taken (pawns and the Wind Spirit)."""
        bits = self.red | self.blue | ((1 << self.spirit) if self.spirit >= 0 else 0)
        return frozenset(sq for sq in range(25) if bits >> sq & 1)

    def winner(self) -> tuple[int, str] | None:
        """``(colour, "stone" | "stream")`` when the board shows a finished game."""
        if self.red_master == NO_SQUARE:
            return BLUE, "stone"
        if self.blue_master == NO_SQUARE:
            return RED, "stone"
        if self.red_master == TEMPLE[BLUE]:
            return RED, "stream"
        if self.blue_master == TEMPLE[RED]:
            return BLUE, "stream"
        return None

    def cards(self) -> tuple[str, ...]:
        return self.hands[0] + self.hands[1] + self.side

    def __str__(self) -> str:
        return format_position(self)


def format_board(pos: Position) -> str:
    ranks = []
    for rank in range(4, -1, -1):
        text, empty = "", 0
        for file in range(5):
            piece = pos.piece_at(rank * 5 + file)
            if piece is None:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += piece
        ranks.append(text + (str(empty) if empty else ""))
    return "/".join(ranks)


def format_position(pos: Position) -> str:
    def names(cards: tuple[str, ...]) -> str:
        return ",".join(notation_name(c) for c in cards)
    return " ".join((format_board(pos), COLORS[pos.turn], names(pos.hands[RED]),
                     names(pos.hands[BLUE]), names(pos.side)))


def _parse_board(text: str) -> dict[int, str]:
    ranks = text.split("/")
    if len(ranks) != 5:
        raise PositionError("board", f"expected 5 ranks separated by '/', got {len(ranks)}")
    pieces: dict[int, str] = {}
    for i, rank_text in enumerate(ranks):
        rank = 4 - i
        file = 0
        for ch in rank_text:
            if ch in "12345":
                file += int(ch)
            elif ch in "RrBbW":
                if file < 5:
                    pieces[rank * 5 + file] = ch
                file += 1
            else:
                raise PositionError("board", f"rank {rank + 1}: {ch!r} is not a piece (R r B b W) or 1-5")
            if file > 5:
                raise PositionError("board", f"rank {rank + 1}: {rank_text!r} has more than 5 squares")
        if file != 5:
            raise PositionError("board", f"rank {rank + 1}: {rank_text!r} has {file} squares, not 5")
    counts = {ch: sum(1 for p in pieces.values() if p == ch) for ch in "RrBbW"}
    for ch, most, what in (("R", 1, "Red masters"), ("B", 1, "Blue masters"), ("W", 1, "Wind Spirits"),
                           ("r", 4, "Red students"), ("b", 4, "Blue students")):
        if counts[ch] > most:
            raise PositionError("board", f"{counts[ch]} {what}; at most {most}")
    if not counts["R"] and not counts["B"]:
        raise PositionError("board", "neither master is on the board")
    return pieces


def board_pieces(text: str) -> dict[int, str]:
    """The pieces of a position string's board field, ``{square: letter}``: enough to compare
    with a mat in variants whose card fields hold more than the base game's."""
    return _parse_board(text.split()[0] if isinstance(text, str) and text.split() else "")


def _parse_cards(field: str, text: str, cards: CardTable) -> tuple[str, ...]:
    if not text:
        raise PositionError(field, "no card named")
    names = []
    for name in text.split(","):
        try:
            names.append(cards[name].name)
        except CardError:
            raise PositionError(field, f"unknown card {name!r}") from None
    return tuple(names)


def parse_position(text: str, cards: CardTable = CARDS) -> Position:
    """Parse ``<board> <turn> <red cards> <blue cards> <side card>``."""
    if not isinstance(text, str):
        raise PositionError("string", "a position must be text")
    fields = text.split()
    if len(fields) != 5:
        raise PositionError("string", f"expected 5 fields (board, turn, red cards, blue cards, "
                                      f"side card), got {len(fields)}")
    board_text, turn_text, red_text, blue_text, side_text = fields
    pieces = _parse_board(board_text)
    if turn_text not in COLORS:
        raise PositionError("turn", f"{turn_text!r} is not 'red' or 'blue'")
    red_hand = _parse_cards("red cards", red_text, cards)
    blue_hand = _parse_cards("blue cards", blue_text, cards)
    side = _parse_cards("side card", side_text, cards)
    if len(red_hand) != len(blue_hand):
        raise PositionError("blue cards", f"Red holds {len(red_hand)} cards and Blue {len(blue_hand)}")
    if len(side) != 1:
        raise PositionError("side card", f"expected one card, got {len(side)}")
    everything = red_hand + blue_hand + side
    for i, name in enumerate(everything):
        if name in everything[:i]:
            raise PositionError("cards", f"{name} is dealt twice")
    has_spirit = "W" in pieces.values()
    for name in everything:
        if cards[name].is_wind_card and not has_spirit:
            raise PositionError("cards", f"{name} is a Wind Spirit card but the board has no Wind Spirit")

    def bits(chars: str) -> int:
        return sum(1 << sq for sq, ch in pieces.items() if ch in chars)

    def find(ch: str) -> int:
        return next((sq for sq, p in pieces.items() if p == ch), NO_SQUARE)

    return Position(red=bits("Rr"), blue=bits("Bb"), red_master=find("R"), blue_master=find("B"),
                    spirit=find("W"), turn=color_index(turn_text),
                    hands=(red_hand, blue_hand), side=side)


def describe_square(pos: Position, sq: int) -> str:
    """Human words for what stands on ``sq`` (used in error messages)."""
    piece = pos.piece_at(sq)
    words = {"R": "Red's master", "r": "a Red student", "B": "Blue's master",
             "b": "a Blue student", "W": "the Wind Spirit", None: "nothing"}
    return f"{words[piece]} on {square_name(sq)}"
