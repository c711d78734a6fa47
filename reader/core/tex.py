"""TeX-flavoured text (titles, abstracts, note math) parsed into styled pieces."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from reader.core.pieces import Piece, Styled, merge_text, script, to_plain
from reader.core.tex_simple import simple

# pylatexenc and our walk cost ~100 µs per TeX mark ($ \ { * `), so text with more
# marks (or characters) than these is only lightly cleaned: at most ~0.1 s an abstract.
MAX_TEX_CHARS = 20_000
MAX_TEX_MARKS = 800
_MARKS = "$\\{*`"

_TEXISH = re.compile(r"[$\\`*{}]|''")
#: what text maybe_tex() finds TeX-ish in can start with
TEXISH_FIRST = frozenset("$\\`*{}'")
_PERCENT = re.compile(r"(?<!\\)%")
_TILDE = re.compile(r"(?<![\w.,;:)\]}])~")  # "~5%" means "about", "Fig.~3" is a TeX tie
_QUOTE = re.compile(r"``((?:(?!'')[^`\"\n]){0,500}?)\"")
_EMPH = re.compile(r"(?<![\w*\\^_])(\*\*?)(?=[^\s*])(.{1,500}?)(?<=[^\s*\\^_])\1(?![\w*])")
_LONE_BACKSLASH = re.compile(r"(?<!\\)(?:\\\\)*\\\Z")
_ESCAPED = re.compile(r"\\([%&_#${}])")
# Only the path through pylatexenc uses these three: compiled at its first use (the
# patterns module-wide, each a cached compile), not before the first paint (~4M
# instructions).
# A macro with what may follow as its argument, or a run of text TeX leaves alone.
_RUN = (
    r"(?s)(\\(?:begin|end)\s*\{[^{}\\]*\}|\\(?:[A-Za-z@]+|.)\s*[^\\]{0,2})"
    r"|((?:[^\\$%{}\[\]^_~&#`'-]|(?<!-)-(?!-)|(?<!')'(?!'))+)"
)
_PUA = "[\U000f0000-\U000ffffd]"
_NOT_SIMPLE = r"[\s+\-−=<>/,;:±·×∗*|]"

_ROOTS = {"": "√", "3": "∛", "4": "∜"}

# macro -> (style, argument in math mode); a font command also turns math italics off.
_FONTS: dict[str, tuple[str, bool]] = {
    "textbf": ("b", False), "mathbf": ("b", True), "boldsymbol": ("b", True), "bm": ("b", True),
    "textit": ("i", False), "emph": ("i", False), "textsl": ("i", False), "mathit": ("i", True),
    "texttt": ("code", False), "mathtt": ("code", True),
    "text": ("", False), "textrm": ("", False), "textnormal": ("", False), "textup": ("", False),
    "textsf": ("", False), "mbox": ("", False), "hbox": ("", False),
    "mathrm": ("", True), "mathsf": ("", True), "operatorname": ("", True),
    "textsuperscript": ("sup", False), "textsubscript": ("sub", False),
}  # fmt: skip
_SWITCHES = {
    "bf": "b", "bfseries": "b", "it": "i", "itshape": "i", "em": "i", "sl": "i", "tt": "code",
    "ttfamily": "code", "rm": "", "rmfamily": "", "normalfont": "", "upshape": "",
}  # fmt: skip
_ALPHABETS = {
    "mathbb": "DOUBLE-STRUCK", "mathbbm": "DOUBLE-STRUCK", "mathcal": "SCRIPT",
    "mathscr": "SCRIPT", "mathfrak": "FRAKTUR",
}  # fmt: skip
_LEGACY_ALPHABETS = {"FRAKTUR": "BLACK-LETTER"}  # letters Unicode encoded before the math block
_FRACS = frozenset({"frac", "dfrac", "tfrac", "cfrac"})
#: accents over a whole argument: the combining mark after it (\widetilde{O}: Õ)
_WIDE_ACCENTS = {"widetilde": "\u0303", "widehat": "\u0302"}
_HANDLED = _FRACS | {"sqrt", "href", "url"} | _WIDE_ACCENTS.keys()
_DELIMS = frozenset({
    "left", "right", "middle", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr",
    "biggl", "biggr", "Biggl", "Biggr",
})  # fmt: skip
_SYMBOLS = {
    "epsilon": "ε", "prime": "′", "|": "‖", "S": "§", "P": "¶", "copyright": "©", "dag": "†",
    "ddag": "‡", "LaTeX": "LaTeX", "TeX": "TeX", "textbackslash": "\\", "&": "&",
}  # fmt: skip
# Shown as written: file inclusion must never happen, and the name tells the reader most.
_VERBATIM = frozenset({"input", "include", "includegraphics", "InputIfFileExists", "usepackage"})
_MATH_ENVS = frozenset(
    {"equation", "align", "gather", "multline", "eqnarray", "displaymath", "math"}
)


def maybe_tex(text: str) -> bool:
    """False when `text` is plain already (parse() leaves it whole, plain() as it is)."""
    return _TEXISH.search(text) is not None


def parse(text: str) -> tuple[Piece, ...] | None:
    """The styled pieces of TeX-flavoured `text`, or None when it cannot be parsed."""
    if not _TEXISH.search(text):
        return (text,)
    return _parse_cached(text)


def light_clean(text: str) -> str:
    """`text` with TeX escapes, quotes and *emphasis* marks tidied by regex alone."""
    text = _QUOTE.sub("“\\1”", text).replace("``", "“").replace("''", "”")
    return _EMPH.sub(r"\2", _ESCAPED.sub(r"\1", text))


@lru_cache(maxsize=1024)
def _parse_cached(text: str) -> tuple[Piece, ...] | None:
    if len(text) > MAX_TEX_CHARS or sum(text.count(c) for c in _MARKS) > MAX_TEX_MARKS:
        return None
    if _LONE_BACKSLASH.search(text):  # pylatexenc drops a last lone backslash silently
        return None
    try:
        pieces = tuple(_mixed(text) or _build(text))  # _mixed: _simple() and more
    except Exception:  # noqa: BLE001 - parse errors, RecursionError, pylatexenc spec bugs
        return None
    if text.strip() and not to_plain(pieces).strip():
        return None
    return pieces


def _prepared(text: str) -> str:
    """`text` with loose %, ~, ``quotes" and *emphasis* written as TeX."""
    src = _TILDE.sub(r"\\textasciitilde{}", _PERCENT.sub(r"\\%", text))
    return _EMPH.sub(_emph, _QUOTE.sub("“\\1”", src))


