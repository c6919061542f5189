"""The application: the videopac command, the window, audio, input devices and the ledger bridge."""
from cartridge import __version__ as __version__  # the project's one version number
