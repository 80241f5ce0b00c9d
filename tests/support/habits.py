"""Habits of hands beyond the calm ones, one category each, so that a failure can be attributed.
The trace generator (tracegen.py) asks this module how the hands of a category choose a turn,
start it, make its steps and finish it; None means "as calm hands do".

What each category's hands do is in ``HABITS`` (the bench and docs/traces.md print it).
"""

from __future__ import annotations

from companion.rules.moves import Move
from companion.rules.position import Position

from hands import (EXCHANGE, HURRIED, KNOCKED, LONG_AIR, NUDGE, ONLOOKER, SET_DOWN_ANY, SLIDE,
                   SNATCH, TRAVEL)
from tracelooks import amendments, first_lift, spirit_only, spirit_step, turn_afters

HABITS = {
    "hurried": "the next player starts 50-150 ms after the mat rests, any piece, any capture order",
    "snatch": "a fast reply (50-250 ms) that starts by lifting the pawn it captures or the Spirit "
              "that the pending turn just placed",
    "set-down": "a pawn set down on a wrong empty square (legal or not) for 0.3-0.8 s, then "
                "moved on (captures too)",
    "aside-empty": "a captured pawn set down on an empty square (never the captor's origin, often "
                   "where the captured pawn's own move could have gone) for 0.2-0.9 s, then "
                   "removed, in either capture order",
    "takeback-wind": "turns taken back, Wind Spirit card turns and Spirit moves included, the "
                     "Spirit or the pawn first, swaps undone",
    "knock": "as the hand lifts its piece it knocks a neighbour (either colour, or the Spirit) "
             "off its switch for 0.3-2.5 s, then puts it back (also after the move has landed)",
    "spirit-back": "the Spirit moved by one player is moved straight back by the other (a "
                   "move-or-takeback question, answered at once or never)",
    "late-answer": "every question (which card, which card to give up, move or takeback, whose "
                   "step) answered on the phone after one or two further turns",
    "no-answer": "every question left unanswered when the next turns settle it (else answered "
                 "when they cannot, late)",
    "two-at-once": "two pawns lifted at once: the moving pawn with a neighbour put back later, or "
                   "the captured pawn with the captor",
    "nudge": "a pawn re-seated on its own square: the moved piece after it lands, or one of the "
             "player's pawns before the turn",
    "slide-over": "pieces slid along the mat over the squares between, occupied ones included",
    "air-touch": "a piece held 3-8 s in the air while the other player lifts and re-seats one of "
                 "their own pieces",
    "onlooker": "an onlooker's hand brushes pieces (5-150 ms off their switches) while players "
                "think and while a piece is in the air",
    "robot": "the table robot's hands, read at its 0.06 s settle time: a Wind Spirit card's "
             "Spirit lifted as its pawn lands (and maybe put back for 0.12 s), the pawn carried "
             "straight where its own Spirit step swaps it, a swap put down at once",
    "robot-hesitation": "the table robot's hands at its settle time, base or Wind, captures "
                        "favoured; the player to move, when the last turn's piece could have "
                        "captured one of their pawns instead, moves that pawn, lifting it and "
                        "putting it back for a moment first (a hesitation: the robot's base "
                        "computer 151)",
}
QUESTIONS = {"late-answer": "late", "no-answer": "never", "spirit-back": "mixed"}
FAST_STARTS = ("fast", "hurried", "snatch")
WIND_ONLY = ("spirit-back", "robot")   # categories whose habit needs the Wind Spirit on the board
ROBOTS = ("robot", "robot-hesitation")   # categories played with the table robot's hands


def choose(game, moves: list[Move]) -> Move:
    """The turn the player makes: the habit's favourite when it has one."""
    rng, board = game.rng, game.board
    favourites: list[Move] = []
    game.snatching = False
    game.hesitant = None
    if game.category == "robot-hesitation":
        return _hesitation(game, moves)
    if game.category == "spirit-back":
        favourites = _spirit_back(board, moves)
    elif game.category == "snatch":
        favourites = _snatches(board, moves)
        game.snatching = bool(favourites) and rng.random() < 0.8
        if game.snatching:
            return rng.choice(favourites)
        return rng.choice(moves)
    elif game.category in ("late-answer", "no-answer"):
        afters = turn_afters(board)
        favourites = [m for m in rng.sample(moves, min(len(moves), 12))
                      if game.calls_for_question(m, afters)]
    if favourites and rng.random() < 0.7:
        return rng.choice(favourites)
    return rng.choice(moves)