def _simple(text: str) -> list[Piece] | None:
    """The pieces of the TeX most abstracts use, without pylatexenc (see tex_simple)."""
    return simple(_prepared(text))


def _mixed(text: str) -> list[Piece] | None:
    """The pieces of text that only its $math$ keeps from the parser-free path: that
    math parsed on its own (and remembered: the same formulas recur across papers),
    the rest read as _simple() does. The same pieces as _build() (tests compare)."""
    return simple(_prepared(text), _math_span)


@lru_cache(maxsize=4096)
def _math_span(span: str) -> tuple[Piece, ...] | None:
    """The pieces _build() makes of one top-level $...$ `span`, or None when pylatexenc
    does not read it as exactly one inline formula."""
    runs: list[str] = []
    src = span if re.search(_PUA, span) else re.sub(_RUN, lambda m: _stash(m, runs), span)
    engine = _engine()
    try:
        walker = engine.walker(src, latex_context=engine.db, tolerant_parsing=False)
        nodes = walker.get_latex_nodes()[0]
        if len(nodes) != 1 or type(nodes[0]).__name__ != "LatexMathNode":
            return None
        if nodes[0].len != len(src):
            return None
        return tuple(_Builder(engine.l2t, runs).node(nodes[0], False, False))
    except Exception:  # noqa: BLE001 - as in _parse_cached: the whole text gets its chance
        return None


def _emph(m: re.Match[str]) -> str:
    body = m.group(2)
    if len(re.findall(r"(?<!\\)\$", body)) % 2 or not _balanced(body):
        return m.group(0)
    return ("\\textbf{%s}" if len(m.group(1)) == 2 else "\\emph{%s}") % body


def _balanced(s: str) -> bool:
    depth = 0
    for c in re.findall(r"(?<!\\)[{}]", s):
        depth += 1 if c == "{" else -1
        if depth < 0:
            return False
    return depth == 0


