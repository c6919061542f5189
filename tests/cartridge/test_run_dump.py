"""`videopac run --dump` decodes the battle program's published symbols (tests/cartridge)."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

from tests.cartridge.conftest import CART, ROOT


def run(tmp_path, *extra, script: str = "") -> subprocess.CompletedProcess:
    (tmp_path / "in.txt").write_text(script)
    return subprocess.run([sys.executable, "-m", "videopac", "run", *extra, "--headless",
                           "--input", str(tmp_path / "in.txt"), "--dump",
                           str(tmp_path / "out.json")],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


BATTLE_SCRIPT = """
10 press SPACE
14 release SPACE
""" + "".join(f"{20 + 6 * i} press {k}\n{23 + 6 * i} release {k}\n"
              for i, k in enumerate(["R", "T", "2", "5", "0", "0", "B", "P", "9", "0"])) + """
100 press ENTER
104 release ENTER
"""


def test_dump_has_the_battle_object_of_the_builtin_cartridge(tmp_path):
    done = run(tmp_path, "--frames", "160", script=BATTLE_SCRIPT)
    assert done.returncode == 0, done.stderr
    battle = json.loads((tmp_path / "out.json").read_text())["battle"]
    assert battle["phase"] == "battle"
    assert (battle["weapon_red"], battle["weapon_blue"]) == ("tank", "plane")
    assert 2480 <= battle["energy_red"] < 2500
    assert 60 <= battle["energy_blue"] < 90
    assert battle["battle_result"] == "running"


def test_dump_reads_the_symbol_file_next_to_the_cartridge(tmp_path):
    shutil.copy(CART, tmp_path / "c.bin")
    shutil.copy(CART.with_suffix(".json"), tmp_path / "c.json")
    done = run(tmp_path, str(tmp_path / "c.bin"), "--frames", "20", script="5 press A\n")
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "out.json").read_text())["battle"]["phase"] == "computer"


def test_no_battle_object_without_a_symbol_file(tmp_path):
    shutil.copy(CART, tmp_path / "c.bin")
    done = run(tmp_path, str(tmp_path / "c.bin"), "--frames", "5")
    assert done.returncode == 0, done.stderr
    assert "battle" not in json.loads((tmp_path / "out.json").read_text())


def test_a_broken_symbol_file_is_one_clear_error(tmp_path):
    shutil.copy(CART, tmp_path / "c.bin")
    (tmp_path / "c.json").write_text("{not json")
    done = run(tmp_path, str(tmp_path / "c.bin"), "--frames", "5")
    assert done.returncode == 2
    assert done.stderr.startswith("videopac run: ") and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
