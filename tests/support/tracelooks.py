"""What a presence sensor can know of a turn, from the rules alone (the engine's positions,
never the recognizer's readings): the occupancy a turn leaves, the squares a hand must have
emptied, and the questions that follow when two histories leave the same mat (which card, move
or takeback, whose step). The trace generator (tracegen.py) expects and answers these."""

from __future__ import annotations

from companion.rules.board import Board
from companion.rules.moves import Move
from companion.rules.position import COLORS, Position
from companion.rules.squares import square_distance


def turn_afters(board: Board) -> dict[Move, Position]:
    """The position after each legal turn. ``legal_moves`` lists the engine's moves in the
    engine's order, so the two pair up without a search per move."""
    engine = board.engine
    st = engine.state(board.position)
    internal = engine.moves(st)
    moves = list(board.legal_moves)
    assert len(moves) == len(internal)
    return {m: engine.position(engine.apply(st, mv)) for m, mv in zip(moves, internal)}


def after_pawn_step(pos: Position, move: Move) -> Position:
    """A Wind Spirit card's pawn step alone (its Spirit step still to come)."""
    pieces = {sq: pos.piece_at(sq) for sq in range(25)}
    pieces[move.to_sq], pieces[move.from_sq] = pieces[move.from_sq], None
    red = sum(1 << sq for sq, p in pieces.items() if p in ("R", "r"))
    blue = sum(1 << sq for sq, p in pieces.items() if p in ("B", "b"))
    red_master = next((sq for sq, p in pieces.items() if p == "R"), -1)
    blue_master = next((sq for sq, p in pieces.items() if p == "B"), -1)
    return Position(red, blue, red_master, blue_master, pos.spirit, pos.turn, pos.hands, pos.side)


def occupancy_bits(pos: Position) -> int:
    """Occupancy as a bitmask: a cheap first filter before comparing looks."""
    return pos.red | pos.blue | (1 << pos.spirit if pos.spirit >= 0 else 0)


def changed_squares(before: Position, after: Position) -> frozenset[int]:
    """Squares occupied on both sides whose piece differs: a hand must have emptied them."""
    return frozenset(sq for sq in before.occupied() & after.occupied()
                     if before.piece_at(sq) != after.piece_at(sq))


def mat_looks(pos: Position, move: Move | None, after: Position, carried: bool = False) -> tuple:
    """What a presence sensor can know of a turn from ``pos`` to ``after`` (``move`` None for
    a pawn step alone): the occupancy afterwards, and the groups of squares a hand must have
    emptied, together when one act changes them (a swap). ``carried``: hands that carry a
    pawn straight to where its own Spirit step swaps it (the robot's) make such a turn one
    act."""
    if carried and move is not None and move.wind_card and move.to_sq == move.spirit_to:
        steps = [(pos, after)]
    elif move is not None and move.wind_card and move.from_sq is not None and move.spirit_from is not None:
        mid = after_pawn_step(pos, move)
        steps = [(pos, mid), (mid, after)]
    else:
        steps = [(pos, after)]
    end = steps[-1][1]
    groups = {changed_squares(a, b) for a, b in steps} - {frozenset()}
    covered = frozenset().union(*groups)
    groups |= {frozenset((sq,)) for sq in changed_squares(pos, end) - covered}
    return end.occupied(), frozenset(groups)


def prompt_for(pos: Position, cards: set[str], undo: Move | None = None) -> dict:
    prompt = {"seat": COLORS[pos.turn], "choose": [c for c in pos.hands[pos.turn] if c in cards]}
    if undo is not None:
        prompt["takeback"] = str(undo)
    return prompt


def ambiguity(board: Board, move: Move, afters: dict[Move, Position], *,
               undo: bool = True, carried: bool = False) -> dict | None:
    """The prompt due when the mat rests after ``move``: other turns that look the same to the
    mat (two cards), or the takeback, or None. ``afters``: the position after each legal turn.
    A Wind Spirit card that could still go on asks nothing: the turn is committed, and amended
    if its player goes on."""
    pos = board.position
    looks = mat_looks(pos, move, afters[move], carried)
    bits = occupancy_bits(afters[move])
    alike = [m for m, after in afters.items() if m != move and occupancy_bits(after) == bits
             and mat_looks(pos, m, after, carried) == looks]
    back = taken_back(board, move, afters[move], looks) if undo else None
    last = back[0] if back else None
    if not alike and last is None:
        return None
    cards = [m.card for m in alike]
    if move.card in cards or len(set(cards)) < len(cards):
        raise ValueError(f"{move}: the mat cannot tell it from {', '.join(map(str, alike))}, "
                         "not even with the card")
    return prompt_for(pos, {move.card, *cards}, last)


def taken_back(board: Board, move: Move, after: Position, looks: tuple) -> tuple[Move, int] | None:
    """The turn a mat also shows taken back, and how many turns back it is (``move``: the turn
    to play, ``after``: the position it leaves, ``looks``: its mat looks): the last turn, its
    steps undone; or a Wind Spirit card's turn before it, when the last turn moved the Spirit
    straight back along its Spirit step and ``move`` (a plain step) moves its pawn straight
    back, every piece where it stood before it: its mover taking it back Spirit first makes the
    same switches (rule 5; slides 44: Lion b1c2 c4c3, Mouse c3c4, Cobra c2b1 is Lion taken
    back); else None."""
    stack = board.move_stack
    if not stack or stack[-1].is_pass:
        return None
    pos = board.position
    prev = board.pop()
    try:
        if (board.position.occupied(), mat_looks(board.position, prev, pos)[1]) == looks:
            return prev, 1
        if not board.move_stack or not spirit_moved_back(board.position, prev, board.peek()):
            return None
        older = board.peek()
        pawn_back = (move.from_sq, move.to_sq) == (older.to_sq, older.from_sq) and move.spirit_from is None
        board.pop()
        try:
            start = board.position
            if pawn_back and all(start.piece_at(sq) == after.piece_at(sq)
                                                 for sq in start.occupied() | after.occupied()):
                return older, 2
            return None
        finally:
            board.push(older)
    finally:
        board.push(prev)


