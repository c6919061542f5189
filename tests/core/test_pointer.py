"""pointer.address_of answers known arrays from memory (numpy takes microseconds to tell an
address); the answer must still be the array's address now: after a resize that moves it,
and for new arrays that reuse the id of a dead one."""
from __future__ import annotations

import numpy as np
import pytest

from o2em_core.pointer import address_of


def test_an_address_is_the_arrays_own_now() -> None:
    a = np.zeros(1000, np.uint8)
    assert address_of(a) == a.ctypes.data == address_of(a)
    with pytest.raises(ValueError):                    # numpy never moves it in place
        a.resize(1 << 20, refcheck=False)
    for n in range(300):                               # ids of dead arrays come back
        b = np.zeros(16 + n % 7, np.uint8)
        assert address_of(b) == b.ctypes.data
        assert address_of(b[2:]) == b[2:].ctypes.data


def test_a_strided_view_is_refused() -> None:
    with pytest.raises(ValueError):
        address_of(np.zeros((4, 4), np.uint8)[:, ::2])
