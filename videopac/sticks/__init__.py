"""The joysticks beyond the keyboard: gamepads (gamepads.py), the serial adapter's line
protocol and reader (serial_line.py), and the ``--joystick`` choice of which device drives which
stick (routing.py)."""
