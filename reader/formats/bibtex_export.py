"""BibTeX export: stable unique citation keys, TeX special characters escaped outside math.

Every field is imported text, so it is written so that neither BibTeX nor LaTeX can be
made to do more than print it:

* **Control words that touch the machine are defused** wherever they appear, math
  included: `\\input`, `\\include`, `\\write` (so `\\write18`), `\\immediate`,
  `\\openout`, `\\openin`, `\\read`, `\\catcode`, `\\def`, `\\csname`,
  `\\usepackage`, `\\newwrite`, `\\directlua`, `\\special` ... (`_DANGEROUS`), and
  `\\begin{filecontents}`-like environments. Their backslash is written
  `\\textbackslash{}`, so LaTeX prints "\\input" and our import reads it back as written; a
  `$...$` holding one is not kept as math but escaped as plain text. Ordinary TeX
  (`$\\Theta$`, `{\\textbf{A}}`, `\\"o`) is kept.
* **No `^^`**: TeX reads `^^5c` as a backslash, so two carets are never written next to
  each other (`^` is `\\textasciicircum{}` outside math; a formula with `^^` is escaped as
  plain text; URLs carry `%5E`).
* **Braces balance as BibTeX counts them**: BibTeX (and bibtexparser) count every `{` and
  `}`, escaped or not, so a lone `}` (even as `\\}`) would end the field early and let the
  rest of the text add fields or entries. Balanced braces are kept; an unmatched one is
  written `\\textbraceleft{}` / `\\textbraceright{}`. `_safe` checks every field value
  last, whatever built it.
* **Links**: `\\url{...}` and `\\href{...}` are kept only with an http(s), ftp, mailto,
  doi or arxiv target (a `run:` or `file:` link launches a program or opens a file when
  clicked); the `url`, `doi` and `eprint` fields have their braces, backslashes and
  carets percent-encoded, and the colon of any other scheme too.
* The note (`annote`) is encoded by `bibtex.encode_note` (every backslash, brace and `@`
  escaped, so it holds no command); the caret and brace rules apply to it too.

Reading our own export back gives the text as written, except (until `bibtex.py` decodes
them) a lone brace, which comes back as `\\textbraceleft{}`/`\\textbraceright{}`, and `^^`
in a note, which comes back as `\\textasciicircum{}^`.

Authors are written `Last, First` (BibTeX's own reading of "First von Last": the family name
is the last word, with any lower-case particles before it, "van der Maaten"; a final Jr/Sr/II
is kept apart), or as one braced name when the name already has a comma or an "and".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from reader.core.models import Annotation, Paper
from reader.formats.bibtex import NATIVE_MARKER, encode_note
from reader.formats.citing import base_key, name_parts, unique_keys

__all__ = ["base_key", "entry", "escape", "export", "unique_keys"]

_MATH = re.compile(r"(\$\$.+?\$\$|\$.+?\$|\\\(.+?\\\)|\\\[.+?\\\])", re.DOTALL)
_TOKEN = re.compile(r"\\[&%$#_{}]|\\[A-Za-z]+|\\[`'^\"~=.](?=[A-Za-z{\\])|\\|[&%#_~^${}]")
_SPECIAL = re.compile(r"[\\&%#_~^${}]")
_PLAIN = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "$": r"\$",
    "{": r"\{",
    "}": r"\}",
}
#: TeX and LaTeX control words that read or write files, run programs, or define commands,
#: category codes or names (and so could build any of the others): never left executable.
_DANGEROUS = frozenset(
    """
    input include includeonly InputIfFileExists IfFileExists endinput import subimport
    inputfrom subinputfrom subfile includegraphics includepdf verbatiminput VerbatimInput
    lstinputlisting inputminted mint mintinline newmint newminted newmintinline
    openin openout closein closeout read readline write immediate newwrite newread special
    ShellEscape pdfshellescape directlua latelua luaexec luadirect luacode pdffiledump
    pdfmdfivesum pdffilesize pdffilemoddate filedump filemdfivesum filesize filemoddate
    pdfximage pdfobj pdfprimitive primitive XeTeXpicfile XeTeXpdffile
    catcode lccode uccode sfcode mathcode delcode endlinechar newlinechar escapechar
    def edef gdef xdef let futurelet global long outer protected chardef mathchardef
    countdef dimendef skipdef toksdef csname endcsname ifcsname expandafter noexpand
    scantokens everyeof everyjob everypar everymath everydisplay everyhbox everyvbox everycr
    afterassignment aftergroup output shipout dump
    newcommand renewcommand providecommand DeclareRobustCommand newenvironment
    renewenvironment NewDocumentCommand RenewDocumentCommand ProvideDocumentCommand
    DeclareDocumentCommand NewDocumentEnvironment RenewDocumentEnvironment NewCommandCopy
    DeclareCommandCopy UseName ExpandArgs ExplSyntaxOn makeatletter
    usepackage RequirePackage documentclass LoadClass PassOptionsToPackage
    AtBeginDocument AtEndDocument AddToHook
    batchmode nonstopmode scrollmode errorstopmode
    py pyc pys pyv pyb sage sagestr sageplot
    includesvg includestandalone tikzexternalize DeclareGraphicsRule
    epstopdfDeclareGraphicsRule loadglsentries DTLloaddb DTLloadrawdb csvreader
    csvautotabular csvautobooktabular pgfplotstableread bibliography nobibliography
    bibliographystyle addbibresource
    pdfcatalog pdfnames pdfannot pdfstartlink pdfliteral pdfpageattr pdfpagesattr
    pdftrailer pdfextension hypersetup
    """.split()
)
#: Links whose target may only be one of these (a `run:` or `file:` link launches things).
_LINK_COMMANDS = frozenset({"url", "href"})
_LINK_SCHEMES = frozenset({"http", "https", "ftp", "mailto", "doi", "arxiv"})
#: Environments that write files or run code (`\\begin{filecontents}`...).
_DANGEROUS_ENVS = frozenset(
    """
    filecontents filecontents* VerbatimOut verbatimwrite writefile luacode luacode* pycode
    pyblock pysub pyverbatim pyconsole sagesilent sageblock sagecommandline minted gnuplot
    asy asydef
    """.split()
)
_CONTROL = re.compile(r"\\([A-Za-z]+)|\\.", re.DOTALL)
_ENVIRONMENT = re.compile(r"\s*\{\s*([A-Za-z]+\*?)\s*\}")
_LINK_TARGET = re.compile(r"\s*\{\s*([^{}]*)")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_BRACE = re.compile(r"\\\\|\\[{}]|[{}]")
_DEFUSED = r"\textbackslash{}"


def _balanced(text: str) -> bool:
    if "{" not in text and "}" not in text:
        return True
    depth = 0
    for match in re.finditer(r"(?<!\\)[{}]", text):
        depth += 1 if match.group(0) == "{" else -1
        if depth < 0:
            return False
    return depth == 0


def _dangerous_word(name: str, text: str, end: int) -> bool:
    """Whether the control word `\\name`, ending at `end` in `text`, touches the machine."""
    if name in _DANGEROUS:
        return True
    if name in ("begin", "end"):
        environment = _ENVIRONMENT.match(text, end)
        return bool(environment and environment.group(1) in _DANGEROUS_ENVS)
    if name in _LINK_COMMANDS:
        target = _LINK_TARGET.match(text, end)
        return not target or not _safe_link(target.group(1))
    return False


def _safe_link(target: str) -> bool:
    """A link target with no scheme, or an http(s), ftp, mailto, doi or arxiv one."""
    scheme = _SCHEME.match(re.sub(r"[\x00-\x20\\]+", "", target))
    return not scheme or scheme.group(1).lower() in _LINK_SCHEMES


def _risky(text: str) -> bool:
    """`text` holds a dangerous control word or a `^^` character code."""
    if "^^" in text:
        return True
    if "\\" not in text:
        return False
    return any(
        m.group(1) and _dangerous_word(m.group(1), text, m.end()) for m in _CONTROL.finditer(text)
    )


def _defuse(value: str) -> str:
    """Dangerous control words' backslashes written `\\textbackslash{}`; no `^^` left."""
    if "\\" in value:

        def word(match: re.Match[str]) -> str:
            name = match.group(1)
            if name and _dangerous_word(name, value, match.end()):
                return _DEFUSED + name
            return match.group(0)

        value = _CONTROL.sub(word, value)
    return re.sub(r"\^(?=\^)", r"\\textasciicircum{}", value) if "^^" in value else value


