"""What the histories that explain the mat say, apart from the recognizer's state: which of
them the mat's rests allow, the next player's Wind Spirit card half made, how far histories
agree, the labels the piece maps are ranked by, and the Spirit step a turn may still take."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ..rules.engine import Engine
from ..rules.moves import Move
from ..rules.position import COLORS
from .asking import STEP, TAKEBACK, Question
from .histories import Explanation, Node, Tree, cheapest
from .expecting import Expected, expected_of
from .glimpses import rested_boards
from .moment import Moment
from .pieces import PIECES, PUT_BACK, Held, PieceMap, PieceMaps
from .readings import pieces_of
from .record import Record
from .undoing import steps, undoes
from .window import move_of


def rested_ends(found: list[Explanation], record: Record, lifts: list[tuple[float, int]],
                shown: list[float], rested: list[tuple[float, frozenset[int]]],
                amended: bool = False) -> list[Explanation]:
    """The histories of ``found`` whose turns each end on a board the mat rested on (see
    :func:`.resting.seen_at_rest`); ``amended``: the turns they put in place of published
    ones too, on the same rests."""
    boards = rested_boards(record, lifts, shown, rested)
    opened = record.moves_open()
    return [e for e in found if all(n.occupancy in boards for n in between(
        e.node, agreement(e.node.moves, opened) if amended else len(opened)))]



def unseen(found: list[Explanation], seen: list[Explanation]) -> list[Node]:
    """The histories of ``found`` that ``seen_at_rest`` put after ``seen``."""
    kept = {id(e) for e in seen}
    return [e.node for e in found if id(e) not in kept]


def refollow(old: Tree, new: Tree, nodes: list[Node], done: tuple[Move, ...]) -> list[Node]:
    """``nodes`` of ``old`` that begin with the turns ``done``, in ``new`` (anchored after
    them)."""
    n = len(done)
    kept = (old.follow(x.moves) for x in nodes if x.moves[:n] == done)
    return [k for k in (new.follow(x.moves[n:]) for x in kept if x) if k]


def wind_halves(every: list[Explanation], found: list[Explanation], nodes: list[Node],
                opened: tuple[Move, ...]) -> tuple[list[Node], list[Node]]:
    """The next player's Wind Spirit cards half made from the game as published (``opened``):
    those about as likely as the cheapest reading ``found`` (an amendment is not read over
    them), and every one grown."""
    least = found[0].cost + PUT_BACK if found else -1
    likely = [e.node for e in every
              if e.node.pending is not None and e.cost <= least and _after(e.node, opened)]
    return likely, [n for n in nodes if n.pending is not None and n.moves == opened]


def held_by(found: list[Explanation]) -> Held | None:
    """The board before the last turn of the first history ``found`` and the square that
    turn lifted its first piece off (its pawn's, or the Spirit's), if it has one (see
    ``pieces.holding``)."""
    node = found[0].node if found else None
    if node is None or node.parent is None or not node.moves:
        return None
    move = node.moves[-1]
    origin = move.from_sq if move.from_sq is not None else move.spirit_from
    return None if origin is None else (node.parent.pieces, origin)


def _after(node: Node, opened: tuple[Move, ...]) -> bool:
    """Is ``node``'s card half made right after the published game, or after one turn more
    that nothing published yet (a reply under a question: spirit-back 36, Blue's Wind card
    made after Red moved the Spirit straight back, unanswered)?"""
    return node.moves[:len(opened)] == opened and len(node.moves) <= len(opened) + 1


def half_squares(halves: list[Node]) -> set[int]:
    """The squares Wind Spirit cards half made go on from: their pawn step's, their Spirit's."""
    return {sq for n in halves if n.pending is not None
            for sq in (n.pending.from_sq, n.pending.to_sq, n.pending.spirit_from)
            if sq is not None}


def half_made(halves: list[Node], maps: list[PieceMap]) -> str | None:
    """The seat whose Wind Spirit card's pawn step (of ``halves``) stands on the mat in one
    of ``maps``, with the pieces its Spirit step moves in the hand, or None."""
    for n in halves:
        assert n.pending is not None
        f, to = n.pending.from_sq, n.pending.to_sq
        if f is None or to is None:
            continue
        for m in maps:
            if (m.pieces[f] is None and m.pieces[to] == n.pieces[to]
                    and all(p is None or p == q for p, q in zip(m.pieces, n.pieces))):
                return COLORS[n.position.turn]
    return None


def agreement(moves: tuple[Move, ...], opened: tuple[Move, ...]) -> int:
    """How many of the published open moves a history keeps, from the first."""
    n = 0
    while n < min(len(moves), len(opened)) and moves[n] == opened[n]:
        n += 1
    return n


def shown_at(shown: list[float], kept: int) -> float:
    """When the mat showed the ``kept``-th published turn of ``shown`` (-inf if none)."""
    return shown[kept - 1] if 0 < kept <= len(shown) else float("-inf")


def before_turn(node: Node, i: int) -> Node:
    """``node``'s history after its first ``i`` turns (a turn part-way counts as not made)."""
    root = node.parent if node.pending is not None and node.parent is not None else node
    while root.parent is not None and len(root.moves) > i:
        root = root.parent
    return root


