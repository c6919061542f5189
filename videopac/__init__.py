"""The application: the videopac command, the window, audio, input devices and the ledger bridge."""
from cartridge import __version__

__all__ = ["__version__"]       # the project's one version number, the one `videopac -V` prints