def _balance(value: str) -> str:
    """`value` with braces balanced as BibTeX counts them (every `{`, escaped or not).

    Plain braces and escaped ones (`\\{`) are matched separately, as TeX reads them; an
    unmatched one becomes `\\textbraceleft{}` / `\\textbraceright{}`, which TeX prints as
    the brace and in which BibTeX counts a balanced pair."""
    if "{" not in value and "}" not in value:
        return value
    unmatched: set[int] = set()
    open_plain: list[int] = []
    open_escaped: list[int] = []
    tokens = list(_BRACE.finditer(value))
    for number, match in enumerate(tokens):
        token = match.group(0)
        if token == "\\\\":
            continue
        stack = open_escaped if token[0] == "\\" else open_plain
        if token[-1] == "{":
            stack.append(number)
        elif stack:
            stack.pop()
        else:
            unmatched.add(number)
    unmatched.update(open_plain, open_escaped)
    if not unmatched:
        return value
    out: list[str] = []
    last = 0
    for number in sorted(unmatched):
        match = tokens[number]
        brace = r"\textbraceleft{}" if match.group(0)[-1] == "{" else r"\textbraceright{}"
        out += [value[last : match.start()], brace]
        last = match.end()
    out.append(value[last:])
    return "".join(out)


def _safe(value: str) -> str:
    """The last word on every field value: nothing executable, braces balanced."""
    return _balance(_defuse(value))


