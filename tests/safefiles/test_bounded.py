"""safefiles' bounded reader: what each refusal carries, that a device is never opened where only
regular files are wanted, and that a FIFO put in a file's place after that check is refused at
once instead of waiting for a writer."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from safefiles import NotRegularFile, NotText, TooLarge, read_at_most, read_text_at_most


def test_a_file_at_the_limit_is_read_and_one_byte_more_is_too_large(tmp_path):
    path = tmp_path / "f.bin"
    path.write_bytes(b"x" * 10)
    assert read_at_most(path, 10, "tests") == b"x" * 10
    with pytest.raises(TooLarge) as caught:
        read_at_most(path, 9, "tests")
    assert (caught.value.path, caught.value.limit, caught.value.size) == (path, 9, 10)
    assert str(caught.value) == f"{path} is 10 bytes, larger than 9, the limit for tests"


def test_an_endless_device_is_read_only_to_the_limit_and_has_no_size():
    with pytest.raises(TooLarge) as caught:
        read_at_most("/dev/zero", 1000, "tests")
    assert caught.value.size is None
    assert str(caught.value) == "/dev/zero is larger than 1000 bytes, the limit for tests"


def test_text_drops_a_byte_order_mark_and_names_the_first_byte_that_is_not_utf8(tmp_path):
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_bytes(b"\xef\xbb\xbfh\xc3\xa4llo")
    bad.write_bytes(b"abc\xffdef")
    assert read_text_at_most(good, 100, "texts") == "hällo"
    with pytest.raises(NotText) as caught:
        read_text_at_most(bad, 100, "texts")
    assert caught.value.byte == 4 and "(byte 4 cannot be read)" in str(caught.value)


def test_regular_only_refuses_a_device_without_opening_it(monkeypatch):
    opened = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda path, *a, **k: opened.append(path) or real_open(path, *a, **k))
    with pytest.raises(NotRegularFile) as caught:
        read_at_most("/dev/null", 100, "a board file", regular_only=True)
    assert str(caught.value) == "/dev/null is not a regular file; give a board file"
    assert opened == []          # a serial port opened would reset the board behind it


def test_regular_only_refuses_a_folder_and_reads_a_regular_file(tmp_path):
    with pytest.raises(NotRegularFile):
        read_at_most(tmp_path, 100, "a file", regular_only=True)
    (tmp_path / "f").write_bytes(b"ok")
    assert read_at_most(tmp_path / "f", 100, "a file", regular_only=True) == b"ok"


def test_a_missing_file_is_an_oserror_for_the_callers_words(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_at_most(tmp_path / "missing", 100, "a file", regular_only=True)


# The check before opening is skipped (as if the FIFO appeared in the file's place just after
# it): the file opened is refused. Run apart, so that a reader waiting for a writer ends there.
RACE = """
import os, sys
from safefiles import NotRegularFile, bounded
bounded._refuse_special = lambda path, what: None
try:
    bounded.read_at_most(sys.argv[1], 100, "a file", regular_only=True)
except NotRegularFile as exc:
    print(exc)
"""


def test_a_fifo_that_appears_after_the_check_is_refused_not_waited_for(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    res = subprocess.run([sys.executable, "-c", RACE, str(fifo)], capture_output=True, text=True,
                         timeout=60)
    assert res.stdout == f"{fifo} is not a regular file; give a file\n", res.stderr
