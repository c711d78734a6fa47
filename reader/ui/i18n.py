"""The window's language: our catalogue and Qt's own, installed on the application.

Every user-visible string of the window goes through Qt's translation (`self.tr()` in a
class, `QCoreApplication.translate(context, ...)` elsewhere; `%n` for counts, in English
too: its catalogue holds the plural forms). Switching installs other translators: Qt
then sends every widget a LanguageChange event and each one sets its texts again
(`changeEvent`); what is made when shown (dialogs, messages) is translated then.
Numbers and dates follow the language's locale (QLocale's default). The messages made
below Qt (reader.core.say: the store's problems, the query's...) follow the same choice."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QDate, QLibraryInfo, QLocale, QObject, QTranslator

from reader import language
from reader.core import say
from reader.language import LANGUAGES
from reader.ui.resources import resource_path

# our catalogues, compiled from resources/translations/paper_reader_<code>.ts
CATALOGUE = "translations/paper_reader_{}.qm"
# the translators we installed (found again, to replace them, by this object name)
_TRANSLATOR = "paper-reader-translator"
# the application's property holding the language in use
_PROPERTY = "paper_reader_language"


def catalogue(code: str) -> Path:
    return resource_path(CATALOGUE.format(code))


def qt_catalogue(code: str) -> Path:
    """Qt's own strings (standard buttons and dialogs) in `code`, shipped with Qt."""
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    return Path(folder) / f"qtbase_{code}.qm"


def use(code: str, app: QCoreApplication | None = None) -> str:
    """Show the window in `code` (a key of reader.language.LANGUAGES; anything else is
    English): ours and Qt's translators replace those installed before, numbers and
    dates take that language's form, and the messages made without Qt (the store's,
    the query's: reader.core.say) are said in it from now on (its gettext catalogue is
    read only for a language other than English). Returns the language now in use."""
    app = app or QCoreApplication.instance()
    assert app is not None, "use() needs a QCoreApplication"
    if code not in LANGUAGES:
        code = "en"
    for old in app.findChildren(QTranslator, _TRANSLATOR):
        app.removeTranslator(old)
        old.setParent(None)
    QLocale.setDefault(_locale(code))
    files = [catalogue(code)] + ([] if code == "en" else [qt_catalogue(code)])
    for path in files:
        translator = QTranslator(app)
        translator.setObjectName(_TRANSLATOR)
        if translator.load(str(path)):  # (a missing file leaves the source strings)
            app.installTranslator(translator)
        else:
            translator.setParent(None)
    say.use(language.catalogue(code))
    app.setProperty(_PROPERTY, code)
    return code


def _locale(code: str) -> QLocale:
    """The form of numbers and dates for `code`: the system's own if it is of that
    language (British English keeps its dates), else the language's usual one."""
    system = QLocale.system()
    if code == "en":
        if system.language() == QLocale.Language.English:
            return system
        return QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
    wanted = QLocale(code)
    same = (system.language(), system.script()) == (wanted.language(), wanted.script())
    return system if same else wanted


def current(app: QCoreApplication | None = None) -> str:
    """The language use() last chose ("en" before it ran)."""
    app = app or QCoreApplication.instance()
    value = app.property(_PROPERTY) if app is not None else None
    return value if isinstance(value, str) and value in LANGUAGES else "en"


def number(n: int | float) -> str:
    """A count in the language's form (1,234 in English and Chinese alike)."""
    return QLocale().toString(n)


def day(date: QDate) -> str:
    """A date in the language's short form."""
    return QLocale().toString(date, QLocale.FormatType.ShortFormat)


_ARGUMENT = re.compile(r"%([1-9])")


def fill(template: str, *values: str) -> str:
    """A translated whole with its %1, %2… filled in (in one pass: a value holding
    "%2" stays as it is), as QString.arg() would."""
    return _ARGUMENT.sub(
        lambda m: values[int(m[1]) - 1] if int(m[1]) <= len(values) else m[0], template
    )


class Counted(QObject):
    """Texts with a count, said by functions outside a class: lupdate takes a message's
    plural forms (%n) only from a class's tr(), so they are this class's."""

    def merge_papers(self, n: int) -> str:
        return self.tr("Merge %Ln paper(s)", "", n)

    def moved_to_trash(self, n: int) -> str:
        return self.tr("Moved %Ln paper(s) to the Trash (Edit → Undo puts them back)", "", n)

    def copied_citations(self, n: int) -> str:
        return self.tr("Copied %Ln citation(s)", "", n)

    def copied_bibtex(self, n: int) -> str:
        return self.tr("Copied %Ln BibTeX entry(s)", "", n)

    def tag_for(self, n: int) -> str:
        return self.tr("Tag for %Ln paper(s):", "", n)

    def annotations_restored(self, n: int) -> str:
        return self.tr("%Ln annotation(s) restored", "", n)

    def exported(self, n: int) -> str:
        return self.tr("Exported %Ln paper(s) to %1", "", n)

    def mark_papers(self, n: int, status: str) -> str:
        return fill(self.tr("Mark %Ln paper(s) %1", "", n), status)

    def move_to_trash(self, n: int) -> str:
        return self.tr("Move %Ln paper(s) to the Trash", "", n)

    def put_back(self, n: int) -> str:
        return self.tr("Put back %Ln paper(s) from the Trash", "", n)

    def not_put_back(self, n: int) -> str:
        return self.tr("%Ln paper(s) not put back: the Trash was emptied since", "", n)

    def merged(self, n: int, into: str, other: str) -> str:
        """A merge of `n` papers (the first of them `other`) into the paper `into`."""
        if n == 1:
            return fill(self.tr("Merged “%1” into “%2” (Edit → Undo takes it back)"), other, into)
        merged = self.tr("Merged %Ln paper(s) into “%1” (Edit → Undo takes them back)", "", n)
        return fill(merged, into)

    def changes_kept(self, n: int, what: str, told: str) -> str:
        return fill(self.tr("%1 left %Ln change(s) made elsewhere since: %2", "", n), what, told)

    def seeded(self, n: int) -> str:
        return self.tr("New library in %1: added the %Ln papers of the bundled sample.", "", n)