def escape(text: str) -> str:
    """`text` as a BibTeX value: & % $ # _ { } ~ ^ \\ escaped in plain text; $math$, TeX
    commands, accents (\\"o) and already-escaped characters (\\%) kept; braces kept only
    when balanced; dangerous commands defused (see the module docstring)."""
    text = " ".join(text.split())
    if not _SPECIAL.search(text):
        return text
    out: list[str] = []
    for number, part in enumerate(_MATH.split(text)):
        risky = _risky(part)
        if number % 2 and _balanced(part) and not risky:
            out.append(re.sub(r"(?<!\\)%", r"\%", part))  # % would start a TeX comment
            continue
        keep_braces = _balanced(part) and not risky

        def plain(match: re.Match[str], keep_braces: bool = keep_braces) -> str:
            token = match.group(0)
            if len(token) > 1:  # \command, an accent or an escape that is already there
                name = token[1:]
                if name.isalpha() and _dangerous_word(name, match.string, match.end()):
                    return _DEFUSED + name
                return token
            if token in "{}" and keep_braces:
                return token
            return _PLAIN[token]

        out.append(_TOKEN.sub(plain, part))
    return _safe("".join(out))


def _author(name: str) -> str:
    """`Last, First` (`von Last, Jr, First`) by `citing.name_parts`; a name that must stay
    one unit (a CJK name, one with an "and", "Smith, Jr.") braced when it has a space."""
    parts = name_parts(name)
    if parts.whole:
        text = " ".join(name.split())
        return "{" + escape(text) + "}" if " " in text else escape(text)
    return ", ".join(escape(part) for part in (parts.family, parts.jr, parts.first) if part)


def _url(value: str) -> str:
    """A URL, DOI or arXiv id as a field: no brace, backslash or caret (percent-encoded);
    a scheme other than http(s), ftp, mailto, doi or arxiv (`javascript:`, `run:`) loses
    its colon, so a viewer makes no link that launches anything."""
    value = " ".join(value.split())
    for char, code in (("{", "%7B"), ("}", "%7D"), ("\\", "%5C"), ("^", "%5E")):
        value = value.replace(char, code)
    if not _safe_link(value):
        value = value.replace(":", "%3A", 1)
    return value


def entry(key: str, paper: Paper, annotation: Annotation | None = None) -> str:
    """One BibTeX entry; the annotation's tags go to `keywords`, its note to `annote`."""
    fields: list[tuple[str, str]] = [("title", escape(paper.title))]
    if paper.authors:
        fields.append(("author", " and ".join(_author(a) for a in paper.authors)))
    if paper.venue:
        fields.append(("booktitle", escape(paper.venue)))
    if paper.year is not None:
        fields.append(("year", str(paper.year)))
    if paper.url:
        fields.append(("url", _url(paper.url)))
    if paper.doi:
        fields.append(("doi", _url(paper.doi)))
    if paper.pdf:
        fields.append(("pdf", _url(paper.pdf)))
    if paper.arxiv:
        fields += [("eprint", _url(paper.arxiv)), ("archiveprefix", "arXiv")]
    if paper.abstract:
        fields.append(("abstract", escape(paper.abstract)))
    if annotation and annotation.tags:
        tags = (escape(t) for t in annotation.tags)
        fields.append(("keywords", ", ".join("{" + t + "}" if "," in t else t for t in tags)))
    if annotation and annotation.note:
        fields.append(("annote", encode_note(annotation.note)))
    kind = "inproceedings" if paper.venue else "misc"
    body = ",\n".join(f"  {name} = {{{_safe(value)}}}" for name, value in fields)
    return f"@{kind}{{{_safe_key(key)},\n{body}\n}}\n"


_KEY_CHARS = re.compile(r"[^A-Za-z0-9_:.+/-]")


def _safe_key(key: str) -> str:
    return _KEY_CHARS.sub("", key) or "anon"


def export(
    items: Sequence[tuple[Paper, Annotation | None]], keys: Mapping[str, str] | None = None
) -> str:
    """A .bib file of all papers; tags go to `keywords`, the note to `annote`. `keys`:
    paper id -> cite key (`citing.cite_keys` of the whole library, so a selection's keys
    are the library's); without it, keys unique among `items` in their order."""
    papers = [paper for paper, _ in items]
    if keys is None or any(p.id not in keys for p in papers):
        listed = unique_keys(papers)
    else:
        listed = [keys[p.id] for p in papers]
    entries = (entry(key, p, ann) for key, (p, ann) in zip(listed, items, strict=True))
    return "\n".join([NATIVE_MARKER + "\n", *entries])
