"""Markdown that shows what it says and loads nothing, for the Markdown (notes vault) export.

Everything we write into a vault came from an import, the user's own note included (a CSV
`note` column, our JSON), and a vault app such as Obsidian renders it, embeds and all, as
soon as the vault is opened. `inert(text)` keeps ordinary Markdown as written (headings,
lists, emphasis, tables, code, `[text](https://...)` links, `[[wiki links]]`, footnotes,
`$math$`) and rewrites only what would load, run or hide something; every rewrite shows
the same characters:

* **Embeds and images**: `![` is written `\\!\\[` (and `![[` as `\\!\\[\\[`), so neither
  `![alt](url)`, `![alt][ref]` nor Obsidian's `![[file]]` embeds anything.
* **Raw HTML**: a `<` that could open a tag, closing tag, comment, declaration, processing
  instruction, Templater command (`<%`) or autolink is written `&lt;` (shown as `<`); only
  `<http(s)://...>` autolinks are kept. So no `<img>`, `<iframe>`, `<script>`, `<object>`,
  `<embed>`, `<link>`, `<style>`, `<svg>`, no `<!-- -->`.
* **Links** whose target is not http, https, mailto or a relative path (`javascript:`,
  `file:`, `obsidian://`, `data:`..., however spelt with entities or backslashes) and
  network paths (`//host`, `\\\\host`) are shown as text: their brackets are escaped.
* **Reference definitions** (`[x]: url`) are shown as text, so nothing in a document can
  give a target to a `[x]` elsewhere in it; footnotes (`[^1]: text`) are kept.
* **Obsidian comments** (`%%`) are written `%&#37;`: imported text cannot hide the rest of
  a document or change where a code block ends.
* **Code is kept verbatim** where every renderer agrees it is code: a code span on one
  line, a fenced block whose fence starts the line (closed for it if the text does not).
  When such code holds something that the rules above would change, it is kept only if it
  cannot be read differently (a span with none of `$ | [ ] ( )` or `%%`, a fenced block
  without `$$` or `%%`); otherwise it is treated as text and its backticks escaped (it then
  shows as text, not as code). Other fenced blocks (indented, in a quote) are kept only
  when their content needs no rewriting. Indented (4-space) code is not protected: a `<`
  in it shows as `&lt;`.
* **Nothing runs**: a fenced block keeps its language only when it names a programming or
  data language (so not `dataviewjs`, `dataview`, `query`, `mermaid` or any plugin's
  block); Dataview's inline queries (`` `= ...` ``, `` `$= ...` ``) get an invisible
  zero-width space before the `=`.
* **Math** (`$...$`, `$$...$$`) is kept; in it the same rewrites are made with a space
  (`x< y`), which TeX ignores.
* Line breaks of every kind (`\\r`, U+2028...) become `\\n`, so that no renderer sees lines
  where we did not.
"""

from __future__ import annotations

import html
import re

#: Fenced code blocks keep a language named here; any other (a plugin's) is dropped.
LANGUAGES = frozenset(
    """
    ada agda asm awk bash bat bib bibtex c c# c++ clojure cmake coffee console coq cpp cs
    csharp css csv cuda d dart diff dockerfile elixir elm erlang f# fish fortran fsharp go
    gradle graphql groovy h haskell hcl hpp hs html idris ini java javascript jl js json
    json5 jsonc jsx julia kotlin kt latex lean less lisp lua make makefile markdown matlab
    md ml nasm nginx nim nix objc objectivec ocaml octave pascal patch perl php pl plain
    plaintext powershell prolog properties proto protobuf ps1 py python r racket rb regex
    rs ruby rust sas scala scheme scss sh shell sml sql stata swift tex text toml ts tsv
    tsx txt typescript v vb verilog vhdl vim wasm xml yaml yml zig zsh
    """.split()
)
SAFE_SCHEMES = frozenset({"http", "https", "mailto"})

_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_FENCE = re.compile(r"(?P<fence>`{3,}|~{3,})(?P<info>.*)")
_INDENTED_FENCE = re.compile(r"(?P<pre>[ \t>]+)(?P<fence>`{3,}|~{3,})(?P<info>.*)")
_TILDE_FENCE = re.compile(r"^([ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+[ \t>]*)*)~(?=~~)")
#: what rewriting would change in code, were it read as text
_NEEDS_CARE = re.compile(r"<[A-Za-z/!?%]|!\[|\][(:]")
_TAG_START = re.compile(r"<[A-Za-z/!?%]")
_MATH_TAG = re.compile(r"<(?=[A-Za-z/!?%])")
_AUTOLINK = re.compile(r"<https?://[^\s<>\x00-\x1f\x7f]*>", re.IGNORECASE)
_DESTINATION = re.compile(r"[ \t]*\n?[ \t]*(<[^<>\n]*>|[^\s<>]*)")
_UNESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_CONTROLS = re.compile(r"[\x00-\x20\x7f]+")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_ZWSP = "\u200b"
_JS_SPACE = re.compile(r"[\s\ufeff]*")  # what JavaScript's trim() drops (and a little more)
#: A line that may start indented code with a Dataview inline query (`= ...`, `$= ...`).
_INDENTED_QUERY = re.compile(
    r"^((?:[ \t>]|[-+*](?=[ \t])|\d{1,9}[.)](?=[ \t]))*?(?: {4}|\t)[ \t]*\$?)(?==)"
)