def _build(text: str) -> list[Piece]:
    src = _prepared(text)
    runs: list[str] = []
    if not re.search(_PUA, src):  # hide plain runs from pylatexenc's char-by-char tokenizer
        src = re.sub(_RUN, lambda m: _stash(m, runs), src)
    engine = _engine()
    walker = engine.walker(src, latex_context=engine.db, tolerant_parsing=False)
    builder = _Builder(engine.l2t, runs)
    return builder.run(builder.tokens(walker.get_latex_nodes()[0], False), False, False)


def _stash(m: re.Match[str], runs: list[str]) -> str:
    if m.group(1) is not None or len(m.group(0)) < 4:
        return m.group(0)
    runs.append(m.group(0))
    return chr(0xF0000 + len(runs) - 1)


class _Engine:
    """pylatexenc's walker class, our macro table and its text converter, built once."""

    def __init__(self) -> None:
        from pylatexenc.latex2text import LatexNodes2Text
        from pylatexenc.latexwalker import LatexWalker, get_default_latex_context_db
        from pylatexenc.macrospec import MacroSpec

        args = {name: "{" for name in (*_FONTS, *_ALPHABETS)}
        args.update({name: "{{" for name in _FRACS}, sqrt="[{", href="{{")
        args.update({name: "{" for name in _WIDE_ACCENTS})
        self.db: Any = get_default_latex_context_db()
        self.db.add_context_category(
            "reader", macros=[MacroSpec(n, a) for n, a in args.items()], prepend=True
        )
        self.walker: Any = LatexWalker
        self.l2t: Any = LatexNodes2Text(math_mode="text")


def load_parser() -> None:
    """Load pylatexenc now (idle time), not with the first abstract that needs it (~30 ms)."""
    _engine()


@lru_cache(maxsize=1)
def _engine() -> _Engine:
    return _Engine()


