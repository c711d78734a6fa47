"""The messages of the layers without Qt (core, store, formats, render, the command
line) in the user's language, through gettext.

One catalogue holds them all (resources/translations/paper_reader_cli_zh_CN.po,
compiled to resources/locale/zh_CN/LC_MESSAGES/paper_reader_cli.mo). This module only
holds the translations in use: the command line (reader.cli_lang.speaking) and the
window (reader.ui.i18n.use) load the catalogue of a language other than English and
hand it to use(); before that, and in English, messages are said as written. Messages
are marked _("...") and ngettext("...", "...", n), with named {fields} filled after
translation, and said when they are made (not at import time).

What is said later, or is data as well as a message (why an import skipped a record,
which its --json report writes in English in every language; a core error refusing an
edit), is kept as a Said (or raised as a SaidError, a ValueError): str() is the English
text, told() the text in the language in use when it is shown. Said("...", **fields) is
marked for the catalogue like _("...").
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


class Said:
    """A message kept as written with its fields, to be said later: str() is the English
    text (for --json output and logs, the same in every language), told() the text in
    the language in use then. Marked like _(): Said("item {number}", number=3), and
    Said("{count:,} thing", "{count:,} things", count=n) with the form chosen by `count`;
    a field that is a Said is told too."""

    __slots__ = ("message", "plural", "fields")

    def __init__(self, message: str, plural: str | None = None, /, **fields: object) -> None:
        self.message = message
        self.plural = plural
        # (pairs, not the dict: an import may keep a Said for each of a million records)
        self.fields = tuple(fields.items())

    def __str__(self) -> str:
        fields = dict(self.fields)
        template = self.message
        if self.plural is not None and fields.get("count") != 1:
            template = self.plural
        return template.format(
            **{k: str(v) if isinstance(v, Said) else v for k, v in fields.items()}
        )

    def told(self) -> str:
        """The text in the language in use."""
        fields = dict(self.fields)
        if self.plural is None:
            template = _current.gettext(self.message)
        else:
            count = fields.get("count")
            template = _current.ngettext(
                self.message, self.plural, count if isinstance(count, int) else 0
            )
        return template.format(
            **{k: told(v) if isinstance(v, Said) else v for k, v in fields.items()}
        )

    def __repr__(self) -> str:
        return f"Said({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Said):
            return NotImplemented
        return (self.message, self.plural, self.fields) == (
            other.message,
            other.plural,
            other.fields,
        )

    def __hash__(self) -> int:
        return hash((self.message, self.plural))


class SaidError(ValueError):
    """A ValueError whose message is a Said: str() English, told() in the language in
    use. Marked like Said: raise SaidError("a tag needs a name")."""

    def __init__(self, message: str, plural: str | None = None, /, **fields: object) -> None:
        self.said = Said(message, plural, **fields)
        super().__init__(self.said)  # (str() of the error: the Said's, made when asked)

    def told(self) -> str:
        return self.said.told()


def said(value: object) -> str | Said:
    """What `value` says, kept to be told: the Said of a Said or a SaidError, else its
    str() (an error of Python's, a file's text, a name)."""
    if isinstance(value, Said):
        return value
    if isinstance(value, SaidError):
        return value.said
    return str(value)


def told(value: object) -> str:
    """`value` in the language in use: a Said or SaidError told, anything else str()."""
    if isinstance(value, Said):
        return value.told()
    if isinstance(value, SaidError):
        return value.told()
    return str(value)