def common_prefix(paths: list[tuple[Move, ...]]) -> int:
    """How many turns, from the first, every history of ``paths`` has alike."""
    common = 0
    while all(len(p) > common for p in paths) and len({p[common] for p in paths}) == 1:
        common += 1
    return common


def asked_again(stood: int, question: Question | None, passing: bool,
                explained: list[Node]) -> int | None:
    """Turns held open for an answer stood (``stood`` of them, the mat having changed): the
    open question, asked from the anchor before, is asked again from the anchor now, about
    the turns the ``explained`` histories agree on (an answer to the old one would miss the
    histories grown since: spirit-back 167's last six turns); None if nothing is asked."""
    if not stood or question is None or passing or len(explained) < 2:
        return None
    return common_prefix([node.moves for node in explained])


def expected(tree: Tree, record: Record) -> Expected:
    """The labels the piece maps are ranked by: the game as published, and after each turn
    from it (the next hands may be making one: a capture's or a swap's labels). The last
    mover's other turns are not among them: their labels let a relabelling no edge asked
    for crowd out the truth (fast 38, hurried 0)."""
    node = tree.follow(record.moves_open())
    boards = [pieces_of(record.position)]
    if node is not None:
        boards += tree.moves_from(node.position).boards()
    return expected_of(boards)


def may_follow(tree: Tree, record: Record) -> tuple[str, tuple[str, ...]] | None:
    """The last open move, read as a regular card's, is also the pawn step of a Wind Spirit
    card its mover may still go on with: the mover and those cards; else None."""
    opened = record.moves_open()
    if not opened:
        return None
    before, move = tree.follow(opened[:-1]), opened[-1]
    if before is None or move.spirit_from is not None:
        return None
    cards = tuple(dict.fromkeys(
        m.card for m in tree.moves_from(before.position).moves
        if m.wind_card and m.spirit_from is not None
        and (m.from_sq, m.to_sq) == (move.from_sq, move.to_sq)))
    return (COLORS[before.position.turn], cards) if cards else None


def named_turns(q: Question, kept: list[Node], key: str) -> list[tuple[tuple[Move, ...], str]]:
    """The turn answer ``key`` names the card of (the moves before it, the card): the turn
    the question is about (which card), or the last turn of the histories it asked about
    that those it keeps go on from (whose step: the seat's own turn, with that card; not
    the kept histories' own last turn, which may be a later one the hands made since:
    spirit-back 32's "Eel" named Red's Boar b3c3 after it, and every turn was ruled out)."""
    if key == TAKEBACK:
        return []
    if q.mode == STEP:
        return [(kept[0].moves[:q.depth], key)]
    before = {p[:-1] for p in q.prefixes.get(key, frozenset())
              if p and any(n.moves[:len(p)] == p for n in kept)}
    return [(before.pop(), key)] if len(before) == 1 else []


def cards_of(node: Node) -> tuple[str, ...]:
    """The cards of a history's turns, in order."""
    return tuple(m.card for m in node.moves)


def allowed(nodes: list[Node], rejected: list[tuple[Move, ...]],
            named: list[tuple[tuple[Move, ...], str]], tree: Tree) -> list[Node]:
    """The histories the players' answers leave: none going on from a history an answer
    ruled out, none amending a turn whose card a player named into another card's. (The
    nodes of ``tree``: a history's moves begin with a turns' prefix when the node of that
    prefix is one of its own or its parents, so no moves are compared.)"""
    if not rejected and not named:
        return list(nodes)
    ruled = {id(n) for n in map(tree.follow, rejected) if n is not None}
    cards: dict[int, set[str]] = {}
    for p, card in named:
        at = tree.follow(p)
        if at is not None:
            cards.setdefault(id(at), set()).add(card)
    return [n for n in nodes if not _ruled_out(n, ruled, cards)]


def _ruled_out(node: Node, ruled: set[int], cards: dict[int, set[str]]) -> bool:
    at: Node | None = node
    while at is not None:
        if id(at) in ruled:
            return True
        up = at.parent
        if at.pending is None and up is not None and id(up) in cards and at.steps:
            move = at.steps[-1].move
            assert move is not None, "a child is a turn"
            if cards[id(up)] - {move.card}:
                return True
        at = up
    return False


