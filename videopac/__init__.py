"""The application: the videopac command, the window, audio, input devices and the ledger bridge."""
