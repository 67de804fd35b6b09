"""The translation catalogues in `translations/`: compile them, check them.

    python -m league.i18n.catalogues compile   # .po -> .mo where the .mo is missing or older
    python -m league.i18n.catalogues update    # extract -> update the catalogues -> compile
    python -m league.i18n.catalogues check     # the same on copies, then fail listing
                                               # untranslated, fuzzy or broken entries

The compiled .mo files are build output (not committed): `make run`, `make i18n-check`
and the test session compile them. See docs/i18n.md.
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from league.i18n.languages import DEFAULT_LANGUAGE, LANGUAGE_CODES

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "translations"
TEMPLATE = TRANSLATIONS / "messages.pot"
#: The keywords our code marks texts with (besides gettext, ngettext, _).
KEYWORDS = ("N_", "lazy_gettext", "_l")
PROJECT = "Blood Bowl League Manager"


def po_path(language: str, directory: Path = TRANSLATIONS) -> Path:
    return directory / language / "LC_MESSAGES" / "messages.po"


def translated_languages() -> tuple[str, ...]:
    """Every language but English (the msgids are English)."""
    return tuple(code for code in LANGUAGE_CODES if code != DEFAULT_LANGUAGE)


def _read(path: Path, language: str) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=language)


def compile_catalogues(directory: Path = TRANSLATIONS, *, force: bool = False) -> list[Path]:
    """Write each language's .mo beside its .po when missing or older: the ones written.

    Fuzzy entries are left out of the .mo (as pybabel compile does): a guess is not shown.
    """
    written = []
    for language in translated_languages():
        po = po_path(language, directory)
        if not po.exists():
            continue
        mo = po.with_suffix(".mo")
        if not force and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        catalog = _read(po, language)
        temporary = mo.with_suffix(".mo.tmp")
        with temporary.open("wb") as file:
            write_mo(file, catalog, use_fuzzy=False)
        temporary.replace(mo)
        written.append(mo)
    return written


def _incomplete(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return not all(strings)


def problems(catalog: Catalog) -> list[str]:
    """Every entry of `catalog` not ready to show: untranslated, fuzzy, or with placeholders
    that do not match its English (what `pybabel compile` reports as errors)."""
    found = [
        f"placeholders: {message.id!r}: {'; '.join(map(str, errors))}"
        for message, errors in catalog.check()
    ]
    for message in catalog:
        if not message.id:
            continue  # the header
        msgid = message.id[0] if isinstance(message.id, tuple) else message.id
        if message.fuzzy:
            found.append(f"fuzzy: {msgid!r}")
        elif _incomplete(message):
            found.append(f"untranslated: {msgid!r}")
    return found


def _pybabel(*arguments: str) -> None:
    """Run a pybabel command in this process (its progress lines are quietened)."""
    logging.getLogger("babel").setLevel(logging.WARNING)
    status = CommandLineInterface().run(["pybabel", "--quiet", *arguments])
    if status:
        raise RuntimeError(f"pybabel {arguments[0]} failed ({status})")


def extract_and_update(directory: Path = TRANSLATIONS) -> None:
    """Extract the marked texts into `directory`'s messages.pot and merge them into every
    catalogue there."""
    template = directory / TEMPLATE.name
    os.chdir(ROOT)  # babel.cfg's patterns are relative to the project
    keywords = [argument for keyword in KEYWORDS for argument in ("-k", keyword)]
    # --ignore-dirs: not the default "_*", which would skip templates/_partials and _macros.
    # --add-comments: the "Translators:" notes before a text reach the catalogues; the
    # locations stay (a translator reads where a short text like "P" is used); no wrapping,
    # so a changed text is one changed line.
    _pybabel(
        "extract",
        "-F",
        "babel.cfg",
        *keywords,
        "--ignore-dirs",
        ".* __pycache__",
        "--add-comments",
        "Translators:",
        "--sort-by-file",
        "--no-wrap",
        "--project",
        PROJECT,
        "-o",
        str(template),
        ".",
    )
    for language in translated_languages():
        common = ("-i", str(template), "-d", str(directory), "-l", language, "--no-wrap")
        if po_path(language, directory).exists():
            # No fuzzy guesses: a new text is plainly untranslated until someone writes it.
            _pybabel("update", *common, "--no-fuzzy-matching")
        else:
            _pybabel("init", *common)


def check(languages: Iterable[str] | None = None) -> dict[str, list[str]]:
    """Each language's problems (empty when complete) once its catalogue is brought up to
    date with the sources. Works on copies: the committed files stay as they are (`update`
    writes them)."""
    with tempfile.TemporaryDirectory() as temporary:
        copy = Path(temporary) / TRANSLATIONS.name
        shutil.copytree(TRANSLATIONS, copy, ignore=shutil.ignore_patterns("*.mo"))
        extract_and_update(copy)
        return {
            language: problems(_read(po_path(language, copy), language))
            for language in (languages or translated_languages())
        }


def main(argv: list[str]) -> int:
    if argv[:1] == ["compile"]:
        for mo in compile_catalogues(force="--force" in argv):
            print(f"compiled {mo.relative_to(ROOT)}")
        return 0
    if argv[:1] == ["update"]:
        extract_and_update()
        compile_catalogues(force=True)
        print(f"updated {TEMPLATE.relative_to(ROOT)} and the catalogues beside it")
        return 0
    if argv[:1] == ["check"]:
        failed = False
        for language, found in check().items():
            if found:
                failed = True
                print(f"{language}: {len(found)} entries not ready")
                for problem in found:
                    print(f"  {problem}")
            else:
                print(f"{language}: complete")
        return 1 if failed else 0
    print(
        "usage: python -m league.i18n.catalogues compile [--force] | update | check",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
