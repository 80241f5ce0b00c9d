"""A turn declared away from the mat (``Recognizer.declared``: the computer's, a remote seat's
phone) stands whole: the hands that follow are the next player's, read as they are read
after any turn that stands."""

from companion.mat.recognizer import Recognizer
from companion.rules.squares import parse_square

SCAN_S = 0.01

# The table robot's wind2 computer 7 (docs/recognizer-hypotheses.md, session 47): the
# computer's Red declared Spider a2b3 c2b3 (the pawn a2 -> b3, then the Spirit c2 -> b3,
# swapping the pawn onto c2), made on the mat by the robot's hands; then Blue's Mantis b3c2
# (the Spirit b3 -> c2, swapping Red's pawn back onto b3), both pieces set down in one scan.
# The debounced mat, as the robot's trace recorded it.
EDGES = [(0.165, "-a2"), (0.225, "-c2 +b3"), (0.265, "-b3"), (0.525, "+b3"), (0.595, "+c2"),
         (0.785, "-b3"), (0.81, "-c2"), (1.045, "+b3 +c2")]


def test_the_spirit_swapped_back_after_a_declared_wind_card_swap_is_a_turn():
    """Spider's part-way map (its pawn on b3, the Spirit still on c2) read Blue's swap as
    Spider's own Spirit step, free beside the Mantis reading, and the mat said nothing: Blue's
    Mantis b3c2 was never read. Declared, Spider is whole: the swap is Blue's turn (Mantis or
    Monkey make it: the mat asks)."""
    rec = Recognizer("bb1b1/2Bb1/5/r1WR1/1r1rr red Spider,Goose Mantis,Monkey Bat", settle=0.06)
    occ = set(rec.occupancy)
    events = []

    def heard(out: list) -> None:
        events.extend(out)
        if any(e.get("move") == "Spider a2b3 c2b3" for e in out):
            rec.declared("Spider a2b3 c2b3")   # (as the table does, at once: it stands)

    heard(rec.advance(0.0))
    t = 0.0
    for when, change in EDGES + [(2.0, "")]:
        while t + SCAN_S < when:
            t += SCAN_S
            heard(rec.advance(t))
        for token in change.split():
            (occ.add if token[0] == "+" else occ.discard)(parse_square(token[1:]))
        if change:
            heard(rec.update(when, frozenset(occ)))
    prompts = [e["prompt"] for e in events if "prompt" in e]
    assert [e["move"] for e in events if "move" in e] == ["Spider a2b3 c2b3"]
    assert prompts and prompts[-1]["seat"] == "blue"
    assert set(prompts[-1]["choose"]) == {"Mantis", "Monkey"}
    events += rec.answer(2.0, "blue", "Mantis")
    assert [e["move"] for e in events if "move" in e] == ["Spider a2b3 c2b3", "Mantis b3c2"]
