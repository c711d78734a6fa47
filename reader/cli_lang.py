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
from collections.abc import Iterator, Sequence
from typing import NoReturn

from reader import language
from reader.core import say
from reader.core.say import _, ngettext

__all__ = ["_", "ngettext", "speaking", "help_formatter", "language_code", "choose"]

#: (kept here too: where the command line's catalogue is)
DOMAIN = language.DOMAIN


@contextlib.contextmanager
def speaking(code: str) -> Iterator[None]:
    """The command line's messages, and argparse's, in language `code` meanwhile.

    argparse's own messages (usage:, options, its errors) come from gettext.gettext(),
    which reads the process's current domain in the language the environment names
    (Python's argparse documentation, "Translating the argparse output"): meanwhile
    the domain is ours and LANGUAGE is `code` (an editor `note --edit` starts speaks
    it too); both are put back afterwards. English changes nothing.
    """
    found = language.catalogue(code)
    before = say.use(found)
    if found is None:
        try:
            yield
        finally:
            say.use(before)
        return
    domain, language_env = gettext.textdomain(), os.environ.get("LANGUAGE")
    gettext.bindtextdomain(DOMAIN, language.locale_dir())
    gettext.textdomain(DOMAIN)
    os.environ["LANGUAGE"] = code
    try:
        yield
    finally:
        say.use(before)
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
    if isinstance(say.current(), say.English):
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
