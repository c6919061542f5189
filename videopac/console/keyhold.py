"""The console's keys held long enough to be seen, however short the PC key press: the BIOS
scans the keyboard once a frame (o2em_core.keyboard.TAP_FRAMES), so a key tapped for less than a
frame (12 ms; the press and the release between two frames) was never down while a frame ran,
and letters and digits typed at a program's entry went missing. As emulators' typing features
do, a key goes down for at least HOLD_FRAMES frames and, before it goes down again, up for as
many; the changes that must wait are queued, per key, and applied before the frames they are
due in (``KeyHold.due``)."""
from __future__ import annotations

from o2em_core.keyboard import TAP_FRAMES

HOLD_FRAMES = TAP_FRAMES      # frames a key stays down, and up before it goes down again
MAX_QUEUED = 8                # changes queued for one key: a key hit faster is taken fewer times


class KeyHold:
    """When each console key may change; frames are counted by the caller (``due`` before each
    frame), not taken from the machine, whose count a loaded save state may set back."""

    def __init__(self) -> None:
        self.changed_at: dict[str, int] = {}                # key -> frame it last went down or up
        self.queued: dict[str, list[tuple[int, bool]]] = {}  # key -> (due frame, down) in order

    def change(self, key: str, down: bool, frame: int) -> bool:
        """The PC key for ``key`` went down or up before ``frame``: True when the console key
        follows now, False when the change is queued (or, hit too fast, dropped)."""
        queue = self.queued.get(key)
        if queue:
            if queue[-1][1] == down or len(queue) >= MAX_QUEUED:
                return False                   # its press was dropped: so is its release
            queue.append((queue[-1][0] + HOLD_FRAMES, down))
            return False
        since = self.changed_at.get(key)
        if since is not None and frame - since < HOLD_FRAMES:
            self.queued[key] = [(since + HOLD_FRAMES, down)]
            return False
        self.changed_at[key] = frame
        return True

    def due(self, frame: int) -> list[tuple[str, bool]]:
        """The queued changes (key, down) to make before ``frame`` runs, in order."""
        out: list[tuple[str, bool]] = []
        for key, queue in list(self.queued.items()):
            if queue[0][0] <= frame:
                _due, down = queue.pop(0)
                self.changed_at[key] = frame
                out.append((key, down))
                if queue:                      # the next change of this key: a hold from now
                    queue[:] = [(frame + HOLD_FRAMES * (k + 1), d) for k, (_, d) in
                                enumerate(queue)]
                else:
                    del self.queued[key]
        return out
