"""Assembler loops and data have limits, each reported in one sentence: a huge DUP, a REPT of
a hundred million, nested REPTs and a long IRPC end at once instead of running for hours or
taking all memory."""
import subprocess
import sys

import pytest

from cartridge.asm48 import AsmError, assemble
from cartridge.asm48.core import MAX_EXPANDED_LINES
from cartridge.asm48.directives import MAX_DUP_BYTES


@pytest.mark.parametrize("source", [
    " org 0\n db 1000000000000 dup (0)\n",
    " org 0\n db 1000 dup (1000 dup (1000 dup (1)))\n",
    " org 0\n dw 40000 dup (1, 2)\n",
    ' org 0\n db 100000000 dup "abc"\n',
])
def test_huge_dup_is_one_error(source):
    with pytest.raises(AsmError) as err:
        assemble(source)
    (diagnostic,) = err.value.diagnostics
    assert f"more than the {MAX_DUP_BYTES} of the largest address space" in diagnostic.message


def test_a_dup_that_fits_still_works():
    assert assemble(" org 0\n db 3 dup (1, 2)\n").image(0, 5) == bytes([1, 2] * 3)


@pytest.mark.parametrize("source", [
    " org 0\n rept 100000000\n nop\n endm\n",
    " org 0\n rept 100000000\n endm\n",
    " org 0\n rept 10000\n rept 10000\n nop\n endm\n endm\n",
    " org 0\n irpc c," + "x" * 300000 + "\n nop\n endm\n",
    " org 0\nm macro\n m\n m\n endm\n m\n",
])
def test_runaway_expansion_is_one_error_and_no_output(tmp_path, source):
    """Through the command, in a child process: a hang would fail the test, not stall it."""
    (tmp_path / "loop.a48").write_text(source)
    res = subprocess.run([sys.executable, "-m", "cartridge.asm48", "loop.a48", "-o", "loop.bin"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert res.returncode == 1 and "Traceback" not in res.stderr
    (line,) = res.stderr.splitlines()
    assert f"expand more than {MAX_EXPANDED_LINES} lines" in line or "nesting deeper" in line
    assert not (tmp_path / "loop.bin").exists()


def test_a_rept_of_a_whole_program_memory_still_works():
    assert assemble(" org 0\n rept 4096\n nop\n endm\n").image(0, 0xFFF) == bytes(4096)