def _hesitation(game, moves: list[Move]) -> Move:
    """robot-hesitation's turn: a pawn the last turn's piece could have captured instead (an
    amendment of it), moved after a hesitation on its square (``game.hesitant``, which the
    robot's hands read); else a capture, most of the time."""
    rng, board = game.rng, game.board
    pos = board.position
    targets: set[int] = set()
    if board.move_stack and not board.peek().is_pass:
        last = board.pop()
        before = board.position
        board.push(last)
        targets = {m.to_sq for m in amendments(before, last)
                   if m.to_sq is not None and m.to_sq != pos.spirit}
    hesitant = [m for m in moves if m.from_sq in targets and not m.wind_card]
    if hesitant and rng.random() < 0.8:
        move = rng.choice(hesitant)
        game.hesitant = move.from_sq
        return move
    theirs = pos.blue if pos.turn == 0 else pos.red
    captures = [m for m in moves if m.to_sq is not None and theirs >> m.to_sq & 1]
    return rng.choice(captures if captures and rng.random() < 0.7 else moves)


def _spirit_back(board, moves: list[Move]) -> list[Move]:
    """The Spirit's last step undone by the player to move, or else a Spirit move to undo."""
    pos = board.position
    if pos.spirit < 0:
        return []
    if board.move_stack and not board.peek().is_pass:
        last = board.pop()
        before = board.position
        board.push(last)
        if spirit_only(before, last):
            frm, to = spirit_step(last)
            back = [m for m in moves if spirit_only(pos, m) and spirit_step(m) == (to, frm)]
            if back:
                return back
    return [m for m in moves if spirit_only(pos, m)]


def _snatches(board, moves: list[Move]) -> list[Move]:
    """Replies that start on a piece the pending turn just placed: capturing the pawn it moved,
    or moving the Spirit it placed."""
    if not board.move_stack or board.peek().is_pass:
        return []
    last = board.peek()
    pos = board.position
    placed = {sq for sq in (last.to_sq, last.spirit_to) if sq is not None}
    theirs = pos.blue if pos.turn == 0 else pos.red
    out = []
    for m in moves:
        if spirit_only(pos, m) and pos.spirit in placed and first_lift(m) == pos.spirit:
            out.append(m)
        elif (m.from_sq is not None and m.from_sq != pos.spirit and m.to_sq in placed
              and theirs >> m.to_sq & 1):
            out.append(m)
    return out


def start(game, move: Move) -> bool | None:
    """How soon the player starts (None: as calm hands think). Returns whether the first lift
    ends the last turn (a fast start elsewhere than its squares)."""
    hands, rng = game.hands, game.rng
    if game.category == "onlooker":
        hands.wait((0.6, 1.5))
        _brushes(game, rng.randint(1, 2))
        return None
    if game.category == "snatch" and game.snatching and game.fast_after is not None:
        hands.wait(SNATCH)
        return False
    if game.category == "hurried" and game.fast_after is not None and game.unanswered is None:
        hands.wait(HURRIED)
        return first_lift(move) not in game.fast_after
    if game.category == "nudge" and rng.random() < 0.3:
        own = _own(game, move)
        if own:
            game.window = None   # the player has started: the last move stands
            hands.wait((0.6, 2.0))
            sq = rng.choice(own)
            hands.lift(sq)
            hands.wait(NUDGE)
            hands.place(sq)
    return None


def _own(game, move: Move) -> list[int]:
    pos = game.board.position
    mine = pos.red if pos.turn == 0 else pos.blue
    used = {move.from_sq, move.to_sq, move.spirit_from, move.spirit_to}
    return [sq for sq in range(25) if mine >> sq & 1 and sq not in used]


def _brushes(game, count: int) -> None:
    hands, rng = game.hands, game.rng
    for _ in range(count):
        sq = rng.choice(sorted(hands.occupied - hands.away))
        hands.brush(sq, ONLOOKER)
        hands.wait((0.05, 0.4))


def pawn_step(game, move: Move, capture: bool) -> bool:
    """The habit's way of making a pawn step (True when made here)."""
    hands, rng, category = game.hands, game.rng, game.category
    frm, to = move.from_sq, move.to_sq
    if category == "snatch" and game.snatching and capture:
        hands.step(frm, to, capture=True, order="captured first")
    elif category == "aside-empty" and capture:
        _aside_empty(game, frm, to)
    elif category == "two-at-once" and rng.random() < 0.5:
        _two_at_once(game, move, capture)
    elif category == "air-touch" and rng.random() < 0.5:
        _air_touch(game, frm, to, capture)
    else:
        return piece_step(game, frm, to, capture)
    return True


