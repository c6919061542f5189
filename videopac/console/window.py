"""The window: the console's picture at the right shape, sharp pixels, and the on-screen text.

Picture geometry (docs/hardware.md §3.1, §8.1): the frame is 360 pixel clocks by 243 lines of one
non-interlaced field. A pixel clock is narrower than a line is tall: a square pixel of a 4:3
picture with 240 (NTSC) or 288 (PAL) lines per field lasts 1/6.136 MHz (NTSC) or 1/7.375 MHz
(PAL), so the pixel aspect ratio (width/height) is 6.136/7.159 = 0.857 (NTSC) and
7.375/7.094 = 1.040 (PAL). Each frame pixel becomes a block of whole screen pixels (sx × sy,
nearest-neighbour filtering), the pair of integers closest to that ratio at the chosen size.
"""
from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import pyglet
from pyglet import gl
from pyglet.window import key as pkey

from i18n import N_, _

from o2em_core import palette
from videopac.console.controls import CONTROLS, named
from videopac.console.keymap import pc_name

if TYPE_CHECKING:
    from videopac.console.session import Session

WIDTH, HEIGHT = 360, 243
# ITU-R BT.601 square-pixel sampling rates per frame line, halved for one field
SQUARE_PIXEL_HZ = {"ntsc": 135e6 / 22, "pal": 14.75e6 / 2}
PIXEL_CLOCK_HZ = {"ntsc": 7.15909e6, "pal": 7.093790e6}
MESSAGE_COLOUR = (255, 255, 160, 255)

# The F1 overlay: the Videopac keys in the places of the PC keys they sit on (width in tiles)
HELP_ROWS = (
    tuple((k, 1) for k in "1234567890"),
    tuple((k, 1) for k in "QWERTYUIOP"),
    tuple((k, 1) for k in "ASDFGHJKL"),
    tuple((k, 1) for k in "ZXCVBNM"),
    tuple((k, 1) for k in "+-*/=?.") + (("SPACE", 2), ("ENTER", 2), ("CLEAR", 2)),
)
LEGENDS = {"*": "×", "/": "÷"}   # the console's legends for the Machine API's ASCII names
# the controls on the overlay's last line, with the names it shows for them (videopac/console/controls.py)
CONTROL_LINE = {c.name: c.label for c in CONTROLS if c.label is not None}
# joystick directions as the overlay shows them (the keymap file keeps the English words)
DIRECTIONS = {"up": N_("up"), "down": N_("down"), "left": N_("left"), "right": N_("right"),
              "up+left": N_("up+left"), "up+right": N_("up+right"), "down+left": N_("down+left"),
              "down+right": N_("down+right"), "fire": N_("fire")}


def pixel_aspect(region: str) -> float:
    """Width/height of one frame pixel (one pixel clock by one line) on a 4:3 television."""
    return SQUARE_PIXEL_HZ[region] / PIXEL_CLOCK_HZ[region]


def block(region: str, scale: int) -> tuple[int, int]:
    """Screen pixels (sx, sy) per frame pixel at ``scale`` lines per line."""
    return max(1, round(scale * pixel_aspect(region))), scale


