"""Regenerate the asl golden files of tests/asm/asl_golden/ with a local asl (the oracle).

Usage: tools/asl_golden.py --asl DIR   (DIR holds asl and p2bin of asl 1.42 Beta [Bld 148])

For each NAME.a48 it runs `asl -q -L -i DIR/include NAME.a48` and
`p2bin NAME.p NAME.bin -r '$-$'` and keeps NAME.bin; for each refused/NAME.a48 it keeps asl's
error lines in refused/NAME.err.  Work happens in a temporary directory; only .bin and .err
files are written into the repository.  The tests never need asl: they compare asm48's
output with these committed files (tests/asm/test_asl_golden.py)."""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "asm" / "asl_golden"


def run_asl(asl_dir: Path, source: Path, work: Path) -> tuple[bool, str]:
    """Assemble `source` (with the other files of its directory) in `work`."""
    for f in source.parent.iterdir():
        if f.is_file():
            shutil.copy(f, work / f.name)
    # in the C locale: the .err files keep asl's English reasons, which asm48 quotes and the
    # tests compare in English, whatever language the maintainer's desktop speaks
    english = dict(os.environ, LANG="C", LC_ALL="C", LC_MESSAGES="C", LANGUAGE="")
    proc = subprocess.run([str(asl_dir / "asl"), "-q", "-L", "-i", str(asl_dir / "include"),
                           source.name], cwd=work, capture_output=True, text=True,
                          encoding="latin-1", timeout=60, env=english)
    return proc.returncode == 0, proc.stdout + proc.stderr


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="asl_golden", description=__doc__.splitlines()[0])
    parser.add_argument("--asl", type=Path, required=True, help="directory with asl and p2bin")
    args = parser.parse_args(argv)
    if not (args.asl / "asl").is_file() or not (args.asl / "p2bin").is_file():
        print(f"asl_golden: no asl and p2bin in {args.asl}.", file=sys.stderr)
        return 2
    failed = []
    for source in sorted(GOLDEN.glob("*.a48")):
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            ok, output = run_asl(args.asl, source, work)
            if not ok:
                failed.append(f"{source.name}: {output.strip()}")
                continue
            subprocess.run([str(args.asl / "p2bin"), source.stem + ".p",
                            source.stem + ".bin", "-r", "$-$"], cwd=work, check=True,
                           capture_output=True, timeout=60)
            shutil.copy(work / (source.stem + ".bin"), source.with_suffix(".bin"))
    for source in sorted((GOLDEN / "refused").glob("*.a48")):
        with tempfile.TemporaryDirectory() as tmp:
            ok, output = run_asl(args.asl, source, Path(tmp))
            if ok:
                failed.append(f"refused/{source.name}: asl accepts it")
                continue
            errors = [re.sub(r"^[> ]*", "", line) for line in output.splitlines()
                      if "error:" in line]
            source.with_suffix(".err").write_text("\n".join(e.rstrip(" \b") for e in errors) + "\n")
    for line in failed:
        print(f"asl_golden: {line}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
