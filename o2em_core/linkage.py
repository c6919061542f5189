"""Compiled units the hot loop calls by name instead of compiling them into itself.

numba compiles a function together with every function it calls: each caller links its
callees' code in, then optimizes and translates the whole again. The compositor
(``vdc.catch_up``, with ``raster.draw_into`` below it) is reached from five places on the way
up to ``cpu.run`` (``run_events``, ``vdc.read``, ``bus.movx_read``, ``vdc.write``,
``bus.movx_write``), and the drawing of a line (``raster._compose_line``, with the grid,
majors and sprites below it) sits three levels below ``catch_up``; so a first start optimized
and translated them once per level: most of the first start's time. A unit is compiled once,
on its own, as a C-callable function (numba's ``cfunc``, cached with the rest of the core,
jit_cache.py) and published to LLVM under a fixed symbol name; compiled callers call that
symbol and never carry its code. LLVM resolves the symbol when a caller is made executable,
so the unit must be linked first: when a caller is compiled, the call links it; ``Machine``
links every unit before its first compiled call (``link``); and ``raster``, whose
``draw_into`` the unit tests call from Python, links the units already in the cache as it is
imported (``link_cached``), because a caller loaded from the cache is not compiled.

A unit takes C values (integers, the typed pointers of pointer.py; a numpy array passes its
data pointer) and returns nothing. Without the JIT (``NUMBA_DISABLE_JIT=1``) it is its Python
function.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba import cfunc, config, types
from numba.core import cgutils
from numba.extending import intrinsic

from . import jit_cache


class Unit:
    """``py_func`` compiled on its own with the C argument types ``argtypes``."""

    def __init__(self, py_func: Callable[..., None], argtypes: tuple[Any, ...]) -> None:
        self.py_func = py_func
        self.argtypes = argtypes
        self.symbol = f"{py_func.__module__}.{py_func.__name__}"    # o2em_core.vdc.catch_up
        self.compiled: Any = None                                    # the numba cfunc

    def link(self) -> None:
        """Compile the unit (or load it from the cache) and publish its symbol, once."""
        if self.compiled is None:
            import llvmlite.binding as ll
            with jit_cache.in_use():
                self.compiled = cfunc(types.void(*self.argtypes), cache=True)(self.py_func)
            ll.add_symbol(self.symbol, self.compiled.address)

    def cached(self) -> bool:
        """True when the unit is in the core's cache (so callers compiled with it may be)."""
        module = self.py_func.__module__.rsplit(".", 1)[-1]
        return any(jit_cache.cache_dir().rglob(f"{module}.{self.py_func.__name__}-*.nbi"))

    def caller(self) -> Any:
        """What compiled code calls: an intrinsic that converts the arguments to the unit's
        types and calls its symbol."""
        argtypes, symbol = self.argtypes, self.symbol

        def typer(typingctx: Any, *args: Any) -> Any:
            def codegen(context: Any, builder: Any, signature: Any, values: Any) -> Any:
                from llvmlite import ir
                fnty = ir.FunctionType(ir.VoidType(),
                                       [context.get_value_type(t) for t in argtypes])
                fn = cgutils.get_or_insert_function(builder.module, fnty, symbol)
                builder.call(fn, [_c_value(context, builder, v, have, want)
                                  for v, have, want in zip(values, signature.args, argtypes)])
                return context.get_dummy_value()
            self.link()                  # a caller is being compiled: the symbol must exist
            return types.void(*args), codegen

        # numba reads an intrinsic's parameters from its definition: one named parameter each
        names = ", ".join(f"a{i}" for i in range(len(argtypes)))
        space: dict[str, Any] = {"typer": typer}
        exec(f"def {self.py_func.__name__}(typingctx, {names}):\n"
             f"    return typer(typingctx, {names})", space)
        return intrinsic(space[self.py_func.__name__])


def _c_value(context: Any, builder: Any, value: Any, have: Any, want: Any) -> Any:
    """``value`` of numba type ``have`` as the unit's C type ``want``: an array passes its
    data pointer (the unit tests call the compositor with numpy arrays), a number is cast."""
    if isinstance(have, types.Array) and isinstance(want, types.CPointer):
        data = context.make_array(have)(context, builder, value).data
        return builder.bitcast(data, context.get_value_type(want))
    return context.cast(builder, value, have, want)


UNITS: list[Unit] = []


def unit(*argtypes: Any) -> Callable[[Callable[..., None]], Any]:
    """Decorator: make the function a unit with these C argument types; the name then stands
    for what compiled callers call (the function itself without the JIT)."""
    def make(py_func: Callable[..., None]) -> Any:
        if config.DISABLE_JIT:
            return py_func
        u = Unit(py_func, argtypes)
        UNITS.append(u)
        return u.caller()
    return make


def link() -> None:
    """Make every unit callable from compiled code (before the first compiled call)."""
    for u in UNITS:
        u.link()


def link_cached() -> None:
    """Link the units already in the cache (a quick load): a module whose compiled functions
    call a unit and may be called from Python calls this as it is imported, because a caller
    loaded from the cache is made executable without being compiled, so without ``link``."""
    for u in UNITS:
        if u.compiled is None and u.cached():
            u.link()
