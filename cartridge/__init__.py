"""Software for the console: the asm48 assembler and dis48 disassembler, the open BIOS, the
clean-room Conquest of the World battle program, and the loader for ROM files users bring."""
