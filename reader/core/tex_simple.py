"""The TeX most abstracts use, read without pylatexenc: plain text, escapes, dashes,
quotes, emphasis and simple $math$ (reader.core.tex falls back to pylatexenc)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from reader.core.pieces import Piece, Styled, merge_text

# what simple() reads: plain text (as tex._RUN), escapes, dashes, quotes, *emphasis* (made
# \emph or \textbf by tex._EMPH) of plain words, and $math$ of letters, digits, simple
# operators, ^ and _ scripts of a character or a {group} of those, and the symbols
# below (single characters, as pylatexenc writes them). _TEXT's math takes any macro
# name and _math() turns down the others: an alternation of these names was ~4M
# instructions to compile, before the first paint.
SYMBOLS = dict(
    zip(
        "times pm mp approx sim simeq leq le geq ge neq cdot infty rightarrow to leftarrow "
        "Rightarrow Leftarrow leftrightarrow ell partial nabla in notin subset subseteq cup cap "
        "forall exists ll gg propto equiv circ star ast dagger alpha beta gamma delta epsilon "
        "varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi rho sigma tau upsilon "
        "phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi Omega".split(),
        "×±∓≈∼≃≤≤≥≥≠·∞→→←⇒⇐↔ℓ∂∇∈∉⊂⊆∪∩∀∃≪≫∝≡∘⋆∗†αβγδεεζηθϑικλμνξπρστυϕφχψωΓΔΘΛΞΠΣΦΨΩ",
        strict=True,
    )
)
_MARKS = {"--": "–", "---": "—", "``": "“", "''": "”", "&": "&"}
_MATH_CHAR = r"(?:[A-Za-z0-9.,;:!?()<>=+/| ]|(?<!-)-(?!-))"
_PLAIN = r"(?:[^\\$%{}\[\]^_~&#`'\-!?]|[!?](?!`)|(?<!-)-(?!-)|(?<!')'(?!'))"  # !` is ¡
_TEXT = re.compile(
    rf"(?P<dash>---?(?!-))|(?P<quote>``|''|&)|(?P<esc>\\[%&_#])|(?P<text>{_PLAIN}+)"
    rf"|\\(?P<font>emph|textbf)\{{(?P<body>(?:(?![*\n]){_PLAIN})+)\}}"
    rf"|\$(?P<math>(?:{_MATH_CHAR}|[\^_][ \t]*(?:[A-Za-z0-9]|\{{{_MATH_CHAR}+\}})"
    rf"|\\[A-Za-z]+(?![A-Za-z])[ \t]*)+)\$"
)
_MATH = re.compile(
    r"\\(?P<macro>[A-Za-z]+)[ \t]*|(?P<script>[\^_])[ \t]*(?:\{(?P<group>[^}]*)\}|(?P<char>.))"
    r"|[^\\^_]+"
)


OtherMath = Callable[[str], Sequence[Piece] | None]


def simple(src: str, other_math: OtherMath | None = None) -> list[Piece] | None:
    """The pieces of the TeX most abstracts use, without pylatexenc (which costs ~3 ms
    an abstract and ~30 ms to load): the same pieces tex._build() gives, or None when
    `src` (text as tex._prepared() writes it) has anything more (tests compare the two
    on every sample abstract).

    Given `other_math`, a $...$ span this module cannot read is handed to it whole (the
    pieces pylatexenc gives that span where it stands, or None), so that one
    $\\frac{1}{\\sqrt{N}}$ no longer sends a whole abstract to pylatexenc."""
    out: list[Piece] = []
    pos = 0
    while pos < len(src):
        m = _TEXT.match(src, pos)
        math = _math(m.group("math")) if m is not None and m.lastgroup == "math" else None
        if m is None or (math is None and m.lastgroup == "math"):  # (a macro not among SYMBOLS)
            if other_math is None or (end := math_end(src, pos)) is None:
                return None
            pieces = other_math(src[pos:end])
            if pieces is None:
                return None
            out.extend(pieces)
            pos = end
            continue
        pos, kind = m.end(), m.lastgroup
        if kind == "text":
            out.append(m.group())
        elif kind in ("esc", "dash", "quote"):
            mark = m.group()
            out.append(Styled("", (mark[1],)) if kind == "esc" else _MARKS[mark])
        elif kind == "body":
            out.append(Styled("i" if m.group("font") == "emph" else "b", (m.group("body"),)))
        else:
            out.extend(math or ())
    return merge_text(out, False, False)


def _math(src: str) -> list[Piece] | None:
    """The pieces of the $math$ _TEXT read, or None when it has a macro not in SYMBOLS."""
    math: list[Piece] = []
    for part in _MATH.finditer(src):
        name, script = part.group("macro"), part.group("script")
        if name:
            if name not in SYMBOLS:
                return None
            math.append(Styled("", (SYMBOLS[name],)))
        elif script:  # x^2, x_{ij}: one character or one group
            arg = part.group("group") if part.group("group") is not None else part.group("char")
            math.append(
                Styled("sup" if script == "^" else "sub", tuple(merge_text([arg], True, True)))
            )
        else:
            math.append(part.group())
    return merge_text(math, True, True)


def math_end(src: str, pos: int) -> int | None:
    """The end of the inline $...$ that starts at `pos` (its closing $ at brace depth
    0, as in $\\texttt{I$^2$MoE}$), or None: no $ there, $$, unbalanced braces."""
    if not src.startswith("$", pos) or src.startswith("$$", pos):
        return None
    depth, i, n = 0, pos + 1, len(src)
    while i < n:
        c = src[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth < 0:
                return None
        elif c == "$" and depth == 0:
            return i + 1 if i > pos + 1 else None
        i += 1
    return None
