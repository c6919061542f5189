"""``python -m i18n update`` keeps a vanished message as an obsolete ``#~`` entry, as GNU msgmerge
does, and gives its translation back when the source uses it again; check and compile ignore it."""
from __future__ import annotations

import gettext
import io

import pytest

from i18n import extract as ex
from i18n.catalog import mo_bytes, read_po


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A one-file source tree and its German catalog, in place of the repository's."""
    (tmp_path / "pkg").mkdir()
    po = tmp_path / "videopac.po"
    monkeypatch.setattr(ex, "ROOT", tmp_path)
    monkeypatch.setattr(ex, "PACKAGES", ("pkg",))
    monkeypatch.setattr(ex, "po_path", lambda language: po)

    def use(*messages: str) -> None:
        (tmp_path / "pkg" / "m.py").write_text(
            "from i18n import _\n" + "".join(f"print(_({m!r}))\n" for m in messages), encoding="utf-8")
    return po, use


def translate(po, english: str, german: str) -> None:
    text = po.read_text(encoding="utf-8")
    old = f'msgid "{english}"\nmsgstr ""\n'
    assert old in text
    po.write_text(text.replace(old, f'msgid "{english}"\nmsgstr "{german}"\n'), encoding="utf-8")


def test_a_vanished_message_is_kept_obsolete_and_revived(project):
    po, use = project
    use("stays", "{n} goes")
    ex.update("de")
    translate(po, "stays", "bleibt")
    translate(po, "{n} goes", "{n} geht")

    use("stays")                                    # the code no longer uses "{n} goes"
    ex.update("de")
    text = po.read_text(encoding="utf-8")
    assert '#, python-brace-format\n#~ msgid "{n} goes"\n#~ msgstr "{n} geht"\n' in text
    assert "#: pkg/m.py\nmsgid \"stays\"" in text
    assert '\n\n#, python-brace-format\n#~ msgid "{n} goes"' in text   # it names no place
    live = {e.msgid for e in read_po(po)}
    assert "stays" in live and "{n} goes" not in live
    assert [e.msgid for e in read_po(po, obsolete=True) if e.obsolete] == ["{n} goes"]

    ex.update("de")                                 # a second update keeps it, byte for byte
    assert po.read_text(encoding="utf-8") == text
    assert text.count("Translations of videopac") == 1

    # check and compile see only the live entries (argparse's own messages stay untranslated here)
    lacking = ex.missing("de")
    assert "stays" not in lacking and "{n} goes" not in lacking
    assert all(e.obsolete is False for e in read_po(po))
    t = gettext.GNUTranslations(io.BytesIO(mo_bytes(read_po(po, obsolete=True))))
    assert t.gettext("stays") == "bleibt" and t.gettext("{n} goes") == "{n} goes"

    use("stays", "{n} goes")                        # the code uses it again: its translation is back
    assert ex.update("de")[0] == 0                  # nothing new: the old entry came back
    revived = po.read_text(encoding="utf-8")
    assert "#~" not in revived
    assert '#: pkg/m.py\n#, python-brace-format\nmsgid "{n} goes"\nmsgstr "{n} geht"\n' in revived
    t = gettext.GNUTranslations(io.BytesIO(mo_bytes(read_po(po))))
    assert t.gettext("{n} goes") == "{n} geht"


def test_an_untranslated_vanished_message_goes(project):
    po, use = project
    use("stays", "never translated")
    ex.update("de")
    use("stays")
    ex.update("de")
    assert "never translated" not in po.read_text(encoding="utf-8")