def spirit_moved_back(before: Position, move: Move, older: Move) -> bool:
    """Does ``move`` (played from ``before``) move the Spirit alone straight back along the
    Spirit step of ``older``, a Wind Spirit card's turn with a pawn step (the turn before it)?
    The mat is then also ``older`` being taken back by its mover, Spirit first (rule 5)."""
    return (spirit_only(before, move) and older.wind_card and older.from_sq is not None
            and older.spirit_from is not None
            and spirit_step(move) == (older.spirit_to, older.spirit_from))


def spirit_step(move: Move) -> tuple[int | None, int | None]:
    """Where a turn that moves the Spirit alone takes it from and to."""
    if move.wind_card:
        return move.spirit_from, move.spirit_to
    return move.from_sq, move.to_sq


def complete_cards(board: Board, move: Move, afters: dict[Move, Position]) -> list[Move]:
    """The complete turns that look like a Wind Spirit card's pawn step alone."""
    pos = board.position
    mid = after_pawn_step(pos, move)
    looks = mat_looks(pos, None, mid)
    return [m for m, after in afters.items()
            if occupancy_bits(after) == occupancy_bits(mid) and mat_looks(pos, m, after) == looks]


def step_looks(pos: Position, after: Position) -> tuple:
    return after.occupied(), changed_squares(pos, after)


def amendments(before: Position, done: Move) -> dict[Move, Position]:
    """The turns the mover of ``done`` (played from ``before``) may still amend it into: the
    same piece, another square (or the Wind Spirit card's Spirit step added)."""
    board = Board(before)
    origin = done.from_sq if done.from_sq is not None else done.spirit_from
    return {m: after for m, after in turn_afters(board).items() if m != done and not m.is_pass
            and (m.from_sq if m.from_sq is not None else m.spirit_from) == origin}


def spirit_only(pos: Position, move: Move) -> bool:
    """A turn that moves the Spirit alone (a regular card from its square, or a Wind Spirit
    card without a pawn step)."""
    if move.wind_card:
        return move.from_sq is None and move.spirit_from is not None
    return move.from_sq is not None and move.from_sq == pos.spirit


def move_squares(move: Move) -> set[int]:
    return {sq for sq in (move.from_sq, move.to_sq, move.spirit_from, move.spirit_to) if sq is not None}


def whose_step(window: tuple[Position, Move, Position] | None, board: Board, move: Move,
               afters: dict[Move, Position], carried: bool = False) -> dict | None:
    """The question due when ``move`` looks like the last mover amending their turn (going on
    with a Wind Spirit card, the Spirit or the pawn put elsewhere): whose step was it? Only
    while the window is open: a pawn of the player to move lifted away from every square an
    amendment uses closes it. ``carried``: as ``mat_looks`` (the robot's pawn carried straight
    to where its Spirit swaps it empties no square in between: robot 156)."""
    if window is None:
        return None
    before, done, pos = window
    amends = amendments(before, done)
    touched = move_squares(done).union(*(move_squares(m) for m in amends))
    if not spirit_only(pos, move) and move.from_sq is not None and move.from_sq not in touched:
        return None
    looks = step_looks(pos, afters[move])
    # The mover may also take the turn back for one of the Spirit alone (slide-over 6: Spider
    # d5c4 d4d5 retaken as Boar d4c4 looks like Red's Tanuki swapping the Spirit onto c4).
    retakes = {m: after for m, after in turn_afters(Board(before)).items()
               if m != done and not m.is_pass and spirit_only(before, m)}
    theirs = [m for m, after in {**amends, **retakes}.items() if step_looks(pos, after) == looks]
    # The explanation that accounts for more emptied squares wins: an amendment shows the
    # squares it changes; the turn, every square its own steps emptied (captures, swaps).
    shown = frozenset().union(*mat_looks(pos, move, afters[move], carried)[1])
    if not theirs or shown > looks[1]:
        return None
    ours = [m.card for m, after in afters.items() if step_looks(pos, after) == looks]
    prompt = prompt_for(before, {m.card for m in theirs})
    prompt["reply"] = {"seat": COLORS[pos.turn], "choose": [c for c in pos.hands[pos.turn] if c in ours]}
    return prompt


def near_squares(pos: Position, move: Move, afters: dict[Move, Position]) -> frozenset[int]:
    """Squares a turn (and a Wind Spirit card that could go on from it) touches: the next
    player's first lift ends the turn at once only elsewhere."""
    squares = {sq for sq in (move.from_sq, move.to_sq, move.spirit_from, move.spirit_to) if sq is not None}
    if move.from_sq is not None and move.spirit_from is None:
        for m in afters:
            if m.wind_card and (m.from_sq, m.to_sq) == (move.from_sq, move.to_sq):
                squares |= {m.spirit_from, m.spirit_to} - {None}
    return frozenset(squares)


def first_lift(move: Move) -> int | None:
    return move.from_sq if move.from_sq is not None else move.spirit_from