def inert(text: str, *, fences: bool = True) -> str:
    """`text` (Markdown) rewritten as the module docstring says.

    `fences`: whether a line may open a fenced code block (not for a one-line title, nor
    for text that will be quoted with `> `, where the fence would no longer start a line).
    """
    lines = text.splitlines()
    out: list[str] = []
    chunk: list[str] = []
    i = 0
    while i < len(lines):
        block = _fenced_block(lines, i) if fences else None
        if block is None:  # text; a ~~~ fence that is not kept is broken (``` ones are below)
            line = _TILDE_FENCE.sub(r"\1&#126;", lines[i], count=1)
            chunk.append(_INDENTED_QUERY.sub("\\1" + _ZWSP, line, count=1))
            i += 1
            continue
        if chunk:
            out.append(_inline("\n".join(chunk)))
            chunk = []
        i, kept = block
        out.extend(kept)
    if chunk:
        out.append(_inline("\n".join(chunk)))
    return "\n".join(out)


# --- fenced code ----------------------------------------------------------------------------


def _language(info: str) -> str:
    words = info.split()
    word = words[0] if words else ""
    return word if word.lower() in LANGUAGES else ""


def _fenced_block(lines: list[str], start: int) -> tuple[int, list[str]] | None:
    """(index after the block, its lines as written) when a fenced code block that may stay
    verbatim opens at `lines[start]`; None when the line is to be read as text."""
    line = lines[start]
    opening = _FENCE.fullmatch(line) or _INDENTED_FENCE.fullmatch(line)
    if opening is None:
        return None
    prefix = opening.group("pre") if "pre" in opening.re.groupindex else ""
    fence, info = opening.group("fence"), opening.group("info")
    if fence[0] == "`" and "`" in info:
        return None  # not a fence: inline code
    mark = re.escape(fence[0])
    length = len(fence)
    head = prefix + fence + _language(info)
    if not prefix:  # starts the line: a top-level block, the same for every renderer
        closing = re.compile(rf" {{0,3}}{mark}{{{length},}}[ \t]*")
        end = next((k for k in range(start + 1, len(lines)) if closing.fullmatch(lines[k])), None)
        body = lines[start + 1 : len(lines) if end is None else end]
        content = "\n".join(body)
        if _NEEDS_CARE.search(content) and ("$$" in content or "%%" in content):
            return None
        return (len(lines) if end is None else end + 1), [head, *_no_query(body), fence]
    # Indented or quoted (in a list item, a quote): kept only when its content needs no
    # rewriting and its extent is plain: every line inside carries the prefix, and the
    # first line that could close it does so, with the same prefix.
    closing = re.compile(rf"[ \t>]*{mark}{{{length},}}[ \t]*")
    end = next((k for k in range(start + 1, len(lines)) if closing.fullmatch(lines[k])), None)
    if end is None or not re.fullmatch(rf"{mark}{{{length},}}[ \t]*", lines[end][len(prefix) :]):
        return None
    if not lines[end].startswith(prefix):
        return None
    body = lines[start + 1 : end]
    blank = prefix.rstrip(" \t")
    inner: list[str] = []
    for body_line in body:
        if body_line.startswith(prefix):
            inner.append(body_line[len(prefix) :])
        elif body_line.rstrip(" \t") == blank:
            inner.append("")
        else:
            return None
    if _NEEDS_CARE.search("\n".join(inner)):
        return None
    return end + 1, [head, *_no_query(body), prefix + fence]


def _no_query(body: list[str]) -> list[str]:
    """A code block's lines, a zero-width space before the `=` of a Dataview inline query
    that would start it (Dataview can run those in code blocks too)."""
    for number, line in enumerate(body):
        lead = re.match(r"[\s\ufeff>]*", line)
        at = lead.end() if lead else 0
        if at < len(line):
            if line.startswith(("=", "$="), at):
                body = [*body[:number], line[:at] + _ZWSP + line[at:], *body[number + 1 :]]
            break
    return body


# --- inline ---------------------------------------------------------------------------------


def _safe_destination(text: str, start: int) -> bool:
    """Whether the link target at `text[start:]` is http(s), mailto or relative."""
    match = _DESTINATION.match(text, start)
    target = match.group(1) if match else ""
    if target.startswith("<"):
        target = target[1:-1]
    target = _CONTROLS.sub("", html.unescape(_UNESCAPE.sub(r"\1", target)))
    scheme = _SCHEME.match(target)
    if scheme and scheme.group(1).lower() not in SAFE_SCHEMES:
        return False
    return not target.startswith(("//", "\\\\", "/\\", "\\/"))


def _run(text: str, start: int) -> int:
    end = start
    while end < len(text) and text[end] == "`":
        end += 1
    return end - start


