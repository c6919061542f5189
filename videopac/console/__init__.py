"""The console as a person plays it: the session (the machine plus the player's keys,
sticks and controls), the window, the keymap and the controls, sound, pacing, recording, the
debugger, the files a command starts from and where the player's files go."""