class _Builder:
    """Turns one parsed node list into pieces (pylatexenc nodes are untyped: Any)."""

    def __init__(self, l2t: Any, runs: list[str]) -> None:
        self.l2t = l2t
        self.runs = runs

    def expand(self, s: str) -> str:
        if not self.runs:
            return s
        return re.sub(_PUA, lambda m: self.runs[ord(m.group()) - 0xF0000], s)

    def restore(self, nodes: Iterable[Any]) -> None:
        for n in nodes:
            if n is None:
                continue
            if type(n).__name__ == "LatexCharsNode":
                n.chars = self.expand(n.chars)
            for child in getattr(n, "nodelist", None) or ():
                self.restore([child])
            if getattr(n, "nodeargd", None) is not None:
                self.restore(n.nodeargd.argnlist)

    def tokens(self, nodes: Iterable[Any], math: bool) -> list[Any]:
        out: list[Any] = []
        for n in nodes:
            if n is None:
                continue
            if type(n).__name__ == "LatexCharsNode":
                chars = self.expand(n.chars)
                if math:  # one token a character, so ^ and _ can take the next one
                    out.extend(chars)
                else:
                    out.append(chars)
            else:
                out.append(n)
        return out

    def run(self, toks: list[Any], math: bool, italic: bool) -> list[Piece]:
        out: list[Piece] = []
        i = 0
        while i < len(toks):
            t = toks[i]
            i += 1
            if isinstance(t, str):
                if math and t in "^_":
                    while i < len(toks) and isinstance(toks[i], str) and toks[i].isspace():
                        i += 1
                    arg = self.run(toks[i : i + 1], math, italic)
                    out.append(Styled("sup" if t == "^" else "sub", tuple(arg)))
                    i += 1
                else:
                    out.append(t)
                continue
            name = getattr(t, "macroname", None)
            if name in _SWITCHES:
                out.append(Styled(_SWITCHES[name], tuple(self.run(toks[i:], math, False))))
                break
            if name in _DELIMS:
                i += 1 if i < len(toks) and toks[i] == "." else 0
            elif name is not None and self.unknown(name):
                out.append(self.expand(t.latex_verbatim()))
                while i < len(toks) and getattr(toks[i], "delimiters", None) == ("{", "}"):
                    out.extend(["{", *self.node(toks[i], math, italic), "}"])
                    i += 1
            else:
                out.extend(self.node(t, math, italic))
        return merge_text(out, math, italic)

    def unknown(self, name: str) -> bool:
        if name in _HANDLED or name in _FONTS or name in _ALPHABETS or name in _SYMBOLS:
            return False
        return not name or name in _VERBATIM or self.l2t.latex_context.get_macro_spec(name) is None

    def node(self, t: Any, math: bool, italic: bool) -> list[Piece]:
        kind = type(t).__name__
        if kind == "LatexMathNode":
            return self.run(self.tokens(t.nodelist, True), True, True)
        if kind == "LatexGroupNode":
            return self.run(self.tokens(t.nodelist, math), math, italic)
        if kind == "LatexEnvironmentNode":
            inner = math or t.environmentname.rstrip("*") in _MATH_ENVS
            return self.run(self.tokens(t.nodelist, inner), inner, italic or inner)
        if kind == "LatexMacroNode":
            return self.macro(t, math, italic)
        if kind == "LatexSpecialsNode":
            if t.specials_chars == "&":
                return [" " if math else "&"]
            if math and t.specials_chars == "''":
                return ["″"]
            return [str(self.l2t.specials_node_to_text(t))]
        return [self.expand(t.latex_verbatim())]

    def arg(self, args: list[Any], k: int, math: bool, italic: bool) -> list[Piece]:
        a = args[k] if -len(args) <= k < len(args) else None
        return [] if a is None else self.run(self.tokens([a], math), math, italic)

    def macro(self, t: Any, math: bool, italic: bool) -> list[Piece]:
        name: str = t.macroname
        args: list[Any] = list(t.nodeargd.argnlist) if t.nodeargd is not None else []
        if name in _FONTS:
            style, inner = _FONTS[name]
            return [Styled(style, tuple(self.arg(args, -1, inner, False)))]
        if name in _ALPHABETS:
            return [_alphabet(p, _ALPHABETS[name]) for p in self.arg(args, -1, True, False)]
        if name in _FRACS:
            num, den = self.arg(args, 0, math, italic), self.arg(args, 1, math, italic)
            return [*_paren(num), "/", *_paren(den)]
        if name == "sqrt":
            index = to_plain(self.arg(args, 0, math, italic))
            root = _ROOTS.get(index) or script(index, "sup").lstrip("^") + "√"
            return [root, *_paren(self.arg(args, 1, math, italic))]
        if name in ("href", "url"):
            return self.arg(args, -1, False, False)
        if name in _WIDE_ACCENTS:
            under = to_plain(self.arg(args, -1, math, italic))
            return [Styled("", (unicodedata.normalize("NFC", under + _WIDE_ACCENTS[name]),))]
        text = self.delegate(t, args)
        if len(text) > 1 and text.isalpha():  # a word (\log, \LaTeX) keeps the space after it
            text += t.macro_post_space
        return [Styled("", (text,))]  # upright even in math: \log, \alpha

    def delegate(self, t: Any, args: list[Any]) -> str:
        """Our text or pylatexenc's for a symbol, accent or other macro we do not style."""
        if t.macroname in _SYMBOLS:
            return _SYMBOLS[t.macroname]
        try:
            if self.runs:  # put set-aside text back into the arguments (\"{aschel})
                self.restore(args)
            return str(self.l2t.macro_node_to_text(t))
        except Exception:  # noqa: BLE001 - pylatexenc's own specs fail on odd arguments
            return self.expand(t.latex_verbatim())


def _paren(pieces: list[Piece]) -> list[Piece]:
    s = to_plain(pieces)
    return pieces if not s or not re.search(_NOT_SIMPLE, s) else ["(", *pieces, ")"]


def _alphabet(p: Piece, style: str) -> Piece:
    if isinstance(p, str):
        return "".join(_alphabet_char(c, style) for c in p)
    return Styled(p.style, tuple(_alphabet(c, style) for c in p.children))


@lru_cache(maxsize=512)
def _alphabet_char(c: str, style: str) -> str:
    if not c.isascii() or not c.isalpha():
        return c
    case = "CAPITAL" if c.isupper() else "SMALL"
    for prefix in (f"MATHEMATICAL {style}", _LEGACY_ALPHABETS.get(style, style)):
        try:
            return unicodedata.lookup(f"{prefix} {case} {c.upper()}")
        except KeyError:
            continue
    return c
