"""Raw views of the machine's state arrays for the compiled loop.

A numba array carries a reference count that the compiled code raises and lowers whenever an
array is passed on, sliced or assigned; in the per-instruction and per-scanline paths that
bookkeeping cost more than the emulation itself. The hot loop therefore receives the state
arrays' addresses as plain integers and indexes them through typed pointers (numba's
``CPointer``, indexed like a 1-D array, without bounds or negative-index handling). The arrays
stay owned by ``Machine``, which keeps them alive and never reallocates them (a loaded state
is copied into them).
"""
from __future__ import annotations

import ctypes
import weakref
from typing import Any, Callable

import numpy as np
from numba import config, types
from numba.extending import intrinsic

# what ``view`` shows without the JIT (NUMBA_DISABLE_JIT=1): enough for any state array
_PLAIN_VIEW_BYTES = 1 << 20


@intrinsic
def view(typingctx: Any, addr: Any, dtype: Any) -> tuple[Any, Callable[..., Any]] | None:
    """``view(address, numba.uint8)`` inside compiled code: a pointer to the elements of the
    given type at ``address`` (an integer from ``address_of``)."""
    if not isinstance(addr, types.Integer):
        return None
    item = dtype.dtype if isinstance(dtype, types.DType) else getattr(dtype, "instance_type",
                                                                     None)
    if not isinstance(item, types.Number):
        return None
    sig = types.CPointer(item)(addr, dtype)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))
    return sig, codegen


def _plain_view(addr: int, dtype: object) -> np.ndarray:
    """Without the JIT: a numpy array over the memory at ``addr``."""
    item = np.dtype(str(dtype))
    raw = (ctypes.c_uint8 * _PLAIN_VIEW_BYTES).from_address(addr)
    return np.frombuffer(memoryview(raw), dtype=item)


if config.DISABLE_JIT:
    view = _plain_view                              # the interpreted machine


# the addresses asked for lately, by id(): (the array, weakly; its shape; its address).
# numpy takes microseconds to tell an address (array.ctypes), as long as converting a frame's
# changed lines; an array keeps its address while it lives (numpy refuses to resize in place
# an array whose buffer ctypes has seen), so a known one is answered from here.
_KNOWN: dict[int, tuple[weakref.ref[np.ndarray], tuple[int, ...], int]] = {}
_KNOWN_MAX = 64


def address_of(array: np.ndarray) -> int:
    """The address of a C-contiguous array's first element, for ``view``."""
    known = _KNOWN.get(id(array))
    if known is not None and known[0]() is array and known[1] == array.shape:
        return known[2]
    if not array.flags.c_contiguous:
        raise ValueError("the compiled loop needs C-contiguous arrays")
    at = int(array.ctypes.data)
    if len(_KNOWN) >= _KNOWN_MAX:
        _KNOWN.clear()
    _KNOWN[id(array)] = (weakref.ref(array), array.shape, at)
    return at