def piece_step(game, frm: int, to: int, capture: bool) -> bool:
    """Habits that any step has (pawn or Spirit): knocks, slides, an onlooker's brush."""
    hands, rng, category = game.hands, game.rng, game.category
    if category == "set-down" and rng.random() < 0.7:
        _set_down(game, frm, to, capture)
        return True
    if category == "knock" and rng.random() < 0.6 and _knock_step(game, frm, to, capture):
        return True
    if category == "slide-over" and rng.random() < 0.6:
        _slide(game, frm, to, capture)
        return True
    if category == "onlooker" and rng.random() < 0.4:
        hands.lift(frm)
        hands.wait((0.1, 0.4))
        _brushes(game, 1)
        hands.travel(frm, to)
        _land(hands, to, capture)
        return True
    return False


def _land(hands, to: int, capture: bool) -> None:
    if capture:
        hands.lift(to)
        hands.wait(EXCHANGE)
    hands.place(to)


def _set_down(game, frm: int, to: int, capture: bool) -> None:
    """The piece set down on a wrong empty square for a while, then moved on: often where
    another legal turn would take it, else near its destination."""
    hands, rng = game.hands, game.rng
    empty = [sq for sq in range(25) if sq not in hands.occupied and sq not in (frm, to)]
    legal = sorted({m.to_sq for m in game.board.legal_moves if m.from_sq == frm} & set(empty))
    near = [sq for sq in empty if max(abs(sq % 5 - to % 5), abs(sq // 5 - to // 5)) <= 2] or empty
    if legal and rng.random() < 0.6:
        near = legal
    hands.lift(frm)
    hands.travel(frm, to)
    if near:
        wrong = rng.choice(near)
        hands.place(wrong)
        hands.wait(SET_DOWN_ANY)
        if frm == game.board.position.spirit:
            game.rested_on_the_way()   # the Spirit: the next player may move it on
        hands.lift(wrong)
        hands.wait(TRAVEL)
    _land(hands, to, capture)


def _aside_empty(game, frm: int, to: int) -> None:
    """The captured pawn set down on an empty square for a moment, then off the mat."""
    hands, rng, board = game.hands, game.rng, game.board
    own_first = rng.random() < 0.5
    if own_first:
        hands.lift(frm)
        hands.travel(frm, to)
        hands.lift(to)
        hands.wait(EXCHANGE)
        hands.place(to)
    else:
        hands.lift(to)
    hands.wait((0.05, 0.4))
    empty = [sq for sq in range(25) if sq not in hands.occupied and sq not in (frm, to)]
    # Where the captured pawn's own last move could have gone: an amendment to the mat.
    tempting: list[int] = []
    if board.move_stack and not board.peek().is_pass and board.peek().to_sq == to:
        last = board.pop()
        tempting = [m.to_sq for m in amendments(board.position, last) if m.to_sq in empty]
        board.push(last)
    aside = rng.choice(tempting) if tempting and rng.random() < 0.6 else rng.choice(empty)
    hands.place(aside)
    hands.wait((0.2, 0.9))
    hands.lift(aside)
    if not own_first:
        hands.wait((0.1, 0.5))
        hands.lift(frm)
        hands.travel(frm, to)
        hands.place(to)


def _knock_step(game, frm: int, to: int, capture: bool) -> bool:
    hands, rng = game.hands, game.rng
    pos = game.board.position
    near = [sq for sq in sorted(hands.occupied - hands.away)
            if sq not in (frm, to) and max(abs(sq % 5 - frm % 5), abs(sq // 5 - frm // 5)) == 1]
    if not near:
        return False
    theirs = pos.blue if pos.turn == 0 else pos.red
    opponents = [sq for sq in near if theirs >> sq & 1]
    knocked = rng.choice(opponents if opponents and rng.random() < 0.5 else near)
    hands.lift(frm)
    hands.wait((0.01, 0.1))
    hands.knock(knocked, KNOCKED)
    hands.travel(frm, to)
    _land(hands, to, capture)
    hands.finish()   # put back before the hand goes on (a Wind Spirit card's second step)
    return True


def _path(frm: int, to: int) -> list[int]:
    """The squares a piece slid from ``frm`` to ``to`` passes over (one step at a time)."""
    x, y = frm % 5, frm // 5
    out = []
    while True:
        x += (to % 5 > x) - (to % 5 < x)
        y += (to // 5 > y) - (to // 5 < y)
        if y * 5 + x == to:
            return out
        out.append(y * 5 + x)


def _slide(game, frm: int, to: int, capture: bool) -> None:
    hands = game.hands
    hands.lift(frm)
    for sq in _path(frm, to):
        hands.wait(SLIDE)
        if sq in hands.occupied:
            hands.chatter(sq)
        elif sq not in hands.away:
            hands.place(sq)
            hands.wait(SLIDE)
            hands.lift(sq)
    hands.wait(SLIDE)
    if capture:
        hands.chatter(to)
        hands.wait((0.05, 0.3))
    _land(hands, to, capture)


def _two_at_once(game, move: Move, capture: bool) -> None:
    hands, rng = game.hands, game.rng
    frm, to = move.from_sq, move.to_sq
    if capture:
        hands.lift(to)
        hands.wait((0.0, 0.03))
        hands.lift(frm)
        hands.travel(frm, to)
        hands.place(to)
        return
    own = [sq for sq in _own(game, move) if max(abs(sq % 5 - frm % 5), abs(sq // 5 - frm // 5)) == 1]
    if not own:
        hands.step(frm, to, capture=False)
        return
    other = rng.choice(own)
    first, second = rng.sample((frm, other), 2)
    hands.lift(first)
    hands.wait((0.0, 0.03))
    hands.lift(second)
    if rng.random() < 0.5:
        hands.wait((0.1, 1.0))
        hands.place(other)
        hands.travel(frm, to)
        hands.place(to)
    else:
        hands.travel(frm, to)
        hands.place(to)
        hands.wait((0.1, 1.0))
        hands.place(other)


def _air_touch(game, frm: int, to: int, capture: bool) -> None:
    """A piece held in the air while the other player lifts and re-seats one of theirs."""
    hands, rng = game.hands, game.rng
    pos = game.board.position
    theirs = pos.blue if pos.turn == 0 else pos.red
    touchable = [sq for sq in range(25) if (theirs >> sq & 1 or sq == pos.spirit)
                 and sq not in (frm, to) and sq in hands.occupied]
    air = rng.uniform(*LONG_AIR)
    end = hands.now + air
    hands.lift(frm)
    hands.wait((0.5, 2.0))
    if touchable:
        sq = rng.choice(touchable)
        hands.lift(sq)
        hands.wait((0.2, 1.0))
        hands.place(sq)
        if capture and theirs >> sq & 1:
            # The mat shows the held piece taking the piece re-seated (air-touch 1).
            game.air_read = {m for m in game.board.legal_moves
                             if (m.from_sq, m.to_sq) == (frm, sq) and not m.wind_card}
    hands.until(max(end, hands.now + 0.3))
    _land(hands, to, capture)


def after_landing(game, move: Move) -> None:
    """The mover re-seats the piece just moved (nudge)."""
    hands, rng = game.hands, game.rng
    if game.category != "nudge" or rng.random() < 0.6:
        return
    last = move.spirit_to if move.wind_card and move.spirit_to is not None else move.to_sq
    if last is None or last not in hands.occupied:
        return
    hands.wait((0.1, 0.3))
    hands.lift(last)
    hands.wait(NUDGE)
    hands.place(last)


def rearrange(game, before: Position, after: Position, spirit_first: bool) -> None:
    """The hands take the mat from ``before`` to ``after`` piece by piece (a takeback): each
    piece lifted and put where it belongs, held while its square is still taken; the Spirit
    first or last."""
    hands = game.hands
    sources: dict[str, list[int]] = {}
    targets: dict[str, list[int]] = {}
    for sq in range(25):
        a, b = before.piece_at(sq), after.piece_at(sq)
        if a != b:
            if a is not None:
                sources.setdefault(a, []).append(sq)
            if b is not None:
                targets.setdefault(b, []).append(sq)
    plan: list[tuple[int | None, int | None]] = []
    for piece in sorted(set(sources) | set(targets), key=lambda p: ((p == "W") != spirit_first, p)):
        src, dst = sources.get(piece, []), targets.get(piece, [])
        for i in range(max(len(src), len(dst))):
            plan.append((src[i] if i < len(src) else None, dst[i] if i < len(dst) else None))
    held: list[int] = []
    for i, (src, dst) in enumerate(plan):
        if src is not None:
            if i:
                hands.wait((0.15, 0.6))   # the hand comes back for the next piece
            hands.lift(src)
            hands.wait((0.1, 0.4))
        if dst is not None:
            held.append(dst)
        for sq in list(held):
            if sq not in hands.occupied:
                hands.wait(TRAVEL)
                hands.place(sq)
                held.remove(sq)
    for sq in held:
        hands.wait(TRAVEL)
        hands.place(sq)