def shown_after(tree: Tree, moves: tuple[Move, ...], opened: tuple[Move, ...], kept: int,
                shown: list[float], lifts: list[tuple[float, int]], at: float,
                moment: Moment | None = None) -> list[float]:
    """When the mat showed each turn once ``moves`` are published in place of ``opened``
    (shown at ``shown``), keeping ``kept`` of them, at ``at``: the last move made at ``at``
    (the mat's last change, before a fast lift), the moves published with it somewhere
    before, an amended turn as :func:`amended_at` dates it. A turn read as one hand over a
    Spirit's ``moment`` (when it was set down, :func:`.moment.one_hand`) is dated from then:
    the two players' turns it was read as otherwise stay open to the next hands."""
    at = min(at, moment.down) if moment is not None else at
    before = shown[kept - 1] if kept else float("-inf")
    pushed = len(moves) - kept
    if pushed == 1 and kept < min(len(opened), len(shown)):
        at = amended_at(tree, moves[kept], opened[:kept + 1], shown[kept], lifts, at)
    return shown[:kept] + [before] * max(0, pushed - 1) + ([at] if pushed else [])


def amended_at(tree: Tree, turn: Move, amended: tuple[Move, ...], shown: float,
               lifts: list[tuple[float, int]], at: float) -> float:
    """When the mat showed ``turn``, published at ``at`` in place of the last of ``amended``
    (shown at ``shown``): the lifts after it are the next turn's. If the amendment moves on a
    piece the next player could capture, the hands the mat read as amending may be the next
    player's first, the piece they capture set down for a moment (story 6, aside-empty 25):
    the next turn may use the lifts made since ``shown``. (Not for every amendment: a Wind
    Spirit card's Spirit set down on its way was then read as the next player's Spirit move,
    set-down 30 and 36.)"""
    node, to = tree.follow(amended), amended[-1].to_sq
    if (node is None or to is None or turn.to_sq == to or node.pieces[to] in (None, "W")
            or not any(m.to_sq == to for m in tree.moves_from(node.position).moves)):
        return at
    return min([at] + [t0 - 1e-6 for t0, _ in lifts if t0 > shown])


def least_noise(every: list[Explanation], least_map: int, opened: tuple[Move, ...],
                started: bool, seen: Callable[[list[Explanation]], list[Explanation]],
                doubted: list[Node], back: Node | None = None,
                instead: frozenset[Node] = frozenset()) -> list[Explanation]:
    """The cheapest histories (see :func:`.histories.cheapest`). Once the next player has
    started (lifted a piece of theirs for real), the published turns ``opened`` are done:
    the histories that keep them go first (the amend window closed: slides 32, nudge 35),
    unless only the others end their turns on boards the mat rested on (``seen``: what was
    read as an amendment was the next player's hand, story 6), or the others all go on
    from a history ``doubted`` at the last publication, with less noise (the hands went on
    from it: "the next player" was the one who had moved). The history ``back`` (see
    :func:`.undoing.spirit_first`) keeps them too: the last is also the turn before taken back;
    and while a question offers to take the turn back, so do those ``instead`` of it (the
    players are asked: a Spirit moved straight back and the next turn, or that turn taken
    back and made again, leave one mat; late-answer 142, 174)."""
    found = cheapest(every, least_map)
    if started:
        keeping = cheapest([e for e in every if e.node.moves[:len(opened)] == opened
                            or e.node is back or e.node in instead], least_map)
        went_on = bool(found) and all(goes_on(e.node, doubted) for e in found)
        if (keeping and not (went_on and found[0].cost < keeping[0].cost)
                and (seen(keeping) or not seen(found))):
            found = keeping
    return found


def goes_on(node: Node, doubted: list[Node]) -> bool:
    """Does ``node`` go on from one of ``doubted`` (that history, and a turn more)?"""
    return any(len(node.moves) > len(d.moves) and node.moves[:len(d.moves)] == d.moves
               for d in doubted)


def board_fit(fits: list[Node], opened: tuple[Move, ...], rested: bool,
              explained: list[Node]) -> Node | None:
    """The history whose board the mat is, to read the pieces from the board: one board
    (histories that differ only by card leave one; the question asks the rest), and if it
    adds a turn to the published ones ``opened`` but amends them, or goes on from none of
    the readings the mat last rested in (``explained``), only once the mat ``rested`` there
    (a piece set down on its way for a moment fits such a board: set-down 24, 128)."""
    if not fits or len({(n.pieces, n.taken, n.paths) for n in fits}) != 1:
        return None
    fit = fits[0]
    keeps = len(fit.moves) <= len(opened) or fit.moves[:len(opened)] == opened and (
        not explained or any(fit.moves[:len(e.moves)] == e.moves for e in explained))
    return fit if keeps or rested else None


