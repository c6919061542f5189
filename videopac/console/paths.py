"""Where the app keeps a player's files: the user data folder (XDG on Linux), one folder per
cartridge for save states and screenshots, and the user's keymap in the config folder."""
from __future__ import annotations

import datetime as _dt
import os
import pathlib
import re
import sys

import safefiles

APP = "videopac"


def _base(env: str, linux_default: str) -> pathlib.Path:
    home = pathlib.Path.home()
    if sys.platform == "win32":
        return pathlib.Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming")
    if sys.platform == "darwin":
        return home / "Library" / "Application Support"
    value = os.environ.get(env, "")
    # XDG Base Directory spec: a relative path in the variable is invalid and must be ignored
    return pathlib.Path(value) if os.path.isabs(value) else home / linux_default


def data_dir() -> pathlib.Path:
    """The user data folder of the app ($XDG_DATA_HOME/videopac on Linux)."""
    return _base("XDG_DATA_HOME", ".local/share") / APP


def config_dir() -> pathlib.Path:
    """The user config folder of the app ($XDG_CONFIG_HOME/videopac on Linux)."""
    return _base("XDG_CONFIG_HOME", ".config") / APP


def user_keymap() -> pathlib.Path:
    """The keymap file a player may write to change the default keys."""
    return config_dir() / "keymap.toml"


def cartridge_name(path: str | os.PathLike[str] | None, builtin: str) -> str:
    """A file-system-safe name for a cartridge: the ROM file's stem, or the built-in image name."""
    stem = pathlib.Path(path).stem if path else builtin
    return re.sub(r"[^A-Za-z0-9._-]+", "_", stem).strip("._") or builtin


def state_path(cart: str, slot: int) -> pathlib.Path:
    """The save-state file of one slot of one cartridge."""
    return data_dir() / "states" / cart / f"slot{slot}.state"


def screenshot_path(cart: str, when: _dt.datetime | None = None) -> pathlib.Path:
    """A new screenshot file named by cartridge and local time (to the millisecond)."""
    when = when or _dt.datetime.now()
    stamp = when.strftime("%Y%m%d-%H%M%S-") + f"{when.microsecond // 1000:03d}"
    return data_dir() / "screenshots" / f"{cart}-{stamp}.png"


def write_atomically(path: pathlib.Path | str, data: bytes, parents: bool = True) -> None:
    """Write a file so that a crash or a full disk leaves either the old or the new content, never
    half of it and never an empty file (an older save state or screenshot is not lost); through
    symlinks, to devices, ``-`` to stdout (safefiles/atomic.py). ``parents`` creates missing
    folders (the app's own data folders; not a path the user typed)."""
    safefiles.write_atomically(path, data, parents)
