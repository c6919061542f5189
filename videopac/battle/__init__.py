"""The battle program seen from outside: its published state read through the cartridge's
symbol table (published.py), the computer opponent that plays it through a joystick alone
(computer.py), simple scripted players to test it against (scripted.py), and the opponent
measured in all pairings (balance.py). It knows the battle
only through the symbol file, the video chip's registers and the picture."""
