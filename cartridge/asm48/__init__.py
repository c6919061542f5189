"""asm48: a two-pass (until stable) assembler for the Intel MCS-48 (8048) in the dialect of
the Macroassembler AS (asl), as used by Odyssey2/Videopac homebrew.  See docs/asm48.md."""
from .assembly import Assembly
from .core import assemble
from .errors import AsmError, Diagnostic

__all__ = ["assemble", "Assembly", "AsmError", "Diagnostic"]
