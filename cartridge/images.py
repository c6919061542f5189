"""The ROM images built into the package (cartridge/roms/<name>.bin), found by name."""
from __future__ import annotations

from pathlib import Path

ROM_DIR = Path(__file__).resolve().parent / "roms"


def builtin_image(name: str) -> bytes:
    """The bytes of built-in image `name` ("bios", "conquest"); FileNotFoundError if absent."""
    return (ROM_DIR / f"{name}.bin").read_bytes()
