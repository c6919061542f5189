"""Software for the console: the asm48 assembler and dis48 disassembler, the open BIOS, the
clean-room Conquest of the World battle program, and the loader for ROM files users bring."""
from importlib.metadata import PackageNotFoundError, version

try:     # the project's one version number, from pyproject.toml through the installed metadata
    __version__ = version("videopac")
except PackageNotFoundError:      # a source tree that was never installed
    __version__ = "0+unknown"
