"""LED frames through the pin map and the cap, the recording strip, effects and the animator."""

from __future__ import annotations

import time

import pytest

from firmware.animation import Animator, Blink, Placed, Pulse, Steady, Urgency, render, sweep
from firmware.leds import BLUE, GREEN, OFF, RED, WHITE, Frame, LedMat, capped, frame_pixels, pixels_frame
from firmware.sim_strip import RecordingStrip


@pytest.fixture
def strip(pinmap):
    return RecordingStrip(pinmap.leds)


@pytest.fixture
def animator(strip, pinmap):
    with Animator(LedMat(strip, pinmap.leds)) as animator:
        yield animator


def test_a_frame_lands_on_the_chain_indices_capped(pinmap):
    leds = pinmap.leds
    pixels = frame_pixels(Frame.of({0: WHITE, 5: RED}, {"red": BLUE}), leds)
    assert len(pixels) == leds.count
    assert pixels[0] == (102, 102, 102)  # 40 % of full: the power budget's cap
    assert pixels[9] == (102, 0, 0)  # a2 (square 5): serpentine puts it at index 9
    assert [pixels[i] for i in leds.edges["red"]] == [(0, 0, 102)] * 5
    assert all(p == OFF for i, p in enumerate(pixels) if i not in (0, 9, *leds.edges["red"]))


def test_chain_colours_decode_back_to_the_frame(pinmap):
    frame = Frame.of({sq: (sq * 10, 255 - sq * 10, sq) for sq in range(25)}, {"blue": GREEN})
    decoded = pixels_frame(frame_pixels(frame, pinmap.leds), pinmap.leds)
    cap = pinmap.leds.max_brightness
    assert decoded.squares == tuple(capped(c, cap) for c in frame.squares)
    assert decoded.edges == {"blue": capped(GREEN, cap)}


def test_an_unknown_edge_group_is_refused(pinmap):
    with pytest.raises(ValueError, match="no edge LEDs named 'left'"):
        frame_pixels(Frame.of({}, {"left": RED}), pinmap.leds)


def test_the_strip_must_match_the_map(pinmap):
    from dataclasses import replace
    short = RecordingStrip(replace(pinmap.leds, count=25))
    with pytest.raises(ValueError, match="leds.count = 35"):
        LedMat(short, pinmap.leds)


# -- effects (pure) --------------------------------------------------------------------------
def test_effects_over_time():
    assert Steady(RED).colour_at(99) == RED
    assert Steady(RED, Urgency.HINT).colour_at(0) == (89, 0, 0)  # hints are dim
    blink = Blink(RED, Urgency.NORMAL)
    assert blink.colour_at(0.1) == RED and blink.colour_at(0.5) == OFF and blink.colour_at(0.9) == RED
    assert Blink(RED, Urgency.NORMAL, phase=0.5).colour_at(0.1) == OFF  # alternates with the other
    fast = Blink(RED, Urgency.ERROR)
    assert fast.colour_at(0.15) == OFF and fast.colour_at(0.26) == RED  # errors blink faster
    assert Pulse(WHITE).colour_at(0) == WHITE and Pulse(WHITE).colour_at(0.4)[0] < 40


def test_a_sweep_runs_along_its_line():
    line = sweep([0, 1, 2, 3, 4], GREEN)
    step = Urgency.NORMAL.period / 5
    heads = []
    for k in range(5):
        t = k * step + step / 2
        heads.append([sq for sq, e in line.items() if e.colour_at(t) == GREEN])
    assert heads == [[0], [1], [2], [3], [4]]
    assert line[0].colour_at(1.5 * step)[1] < 255  # the tail behind the head is dim


def test_render_is_a_function_of_the_scene_and_time():
    scene = {3: Placed(Blink(RED), since=10.0), 4: Placed(Steady(BLUE), since=0.0)}
    assert render(scene, {}, 10.1).lit() == {3: RED, 4: BLUE}
    assert render(scene, {}, 10.5).lit() == {4: BLUE}
    assert render(scene, {"red": Placed(Steady(GREEN), 0)}, 10.5).edges == {"red": GREEN}


