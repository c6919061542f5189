"""asl's standard include files that 8048 homebrew includes by name, built in so that such
sources assemble without an asl installation.  Written for asm48 after the asl manual's
description of `bitfuncs.inc` (bit and byte helper functions defined with FUNCTION); a file
of the same name next to the source or in an -I directory takes precedence."""

BITFUNCS = """\
; bitfuncs.inc (asm48 built-in): bit and byte helper functions, included once
        ifndef  bitfuncsinc
bitfuncsinc equ 1
mask    function start,bits,((1<<bits)-1)<<start
invmask function start,bits,~mask(start,bits)
cutout  function x,start,bits,x&mask(start,bits)
hi      function x,(x>>8)&255
lo      function x,x&255
hiword  function x,(x>>16)&65535
loword  function x,x&65535
odd     function x,(x&1)=1
even    function x,(x&1)=0
getbit  function x,n,(x>>n)&1
        endif
"""

STANDARD_INCLUDES: dict[str, str] = {"bitfuncs.inc": BITFUNCS}
