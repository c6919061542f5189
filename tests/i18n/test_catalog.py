"""The catalogs: every marked message has a German translation, and the .po compiles as gettext reads it."""
from __future__ import annotations

import gettext
import io

import pytest

import i18n
from i18n.catalog import mo_bytes, po_path, read_po
from i18n.extract import MarkError, extract, messages_in, missing


@pytest.mark.parametrize("language", [lang for lang in i18n.LANGUAGES if lang != "en"])
def test_every_message_is_translated(language):
    lacking = missing(language)
    assert not lacking, (f"{len(lacking)} messages lack a {language} translation; run "
                         f"'python -m i18n update' and translate them in {po_path(language)}: "
                         + "; ".join(map(repr, lacking[:10])))


def test_the_check_sees_a_new_message(tmp_path):
    """A message marked in the source but not in the catalog is what the check reports."""
    new = messages_in('from i18n import _\nprint(_("a sentence nobody translated yet"))\n', "x.py")
    assert [e.msgid for e in new] == ["a sentence nobody translated yet"]
    catalog = {e.msgid for e in read_po(po_path("de")) if e.translated}
    assert "a sentence nobody translated yet" not in catalog
    assert "usage: " in catalog and "usage: " in {e.msgid for e in extract().values()}


def test_an_f_string_cannot_be_marked():
    with pytest.raises(MarkError, match="f-string"):
        messages_in('_(f"{x} won")\n', "x.py")


def test_markers_found_in_every_form():
    source = ('_("one")\nN_("two")\ni18n._("three")\nngettext("{n} chip", "{n} chips", n)\n'
              'pgettext("verb", "war")\n_(variable)\n')
    found = {(e.msgctxt, e.msgid, e.msgid_plural) for e in messages_in(source, "x.py")}
    assert found == {(None, "one", None), (None, "two", None), (None, "three", None),
                     (None, "{n} chip", "{n} chips"), ("verb", "war", None)}


def test_compiled_catalog_is_what_gettext_reads(tmp_path):
    po = tmp_path / "t.po"
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
                  '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
                  '# a comment\nmsgid "war chest"\nmsgstr "Kriegs"\n"kasse"\n\n'
                  '#, fuzzy\nmsgid "guess"\nmsgstr "Vermutung"\n\n'
                  'msgid "untranslated"\nmsgstr ""\n\n'
                  'msgctxt "verb"\nmsgid "war"\nmsgstr "Krieg"\n\n'
                  'msgid "{n} chip"\nmsgid_plural "{n} chips"\nmsgstr[0] "{n} Chip"\n'
                  'msgstr[1] "{n} Chips"\n\n#~ msgid "old"\n#~ msgstr "alt"\n', encoding="utf-8")
    t = gettext.GNUTranslations(io.BytesIO(mo_bytes(read_po(po))))
    assert t.gettext("war chest") == "Kriegskasse"
    assert t.gettext("guess") == "guess"            # fuzzy entries are not used, as msgfmt does
    assert t.gettext("untranslated") == "untranslated"
    assert t.gettext("old") == "old"
    assert t.pgettext("verb", "war") == "Krieg"
    assert [t.ngettext("{n} chip", "{n} chips", n) for n in (1, 2)] == ["{n} Chip", "{n} Chips"]


def test_german_catalog_compiles_and_translates_argparse():
    entries = read_po(po_path("de"))
    t = gettext.GNUTranslations(io.BytesIO(mo_bytes(entries)))
    assert t.gettext("usage: ") == "Aufruf: "
    i18n.set_language("de")
    assert i18n._("usage: ") == "Aufruf: "
    assert i18n.pgettext("no such context", "usage: ") == "usage: "
    assert i18n.ngettext("expected %s argument", "expected %s arguments", 2) == "%s Argumente erwartet"
    i18n.set_language("en")
    assert i18n._("usage: ") == "usage: "


@pytest.mark.parametrize("damage", [b"\xde\x12\x04\x95" + b"\0" * 5, b"not a catalog", b""])
def test_a_damaged_catalog_falls_back_to_english(tmp_path, monkeypatch, damage):
    """A damaged .mo beside a missing .po leaves the program readable in English, no traceback."""
    from i18n import catalog
    (tmp_path / "de" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "de" / "LC_MESSAGES" / "videopac.mo").write_bytes(damage)
    monkeypatch.setattr(catalog, "LOCALE_DIR", tmp_path)
    assert catalog.load_translations("de").gettext("usage: ") == "usage: "


def test_a_damaged_po_falls_back_to_english(tmp_path, monkeypatch):
    from i18n import catalog
    (tmp_path / "de" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "de" / "LC_MESSAGES" / "videopac.po").write_text('msgid "usage: "\nmsgstr "\\x"\n')
    monkeypatch.setattr(catalog, "LOCALE_DIR", tmp_path)
    assert catalog.load_translations("de").gettext("usage: ") == "usage: "


def _fields(text: str) -> list[str]:
    """The {name} and %(name)s / %s fields a message fills in, sorted."""
    import re
    braces = re.findall(r"(?<!\{)\{([^{}:!]*)[^{}]*\}(?!\})", text)
    percent = re.findall(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?[sdrif]", text)
    return sorted(braces) + sorted(percent)


@pytest.mark.parametrize("language", [lang for lang in i18n.LANGUAGES if lang != "en"])
def test_translations_fill_in_the_same_fields(language):
    """A translation that drops or renames a {field} would fail (KeyError) when shown."""
    wrong = []
    for e in read_po(po_path(language)):
        if not e.msgid or not e.translated:
            continue
        for k, text in enumerate(e.msgstr):
            source = e.msgid if k == 0 or e.msgid_plural is None else e.msgid_plural
            if set(_fields(text)) != set(_fields(source)):
                wrong.append(f"{e.msgid!r} -> {text!r}")
    assert not wrong, "translations with other fields than their message:\n" + "\n".join(wrong)


def test_the_field_check_sees_a_dropped_field():
    assert _fields("{name} pays {amount:+d} into the war chest") == ["amount", "name"]
    assert _fields("%(prog)s: error: %(message)s\n") == ["message", "prog"]
    assert set(_fields("{name} zahlt in die Kasse")) != set(_fields("{name} pays {amount}"))
