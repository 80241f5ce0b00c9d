"""A deliberately naive second implementation of the rules, written from the rulebooks and
not from companion/rules/engine.py, so property tests can compare the two move by move.

It works on a dict of square -> piece letter and recomputes everything from the card
patterns; slow and obvious on purpose.
"""

from collections import Counter

from companion.rules.moves import Move
from companion.rules.position import Position, parse_position

TEMPLE = {"red": 22, "blue": 2}  # the square a master must reach to win by stream


def pieces(pos: Position) -> dict[int, str]:
    return {sq: p for sq in range(25) if (p := pos.piece_at(sq))}


def _dest(sq: int, off, color: str):
    sign = 1 if color == "red" else -1
    f, r = sq % 5 + sign * off[0], sq // 5 + sign * off[1]
    return r * 5 + f if 0 <= f < 5 and 0 <= r < 5 else None


def _own(letter: str, color: str) -> bool:
    return letter in ("Rr" if color == "red" else "Bb")


def _enemy(letter: str, color: str) -> bool:
    return letter in ("Bb" if color == "red" else "Rr")


def pawn_steps(board: dict, card, color: str):
    for sq, letter in sorted(board.items()):
        if not _own(letter, color):
            continue
        pattern = card.master_pattern() if letter.isupper() else card.student_pattern()
        options = [(o, "any") for o in pattern] + [(o, "empty") for o in card.move_only] + \
                  [(o, "capture") for o in card.capture_only]
        for off, need in options:
            t = _dest(sq, off, color)
            if t is None:
                continue
            there = board.get(t)
            if there is not None and (_own(there, color) or there == "W"):
                continue
            if need == "empty" and there is not None:
                continue
            if need == "capture" and (there is None or not _enemy(there, color)):
                continue
            yield sq, t


def spirit_steps(board: dict, offsets, color: str, empty_only=()):
    spirit = next((sq for sq, p in board.items() if p == "W"), None)
    if spirit is None:
        return
    for off in offsets:
        u = _dest(spirit, off, color)
        if u is not None and board.get(u) not in ("R", "B"):
            yield spirit, u
    for off in empty_only:
        u = _dest(spirit, off, color)
        if u is not None and u not in board:
            yield spirit, u


def step_pawn(board: dict, f: int, t: int) -> tuple[dict, bool]:
    """Move a pawn; return the new board and whether the move wins."""
    board = dict(board)
    letter = board.pop(f)
    captured = board.get(t)
    board[t] = letter
    color = "red" if letter in "Rr" else "blue"
    wins = captured in ("R", "B") or (letter in "RB" and t == TEMPLE[color])
    return board, wins


def step_spirit(board: dict, s: int, u: int) -> dict:
    board = dict(board)
    other = board.get(u)
    board[u] = "W"
    if other is None:
        del board[s]
    else:
        board[s] = other  # a student swaps with the Spirit
    return board


def legal_moves(pos: Position, cards) -> list[Move]:
    color = "red" if pos.turn == 0 else "blue"
    board = pieces(pos)
    out = []
    for name in pos.hands[pos.turn]:
        card = cards[name]
        if not card.is_wind_card:
            out += [Move(name, f, t) for f, t in pawn_steps(board, card, color)]
            out += [Move(name, s, u) for s, u in spirit_steps(board, card.student_pattern(), color,
                                                              card.move_only)]
            continue
        tops = list(pawn_steps(board, card, color))
        if not tops:
            out += [Move(name, None, None, s, u, True)
                    for s, u in spirit_steps(board, card.wind_moves, color)]
            continue
        for f, t in tops:
            after, wins = step_pawn(board, f, t)
            spirit = [] if wins else list(spirit_steps(after, card.wind_moves, color))
            out += [Move(name, f, t, s, u, True) for s, u in spirit] or [Move(name, f, t, None, None, True)]
    if not out:
        out = [Move(name) for name in pos.hands[pos.turn]]
    return out


def play(pos: Position, move: Move, cards) -> Position:
    """The position after a legal ``move``, from the rulebook's words."""
    board = pieces(pos)
    spirit_sq = pos.spirit
    if not move.is_pass:
        if move.from_sq is not None and move.from_sq == spirit_sq and not move.wind_card:
            board = step_spirit(board, move.from_sq, move.to_sq)
        else:
            if move.from_sq is not None:
                board, _ = step_pawn(board, move.from_sq, move.to_sq)
            if move.spirit_from is not None:
                board = step_spirit(board, move.spirit_from, move.spirit_to)
    rows = []
    for rank in range(4, -1, -1):
        row, gap = "", 0
        for file in range(5):
            letter = board.get(rank * 5 + file)
            if letter is None:
                gap += 1
            else:
                row += (str(gap) if gap else "") + letter
                gap = 0
        rows.append(row + (str(gap) if gap else ""))
    hand = list(pos.hands[pos.turn])
    hand[hand.index(move.card)] = pos.side[0]
    hands = list(pos.hands)
    hands[pos.turn] = tuple(hand)
    nxt = "blue" if pos.turn == 0 else "red"
    def names(cs):
        return ",".join(c.replace(" ", "-") for c in cs)
    return parse_position(f"{'/'.join(rows)} {nxt} {names(hands[0])} {names(hands[1])} "
                          f"{move.card.replace(' ', '-')}", cards)


def same_moves(a, b) -> bool:
    return Counter(a) == Counter(b)
