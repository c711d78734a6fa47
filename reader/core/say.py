"""The messages of the layers without Qt (core, store, formats, render, the command
line) in the user's language, through gettext.

One catalogue holds them all (resources/translations/paper_reader_cli_zh_CN.po,
compiled to resources/locale/zh_CN/LC_MESSAGES/paper_reader_cli.mo). This module only
holds the translations in use: the command line (reader.cli_lang.speaking) and the
window (reader.ui.i18n.use) load the catalogue of a language other than English and
hand it to use(); before that, and in English, messages are said as written. Messages
are marked _("...") and ngettext("...", "...", n), with named {fields} filled after
translation, and said when they are made (not at import time).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (a Protocol class costs start-up time: types only)
    from typing import Protocol

    class Translations(Protocol):
        """What gettext.NullTranslations and GNUTranslations offer (and English)."""

        def gettext(self, message: str, /) -> str: ...

        def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


class English:
    """The messages as written (gettext's NullTranslations without importing gettext)."""

    def gettext(self, message: str, /) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return singular if n == 1 else plural


_current: Translations = English()


def _(message: str) -> str:
    """`message` in the language in use."""
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of `singular`/`plural` for the count `n`, in the language in use."""
    return _current.ngettext(singular, plural, n)


def use(translations: Translations | None) -> Translations:
    """Say messages with `translations` (None: as written) from now on; returns the
    translations used before (to put them back)."""
    global _current
    before, _current = _current, translations if translations is not None else English()
    return before


def current() -> Translations:
    """The translations in use."""
    return _current
