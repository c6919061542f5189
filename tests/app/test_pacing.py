"""Pacing with the audio stream as the clock: a simulated sound card whose crystal runs off the
nominal rate; the pacer must follow it (bounded queue) with evenly spread frames."""
import pytest

from videopac.console.pacing import Pacer

RATE = 44100


def simulate(card_ppm: float, seconds: float, fps: float = 49.70, tick: float = 1 / 120,
             pull: float = 0.06):
    """Run the pacer against a card that consumes RATE*(1+ppm) samples/s in pulls of ``pull``
    seconds (as pyglet's drivers do); returns the queue level and frames run per tick."""
    pacer = Pacer(fps, RATE)
    queue, consumed_due, levels, per_tick, starved = 0.0, 0.0, [], [], []
    t = 0.0
    while t < seconds:
        t += tick
        frames = pacer.due(t, int(queue))
        per_tick.append(frames)
        queue += frames * RATE / fps
        consumed_due += tick * RATE * (1 + card_ppm * 1e-6)
        if consumed_due >= pull * RATE:               # the card takes a chunk
            starved.append(queue < consumed_due)      # the card found too little: a gap
            queue = max(0.0, queue - consumed_due)
            consumed_due = 0.0
        levels.append(queue)
    return levels, per_tick, starved


@pytest.mark.parametrize("ppm", [-3000, -300, 0, 300, 3000])
def test_queue_stays_bounded_when_the_card_clock_is_off(ppm):
    levels, _, starved = simulate(ppm, seconds=600)
    late = levels[len(levels) // 2:]
    assert not any(starved[len(starved) // 2:])     # no gap in the sound once settled
    # an hour-long drift of 3000 ppm is 10 s of sound; the queue must hold well under 0.2 s
    assert max(late) < 0.2 * RATE
    assert sum(late) / len(late) > 0.01 * RATE       # and not starve


def test_frames_are_spread_evenly():
    _, per_tick, _ = simulate(0, seconds=60)
    steady = per_tick[len(per_tick) // 2:]
    assert max(steady) == 1                          # never two frames in one 8 ms tick
    assert sum(steady) == pytest.approx(30 * 49.70, rel=0.01)


def test_a_stall_is_not_caught_up_in_a_burst():
    pacer = Pacer(59.83, RATE)
    pacer.due(0.0, 2000)
    assert pacer.due(5.0, 2000) <= 1                 # the window was dragged for 5 s


def test_fast_forward_runs_faster():
    pacer = Pacer(50.0, RATE)
    pacer.due(0.0, 0)
    total = sum(pacer.due(i / 100, 0, speed=4) for i in range(1, 101))
    assert total == pytest.approx(200, abs=2)
