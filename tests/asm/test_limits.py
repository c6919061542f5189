"""Assembler loops and data have limits, each reported in one sentence: a huge DUP, a REPT of
a hundred million, nested REPTs and a long IRPC end at once instead of running for hours or
taking all memory."""
import subprocess
import sys
from pathlib import Path

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
    " org 0\n rept 100000000\n endm\n",
    " org 0\n rept 100000000\n ds 1\n endm\n",
    " org 0\n rept 10000\n rept 10000\n endm\n endm\n",
    " org 0\n irpc c," + "x" * 300000 + "\n endm\n",
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


@pytest.mark.parametrize("source, expansion", [
    (" org 0\n rept 100000000\n nop\n endm\n", "REPT at loop.a48:2"),
    (" org 0\n rept 10000\n rept 10000\n nop\n endm\n endm\n", "REPT at loop.a48:3"),
    (" org 0\n irpc c," + "x" * 300000 + "\n nop\n endm\n", "IRPC at loop.a48:2"),
    (" org 0\nn set 0\n while n < 100000\n db 1,2\nn set n+1\n endm\n", "WHILE at loop.a48:3"),
    (" cpu 8021\n org 0\n rept 100000000\n nop\n endm\n", "REPT at loop.a48:3"),
])
def test_an_expansion_whose_code_leaves_program_memory_stops_there(tmp_path, monkeypatch,
                                                                   source, expansion):
    """A runaway repetition that assembles code is stopped where its code leaves the program
    memory, after at most 4096 lines, not after MAX_EXPANDED_LINES of them (issue 26): the one
    error names the first address beyond memory and the expansion."""
    import cartridge.asm48.core as core

    monkeypatch.setattr(core, "MAX_EXPANDED_LINES", 6000)    # more than 4096: not the stop
    with pytest.raises(AsmError) as err:
        assemble(source, str(tmp_path / "loop.a48"))
    (diagnostic,) = err.value.diagnostics
    assert "beyond" in diagnostic.message and "program memory" in diagnostic.message
    assert f"(in {expansion}" in diagnostic.message.replace(str(tmp_path) + "/", "")


def test_code_beyond_memory_outside_an_expansion_is_still_one_error_among_others():
    with pytest.raises(AsmError) as err:
        assemble(" org 0FFEh\n mov a,#1\n mov a,#1\n bogus\n")
    assert [d.line for d in err.value.diagnostics] == [3, 4]


def test_sections_nest_64_deep_and_no_deeper():
    """Each SECTION level multiplies the work of every line (each name is looked up in every
    open section): 1000 nested SECTIONs took a minute; now the 65th level is one error and the
    assembly stops (the ENDSECTIONs after it would each fail too)."""
    from cartridge.asm48.sections import MAX_SECTION_DEPTH

    def nested(levels: int) -> str:
        opening = "".join(f"s{i} section s{i}\nl{i}: nop\n" for i in range(levels))
        return " org 0\n" + opening + " jmp l0\n" + " endsection\n" * levels

    deepest = assemble(nested(MAX_SECTION_DEPTH))
    assert deepest.image(0, MAX_SECTION_DEPTH + 1)[-2:] == bytes([0x04, 0x00])    # jmp l0
    with pytest.raises(AsmError) as err:
        assemble(nested(1000))
    (diagnostic,) = err.value.diagnostics
    assert (diagnostic.line, diagnostic.message) == (
        2 + 2 * MAX_SECTION_DEPTH, f"SECTIONs nested deeper than {MAX_SECTION_DEPTH} levels")


@pytest.mark.parametrize("source", [
    " org 0\nm macro a\n m a a\n endm\n m xy\n",
    " org 0\nm macro\n m ALLARGS,ALLARGS\n endm\n m 1\n",
])
def test_a_macro_that_doubles_its_arguments_stops_at_the_line_bound(tmp_path, source):
    """Each of the 64 levels doubled the line: 2**64 characters, a hang until memory ran out.
    Through the command, in a child process: a hang fails the test instead of stalling it."""
    from cartridge.asm48.core import MAX_EXPANDED_LINE

    (tmp_path / "m.a48").write_text(source)
    res = subprocess.run([sys.executable, "-m", "cartridge.asm48", "m.a48", "-o", "m.bin"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert res.returncode == 1 and not (tmp_path / "m.bin").exists()
    (line,) = res.stderr.splitlines()
    assert "error: a macro expansion makes a line of " in line
    assert f"characters, more than {MAX_EXPANDED_LINE}; does a macro pass its arguments on " \
           "twice?" in line


def test_expansions_stop_at_the_text_bound(monkeypatch):
    import cartridge.asm48.core as core

    monkeypatch.setattr(core, "MAX_EXPANDED_TEXT", 100_000)
    source = ' org 0\nm macro a\n if 0\n db a\n endif\n endm\n rept 100\n m "' + "x" * 5000 + \
        '"\n endm\n'
    with pytest.raises(AsmError) as err:
        assemble(source)
    (diagnostic,) = err.value.diagnostics
    assert diagnostic.message.startswith("macros, REPT, IRP, IRPC and WHILE expand more than "
                                         "100000 characters")
    monkeypatch.setattr(core, "MAX_EXPANDED_TEXT", 2_000_000)
    assert assemble(source).memory == {}                   # under the bound: assembles


def test_include_files_nest_32_deep_and_no_deeper(tmp_path):
    """Each include level is a level of the assembler's recursion: 400 files each including the
    next ended in a RecursionError traceback."""
    from cartridge.asm48.source import MAX_INCLUDE_DEPTH

    def chain(levels: int) -> Path:
        for i in range(levels):
            (tmp_path / f"f{i}.inc").write_text(f'\tinclude "f{i + 1}.inc"\n')
        (tmp_path / f"f{levels}.inc").write_text("\tnop\n")
        main = tmp_path / "main.a48"
        main.write_text('\torg 0\n\tinclude "f0.inc"\n')
        return main

    main = chain(MAX_INCLUDE_DEPTH - 1)
    assert assemble(main.read_text(), str(main)).image(0, 0) == b"\x00"
    main = chain(400)
    with pytest.raises(AsmError) as err:
        assemble(main.read_text(), str(main))
    (diagnostic,) = err.value.diagnostics
    assert diagnostic.message == f"include files nested deeper than {MAX_INCLUDE_DEPTH} levels"