def fit(region: str, width: int, height: int) -> tuple[int, int, int, int]:
    """(x, y, sx, sy): the largest whole-pixel picture that fits the area, centred."""
    scale = max(1, height // HEIGHT)
    while scale > 1 and block(region, scale)[0] * WIDTH > width:
        scale -= 1
    sx, sy = block(region, scale)
    return (width - sx * WIDTH) // 2, (height - sy * HEIGHT) // 2, sx, sy


class SidePanel(Protocol):
    """What the window needs of a panel beside the picture (the ledger's, videopac/table/panel.py):
    whether it is shown, its place, and drawing it."""

    visible: bool

    def layout(self, x: int, y: int, width: int, height: int) -> None: ...
    def draw(self) -> None: ...


class PlayWindow(pyglet.window.Window):  # type: ignore[misc]  # pyglet is untyped (pyproject)
    """A pyglet window that shows frames and forwards the keyboard to a Session."""

    def __init__(self, session: Session, region: str, scale: int = 3, fullscreen: bool = False,
                 title: str = "Videopac", side: tuple[int, int] = (0, 0), **kwargs: Any) -> None:
        """``side``: room (width, least height) for the ledger panel right of the picture."""
        sx, sy = block(region, scale)
        visible = kwargs.pop("visible", True)
        # invisible until set up: showing it sends on_resize, which needs the sprite
        super().__init__(width=WIDTH * sx + side[0], height=max(HEIGHT * sy, side[1]), caption=title,
                         resizable=True, fullscreen=fullscreen, visible=False, **kwargs)
        self.session = session
        self.region = region
        self._pixels = palette.new_texture(HEIGHT, WIDTH)   # what show() uploads
        # load the compiled conversion now, not in the first frame of the event loop
        palette.texture_rgba(np.zeros((HEIGHT, WIDTH), np.uint8), self._pixels)
        self.texture = pyglet.image.Texture.create(WIDTH, HEIGHT, min_filter=gl.GL_NEAREST,
                                                   mag_filter=gl.GL_NEAREST)
        self.picture = pyglet.sprite.Sprite(self.texture)
        self.picture.update(x=0, y=0)
        self.text = pyglet.text.Label("", font_size=14, x=8, y=8, color=MESSAGE_COLOUR)
        self.status = pyglet.text.Label("", font_size=14, anchor_x="right", color=MESSAGE_COLOUR)
        self.panel: SidePanel | None = None   # the ledger beside the picture (videopac/table/wiring.py)
        self.panel_width = side[0]
        self._help_batch: pyglet.graphics.Batch | None = None
        self._help_parts: list[Any] = []          # pyglet shapes and labels
        session.window_actions.update({named("fullscreen"): self.toggle_fullscreen,
                                       named("leave-fullscreen"): self.leave_fullscreen})
        self._place()
        self.set_visible(visible)

    # -- picture ----------------------------------------------------------------------------
    def show(self, frame: np.ndarray) -> None:
        """Upload a frame of palette indices (row 0 at the top) into the texture."""
        # GL rows run bottom-up: one compiled pass converts and flips (palette.texture_rgba)
        rgba = self._pixels
        palette.texture_rgba(np.ascontiguousarray(frame, dtype=np.uint8), rgba)
        self.switch_to()
        gl.glBindTexture(gl.GL_TEXTURE_2D, self.texture.id)
        gl.glTexSubImage2D(gl.GL_TEXTURE_2D, 0, 0, 0, WIDTH, HEIGHT, gl.GL_RGBA,
                           gl.GL_UNSIGNED_BYTE, rgba.ctypes.data_as(ctypes.c_void_p))

    def read_pixels(self) -> np.ndarray:
        """Draw, then read the window's back buffer: RGB (height, width, 3), top row first."""
        self.switch_to()
        self.on_draw()
        image = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
        rgb = np.frombuffer(image.get_data("RGB", image.width * 3), np.uint8)
        return rgb.reshape(image.height, image.width, 3)[::-1]

    def _place(self) -> None:
        width, height = self.get_size()   # drawing units (on HiDPI screens the OS doubles them)
        panel = self.panel
        side = self.panel_width if panel is not None and panel.visible else 0
        if panel is not None and side:
            panel.layout(width - side, 0, side, height)
        width -= side
        x, y, sx, sy = fit(self.region, width, height)
        self.picture.update(x=x, y=y, scale_x=sx, scale_y=sy)
        self.status.position = (width - 8, height - 26, 0)
        self._help_batch = None     # rebuilt at the new size when next shown
        self.invalid = True

    def on_expose(self) -> None:
        self.invalid = True

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        self._place()

    def on_draw(self) -> None:
        if self.picture.x > 0 or self.picture.y > 0:   # borders around the picture
            self.clear()
        self.picture.draw()
        if self.panel is not None:
            self.panel.draw()
        session = self.session
        if session.help:
            self._help().draw()
        if session.debug_lines:
            self._debug_overlay(session.debug_lines).draw()
        for label, text in ((self.text, session.current_message()),
                            (self.status, _("PAUSED") if session.paused else ">>" if session.fast else "")):
            if label.text != text:      # a new text means a new layout: only when it changes
                label.text = text
            label.draw()

    def _debug_overlay(self, lines: list[str]) -> pyglet.graphics.Batch:
        """The registers and the next instructions over the picture while the debugger holds
        the game (docs/debugger.md)."""
        key = (tuple(lines), self.width, self.height)
        if getattr(self, "_debug_key", None) != key:
            self._debug_key = key
            batch = pyglet.graphics.Batch()
            size = max(8, min(14, self.width // 70))
            height = size * 1.5 * len(lines) + size
            self._debug_items = [pyglet.shapes.Rectangle(0, self.height - height, self.width,
                                                         height, color=(0, 0, 0, 200),
                                                         batch=batch)]
            for i, text in enumerate(lines):
                self._debug_items.append(pyglet.text.Label(
                    text, font_name="monospace", font_size=size, color=MESSAGE_COLOUR,
                    x=size // 2, y=self.height - size * 1.5 * (i + 1), batch=batch))
            self._debug_batch = batch
        return self._debug_batch

    # -- keyboard ---------------------------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> None:
        # replaces pyglet's default (Escape closes the window): every key may be a Videopac key
        self.session.key_press(symbol, shift=bool(modifiers & pkey.MOD_SHIFT))

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        self.session.key_release(symbol, shift_key=symbol in (pkey.LSHIFT, pkey.RSHIFT))

    def on_deactivate(self) -> None:
        self.session.release_all()    # key-up events of keys held now will go to another window

    # -- window actions ---------------------------------------------------------------------
    def toggle_fullscreen(self) -> None:
        self.set_fullscreen(not self.fullscreen)
        self.session.say(_("fullscreen") if self.fullscreen else _("window"))

    def leave_fullscreen(self) -> None:
        if self.fullscreen:
            self.toggle_fullscreen()

    # -- the ledger panel ------------------------------------------------------------------
    def attach_panel(self, panel: SidePanel) -> None:
        """Put ``panel`` (videopac/table/panel.py) right of the picture, in the room the window
        was opened with (``side``)."""
        self.panel = panel
        self._place()

    def toggle_panel(self) -> None:
        """F4: show or hide the ledger beside the picture (the window grows or shrinks with it)."""
        panel = self.panel
        if panel is None:                # a window without a ledger
            return
        panel.visible = not panel.visible
        if not self.fullscreen:          # the window manager resizes the window; then on_resize
            w, h = self.get_size()
            self.set_size(w + (self.panel_width if panel.visible else -self.panel_width), h)
        self._place()
        self.session.say(_("ledger shown") if panel.visible else _("ledger hidden"))

    # -- F1 overlay -------------------------------------------------------------------------
    def _help(self) -> pyglet.graphics.Batch:
        """The Videopac keyboard drawn over the picture, each key with the PC key(s) it is on."""
        if self._help_batch is not None:
            return self._help_batch
        batch, parts = pyglet.graphics.Batch(), []
        width, height = self.get_size()
        keymap = self.session.keymap
        back = pyglet.graphics.Group(0)
        front = pyglet.graphics.Group(1)
        parts.append(pyglet.shapes.Rectangle(0, 0, width, height, color=(0, 0, 0, 200),
                                             batch=batch, group=back))
        tile = min(width // 14, height // 9)
        font = max(6, tile // 4)
        top = height - tile // 3
        for r, row in enumerate(HELP_ROWS):
            x = (width - sum(w for _, w in row) * tile) // 2
            y = top - (r + 1) * tile
            for name, w in row:
                parts.append(pyglet.shapes.Rectangle(x + 2, y + 2, w * tile - 4, tile - 4,
                                                     color=(60, 60, 90, 255), batch=batch, group=back))
                legend = LEGENDS.get(name, name)
                parts.append(pyglet.text.Label(legend, x=x + w * tile // 2, y=y + tile * 3 // 5,
                                               anchor_x="center", anchor_y="center",
                                               font_size=font * (1.3 if len(legend) == 1 else 0.8),
                                               batch=batch, group=front))
                pc = " ".join(keymap.shown_keys("key", name)[:w]) or "-"
                parts.append(pyglet.text.Label(pc, x=x + w * tile // 2, y=y + tile // 5,
                                               anchor_x="center", anchor_y="center",
                                               font_size=max(5, font * 0.55),
                                               color=MESSAGE_COLOUR, batch=batch, group=front))
                x += w * tile
        lines = [_("joystick {number}:").format(number=s) + "   " + "   ".join(
            f"{_(DIRECTIONS.get(value, value))} {' '.join(keys)}" for value, keys in self._stick_keys(s).items())
                 for s in (0, 1)]
        lines.append("   ".join(f"{_(shown)} {' '.join(keymap.shown_keys('control', c))}"
                               for c, shown in CONTROL_LINE.items()))
        y = top - len(HELP_ROWS) * tile - font
        for line in lines:
            label = pyglet.text.Label(line, x=width // 2, y=y, anchor_x="center", anchor_y="top",
                                      font_size=max(6, font * 0.6), multiline=True,
                                      width=width - tile, align="center", batch=batch, group=front)
            parts.append(label)
            y -= label.content_height + font
        self._help_batch, self._help_parts = batch, parts
        return batch

    def _stick_keys(self, stick: int) -> dict[str, list[str]]:
        """Joystick directions -> the PC keys on them (Num-Lock-off aliases left out)."""
        keymap = self.session.keymap
        out: dict[str, list[str]] = {}
        for symbol, b in keymap.bindings.items():
            name = keymap.names[symbol]
            if b.kind == "joystick" and b.stick == stick and (
                    not name.startswith("NUM_") or len(name) == 5 and name[4].isdigit()):
                out.setdefault(b.value, []).append(pc_name(name))
        return out