def _code_span(text: str, start: int, run: int) -> tuple[str, int] | None:
    """(the code span opening at `text[start]` with `run` backticks, as it is to be written;
    the index after it), or None when there is none (no closing run on this line) or when
    it is not safe to keep it verbatim."""
    line_end = text.find("\n", start)
    line_end = len(text) if line_end < 0 else line_end
    position = start + run
    while True:
        found = text.find("`", position, line_end)
        if found < 0:
            return None
        length = _run(text, found)
        if length == run:
            break
        position = found + length
    content = text[start + run : found]
    if _NEEDS_CARE.search(content):
        # Something that starts before the span could end inside it (a link's target, a
        # formula, a table cell, a [[link]]) and leave the rest of it as live text.
        if any(c in content for c in "$|[]()") or "%%" in content:
            return None
        for tag in _TAG_START.finditer(content):
            if ">" not in content[tag.end() :]:
                return None
    lead = _JS_SPACE.match(content)
    if content.startswith(("=", "$="), lead.end() if lead else 0):  # a Dataview inline query
        at = lead.end() if lead else 0
        content = content[:at] + _ZWSP + content[at:]
    return "`" * run + content + "`" * run, found + run


def _math(text: str, start: int) -> str | None:
    """The formula opening at `text[start]` (`$...$` on one line, `$$...$$`), or None."""
    if text.startswith("$$", start):
        end = text.find("$$", start + 2)
        formula = text[start : end + 2] if end > start + 2 else ""
        if not formula or re.search(r"\n[ \t]*\n", formula):
            return None
    else:
        if start + 1 >= len(text) or text[start + 1].isspace() or text[start + 1] == "$":
            return None
        position = start + 1
        while position < len(text) and text[position] not in "$\n":
            position += (
                2
                if text.startswith("\\", position) and text[position + 1 : position + 2] != "\n"
                else 1
            )
        if position >= len(text) or text[position] != "$" or text[position - 1].isspace():
            return None
        formula = text[start : position + 1]
    return None if "`" in formula else formula


def _inert_math(formula: str) -> str:
    """A formula with what could be read as HTML, an embed, a link or a comment broken
    by a space, which TeX ignores."""
    formula = _MATH_TAG.sub("< ", formula)
    formula = re.sub(r"!(?=\[)", "! ", formula)
    formula = re.sub(r"\](?=[(:])", "] ", formula)
    return re.sub(r"%(?=%)", "% ", formula)


def _inline(text: str) -> str:
    """Text outside fenced code, rewritten span by span (see the module docstring)."""
    out: list[str] = []
    brackets: list[tuple[int, int]] = []  # (index in out, index in text) of each open "["
    plain_close = -2  # index in text of the last "]" written as it was
    i, n = 0, len(text)

    def escape_brackets(position: int) -> int:
        while text.startswith("[", position):
            out.append("\\[")
            position += 1
        return position

    while i < n:
        char = text[i]
        if char == "\\" and i + 1 < n and text[i + 1] in _PUNCTUATION:
            following = text[i + 1]
            if following == "<" and _TAG_START.match(text, i + 1):
                out.append("&lt;")  # `\<` is not an escape everywhere; `&lt;` is
            else:
                out.append(text[i : i + 2])
            i += 2
            if following == "!":
                i = escape_brackets(i)
            elif following == "%" and text.startswith("%", i):
                out.append("&#37;")
                i += 1
            continue
        if char == "`":
            run = _run(text, i)
            span = _code_span(text, i, run)
            if span is None:
                out.append("\\`" * run)  # no code: shown as backticks
                i += run
            else:
                out.append(span[0])
                i = span[1]
            continue
        if char == "$":
            formula = _math(text, i)
            if formula is None:
                out.append("$$" if text.startswith("$$", i) else "$")
                i += len(out[-1])
            else:
                out.append(_inert_math(formula))
                i += len(formula)
            continue
        if char == "<":
            autolink = _AUTOLINK.match(text, i)
            if autolink:
                out.append(autolink.group(0))
                i = autolink.end()
            else:
                out.append("&lt;" if _TAG_START.match(text, i) else "<")
                i += 1
            continue
        if char == "!" and text.startswith("[", i + 1):
            out.append("\\!")
            i = escape_brackets(i + 1)
            continue
        if char == "[":
            brackets.append((len(out), i))
            out.append("[")
        elif char == "]":
            opener = brackets.pop() if brackets else None
            following = text[i + 1 : i + 2]
            live = True
            if following == "(":
                live = _safe_destination(text, i + 2)
            elif following == ":" and plain_close != i - 1:  # `]]:` ends a [[wiki link]]
                footnote = opener is not None and text.startswith("[^", opener[1])
                live = footnote and _safe_destination(text, i + 2)
            if live:
                out.append("]")
                plain_close = i
            else:
                out.append("\\]")
                if opener is not None:
                    out[opener[0]] = "\\["
        elif char == "%" and text.startswith("%", i + 1):
            out.append("%&#37;")
            i += 1
        else:
            out.append(char)
        i += 1
    return "".join(out)