# -- the animator ----------------------------------------------------------------------------
def test_a_scene_reaches_the_strip_at_once(animator, strip, pinmap):
    cap = pinmap.leds.max_brightness
    animator.set_scene({12: Steady(GREEN)}, {"red": Steady(RED)})
    shown = strip.wait_for(lambda f: f.lit() == {12: capped(GREEN, cap)}, 0.5)
    assert shown is not None and shown[1].edges == {"red": capped(RED, cap)}


def test_an_unmoving_scene_is_written_once(animator, strip):
    animator.set_scene({1: Steady(GREEN)})
    assert strip.wait_for(lambda f: 1 in f.lit(), 0.5)
    time.sleep(0.1)
    assert sum(1 for _, f in strip.frames() if 1 in f.lit()) == 1


def test_a_blink_keeps_blinking_and_resending_keeps_its_phase(animator, strip):
    animator.set_scene({7: Blink(RED, Urgency.ERROR)})
    assert strip.wait_for(lambda f: 7 in f.lit(), 0.5)
    assert strip.wait_for(lambda f: 7 not in f.lit(), 0.5)  # just went dark for 125 ms
    animator.set_scene({7: Blink(RED, Urgency.ERROR)}, {"red": Steady(RED)})
    time.sleep(0.03)
    # Restarted, the blink would be lit again now; kept, it is still in its dark half.
    assert "red" in strip.frame().edges and 7 not in strip.frame().lit()


def test_bad_scenes_are_refused_in_the_caller(animator):
    with pytest.raises(ValueError, match="not a square"):
        animator.set_scene({25: Steady(RED)})
    with pytest.raises(ValueError, match="no edge LEDs named 'green'"):
        animator.set_scene({}, {"green": Steady(RED)})


def test_the_animator_plays_the_led_grammars_cues_as_its_effects(animator, strip, pinmap):
    """The table says its scenes in the mat's plain cues (companion/mat/feedback.py); the
    animator translates each kind into its own effect, so no layer above imports it."""
    from companion.mat import feedback
    from firmware.animation import Sweep, effect_of
    assert effect_of(feedback.steady(RED, "hint")) == Steady(RED, Urgency.HINT)
    assert effect_of(feedback.blink(RED, "error", 0.5)) == Blink(RED, Urgency.ERROR, 0.5)
    assert effect_of(feedback.pulse(GREEN)) == Pulse(GREEN, Urgency.NORMAL)
    assert ({sq: effect_of(cue) for sq, cue in feedback.sweep([4, 9, 14], WHITE).items()}
            == sweep([4, 9, 14], WHITE) == {4: Sweep(WHITE, 0, 3), 9: Sweep(WHITE, 1, 3),
                                            14: Sweep(WHITE, 2, 3)})
    with pytest.raises(ValueError, match="no LED effect 'glow'"):
        effect_of(feedback.Cue(RED, "glow"))        # type: ignore[arg-type]
    animator.set_scene({12: feedback.steady(GREEN)}, {"red": feedback.steady(RED)})
    cap = pinmap.leds.max_brightness
    shown = strip.wait_for(lambda f: f.lit() == {12: capped(GREEN, cap)}, 0.5)
    assert shown is not None and shown[1].edges == {"red": capped(RED, cap)}


def test_closing_turns_the_leds_off(strip, pinmap):
    animator = Animator(LedMat(strip, pinmap.leds))
    animator.set_scene({0: Steady(WHITE)})
    assert strip.wait_for(lambda f: 0 in f.lit(), 0.5)
    animator.close()
    assert strip.frame() == Frame() and strip.closed


def test_the_recording_keeps_its_frames_small(strip, pinmap):
    # The simulated service keeps the last 10,000 writes: at about 2 kB a frame (tuples of
    # colour tuples) that was 20 MB of its memory, which the 120 MB bound on a computer-
    # against-computer run could not afford. Packed, a frame costs its 105 bytes and a little.
    import random
    import tracemalloc

    rng = random.Random(3)
    scenes = [Frame.of({sq: (rng.randrange(256), rng.randrange(256), 0) for sq in range(25)}) for _ in range(50)]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(2000):
            strip.write(frame_pixels(scenes[i % 50], pinmap.leds))   # new colours each write, as the animator's
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown / 2000 < 400, f"{grown / 2000:.0f} bytes a recorded frame"
    last = frame_pixels(scenes[1999 % 50], pinmap.leds)
    assert strip.pixels == tuple(last)
    assert strip.frames()[-1][1] == pixels_frame(last, pinmap.leds)
