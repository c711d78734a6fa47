"""The command line's messages in the user's language (gettext).

The language is the window's (reader.language): `--lang`, then what View -> Language
remembered for the library, then the environment's locale. The Chinese catalogue is
resources/translations/paper_reader_cli_zh_CN.po, compiled to
resources/locale/zh_CN/LC_MESSAGES/paper_reader_cli.mo, where gettext looks for it
(`make translations`; a test checks the two agree); only a language other than English
reads it. Messages are marked _("...") and ngettext("...", "...", n), with named {fields}.
"""

from __future__ import annotations

import argparse
import contextlib
import gettext
import os
import shutil
import sys
from collections.abc import Iterator, Sequence
from typing import NoReturn

from reader import language

#: gettext's domain of the command line's messages, and its folder in reader.resources
#: (resources/ in a checkout): locale/<code>/LC_MESSAGES/<DOMAIN>.mo
DOMAIN = "paper_reader_cli"
LOCALE_FOLDER = "locale"

_current: gettext.NullTranslations = gettext.NullTranslations()


def _(message: str) -> str:
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)


def _locale_dir() -> str:
    from reader.paths import package_folder

    return str(package_folder("reader.resources", "resources") / LOCALE_FOLDER)


def _catalogue(code: str) -> gettext.NullTranslations:
    if code == "en":
        return gettext.NullTranslations()
    try:
        return gettext.translation(DOMAIN, _locale_dir(), languages=[code])
    except (OSError, ValueError) as exc:  # (none, or damaged: struct.error is a ValueError)
        print(f"paper-reader: no {code} translation ({exc}); in English", file=sys.stderr)
        return gettext.NullTranslations()


@contextlib.contextmanager
def speaking(code: str) -> Iterator[None]:
    """The command line's messages, and argparse's, in language `code` meanwhile.

    argparse's own messages (usage:, options, its errors) come from gettext.gettext(),
    which reads the process's current domain in the language the environment names
    (Python's argparse documentation, "Translating the argparse output"): meanwhile
    the domain is ours and LANGUAGE is `code` (an editor `note --edit` starts speaks
    it too); both are put back afterwards. English changes nothing.
    """
    global _current
    before = _current
    _current = _catalogue(code)
    if not isinstance(_current, gettext.GNUTranslations):
        try:
            yield
        finally:
            _current = before
        return
    domain, language_env = gettext.textdomain(), os.environ.get("LANGUAGE")
    gettext.bindtextdomain(DOMAIN, _locale_dir())
    gettext.textdomain(DOMAIN)
    os.environ["LANGUAGE"] = code
    try:
        yield
    finally:
        _current = before
        gettext.textdomain(domain)
        if language_env is None:
            os.environ.pop("LANGUAGE", None)
        else:
            os.environ["LANGUAGE"] = language_env


def help_formatter(prog: str) -> argparse.HelpFormatter:
    """argparse's help layout (its formatter_class), fitted to the terminal in columns.

    argparse wraps help at a number of characters; a Chinese character takes two columns
    of a terminal, so in a language other than English the text is wrapped at half the
    width left of the help column (24 characters, argparse's), and no line overflows.
    """
    if not isinstance(_current, gettext.GNUTranslations):
        return argparse.HelpFormatter(prog)
    columns = shutil.get_terminal_size().columns - 2  # (argparse's own margin)
    return argparse.HelpFormatter(prog, width=24 + max(columns - 24, 40) // 2)


def language_code(text: str) -> str:
    """--lang's value: a code of reader.language.LANGUAGES (argparse's type=)."""
    code = language.normalise(text)
    if code is None:
        known = ", ".join(f"{code} ({name})" for code, name in language.LANGUAGES.items())
        raise argparse.ArgumentTypeError(
            _("unknown language {name!r} (supported: {known})").format(name=text, known=known)
        )
    return code


class _NotParsed(Exception):
    pass


class _Quiet(argparse.ArgumentParser):
    """A parser that says nothing: what it cannot read, the real one reports."""

    def error(self, message: str) -> NoReturn:
        raise _NotParsed(message)


def choose(argv: Sequence[str]) -> str:
    """The language of the command line given `argv` (its --lang and --data-dir, read
    before the real parser: its help is in that language)."""
    early = _Quiet(add_help=False)
    early.add_argument("--lang")
    early.add_argument("--data-dir")
    try:
        given, _rest = early.parse_known_args(argv)
    except (_NotParsed, argparse.ArgumentError):
        given = argparse.Namespace(lang=None, data_dir=None)
    from reader import paths

    return language.resolve(given.lang, paths.data_dir(given.data_dir))
