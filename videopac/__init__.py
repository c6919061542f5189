"""The application: the videopac command, the window, audio, input devices and the ledger bridge."""
from cartridge import __version__  # noqa: F401  (the project's one version number)
