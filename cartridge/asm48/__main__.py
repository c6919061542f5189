"""`python -m cartridge.asm48` runs the asm48 command."""
import sys

from .cli import main

sys.exit(main())