def window_of(lifts: tuple[tuple[float, int], ...], shown: tuple[float, ...],
              lifted: Counter[int], depth: int) -> Counter[int]:
    """The lifts a turn after ``depth`` turns from the anchor may use: those after the mat
    showed the turn before it (for a turn beyond those published, the last one); ``lifted``
    for the first turn (all of them since the anchor's move began)."""
    if depth == 0 or not shown:
        return lifted
    since = shown[min(depth, len(shown)) - 1]
    return Counter(sq for t0, sq in lifts if t0 > since)


def opponents(tree: Tree, record: Record, sq: int) -> bool:
    """Is ``sq`` a piece of the player to move, away from the squares the last move's mover
    may still use (its own, and a Wind Spirit card's going on from its pawn step: the
    Spirit's, the student it swaps with)?"""
    pos = record.position
    end = tree.follow(record.moves_open())
    last = near(tree, end) if end is not None and end.steps else frozenset()
    return sq not in last and pos.piece_at(sq) in PIECES[pos.turn]


def bury(tree: Tree, maps: PieceMaps, done: tuple[Move, ...]) -> None:
    """What the turns ``done`` (from ``tree``'s anchor) took off is off for good."""
    node = tree.follow(done)
    assert node is not None, "published moves are legal"
    while node.steps:
        move, parent = move_of(node.steps[-1]), node.parent
        assert parent is not None
        if move.to_sq is not None and node.taken != parent.taken:
            maps.bury(parent.pieces[move.to_sq] or "", move.to_sq)
        node = parent


def build_tables(record: Record, engine: Engine) -> None:
    """The game's card tables, built at its start rather than in the scan that first meets a
    card (a few tens of ms each: a scan is 10 ms)."""
    for name in record.position.cards():
        for each in (engine, record.board.engine):
            each.table(name)


def fast_turn(found: list[Node], tree: Tree, record: Record, midway: list[Node],
              lifted: frozenset[int]) -> tuple[Node, list[int]] | None:
    """Fast play: the one history ``found`` explains a turn the mat showed without resting
    on it, and the squares of ``lifted`` that are the next player's own pieces away from it
    (and from where the next player's Wind card half made, ``midway``, goes on): a lift
    there ends the turn. None if not."""
    if (len({id(n) for n in found}) != 1 or not found[0].steps
            or found[0].pending is not None):
        return None
    node = found[0]
    opened = record.moves_open()
    if node.moves == opened:
        return None
    busy: frozenset[int] = frozenset()
    if opened and node.moves[:-1] == opened and undoes(node.moves[-1], opened[-1]):
        # A reply that only moves pieces straight back along the last published turn's
        # steps is also that turn's takeback part-way (a Wind Spirit card's, its Spirit put
        # back first: story 5): a lift of that turn's pieces may be its takeback going on.
        busy = frozenset(sq for step in steps(opened[-1]) for sq in step if sq is not None)
    return node, fast_squares(tree, node, midway, lifted, busy)


def fast_squares(tree: Tree, node: Node, midway: list[Node], lifted: frozenset[int],
                 busy: frozenset[int] = frozenset()) -> list[int]:
    """The squares of ``lifted`` that are the next player's own pieces after ``node``, away
    from its last turn and from where the next player's Wind card half made (``midway``)
    goes on (and from ``busy``): a lift there ends that turn."""
    busy = busy | near(tree, node) | half_squares(midway)
    mine = ("R", "r", "W") if node.position.turn == 0 else ("B", "b", "W")
    return [sq for sq in lifted if sq not in busy and node.pieces[sq] in mine]


def between(node: Node, published: int) -> list[Node]:
    """The histories ``node`` passes through after the first ``published`` turns and before
    its own end: the boards its turns left for the next player to see."""
    out = []
    at = node.parent if node.pending is None else node
    while at is not None and len(at.steps) > published:
        if at.pending is None:
            out.append(at)
        at = at.parent
    return out


def near(tree: Tree, node: Node) -> frozenset[int]:
    """The squares the last mover of ``node`` may still be at work on: their turn's, and
    those of a Wind Spirit card going on from its pawn step (the Spirit's, the student's it
    swaps with)."""
    last = node.steps[-1]
    move = last.move
    if move is None or move.spirit_from is not None or node.parent is None:
        return last.touched
    ms = tree.moves_from(node.parent.position)
    return last.touched.union(*(ms.reading(m).touched for m in ms.moves
                                if m.wind_card and m.spirit_from is not None
                                and (m.from_sq, m.to_sq) == (move.from_sq, move.to_sq)))
