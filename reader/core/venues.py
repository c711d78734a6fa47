"""Venue names: the long "Proceedings of the 36th International Conference on Machine
Learning" form of a well-known conference, and its short "ICML 2019" one."""

from __future__ import annotations

import functools
import re

from reader.core.normalise import fold_title

#: Short name -> the conference's full name (as proceedings and BibTeX exports write it).
CONFERENCES: dict[str, str] = {
    "ICML": "International Conference on Machine Learning",
    "ICLR": "International Conference on Learning Representations",
    "NeurIPS": "Neural Information Processing Systems",
    "AISTATS": "International Conference on Artificial Intelligence and Statistics",
    "COLT": "Conference on Learning Theory",
    "UAI": "Conference on Uncertainty in Artificial Intelligence",
    "AAAI": "AAAI Conference on Artificial Intelligence",
    "IJCAI": "International Joint Conference on Artificial Intelligence",
    "CVPR": "IEEE/CVF Conference on Computer Vision and Pattern Recognition",
    "ICCV": "IEEE/CVF International Conference on Computer Vision",
    "ECCV": "European Conference on Computer Vision",
    "ACL": "Annual Meeting of the Association for Computational Linguistics",
    "EMNLP": "Conference on Empirical Methods in Natural Language Processing",
    "NAACL": "Conference of the North American Chapter of the Association for "
    "Computational Linguistics",
    "KDD": "ACM SIGKDD Conference on Knowledge Discovery and Data Mining",
    "WWW": "ACM Web Conference",
}

#: Words that do not tell conferences apart: "Proceedings of the", "Advances in", the
#: edition ("36th", "Annual"), the publisher's series, the organisers, the short names.
_NOISE = frozenset(
    "proceedings of the advances in annual th st nd rd pmlr volume vol ieee cvf acm".split()
    + [short.lower() for short in CONFERENCES]
)
_WORD = re.compile(r"[^\W\d_]+")
_YEAR = re.compile(r"(?<!\d)(19\d\d|20\d\d)(?!\d)")


def _words(text: str) -> tuple[str, ...]:
    return tuple(w for w in _WORD.findall(fold_title(text)) if w not in _NOISE)


_BY_WORDS = {_words(name): short for short, name in CONFERENCES.items()}


@functools.lru_cache(maxsize=1024)
def short_venue(venue: str, year: int | None = None) -> str:
    """ "ICML 2019" for a long form of a conference in CONFERENCES ("Proceedings of the 36th
    International Conference on Machine Learning", with the paper's `year` 2019, or a year
    in the text itself); "" for anything else: another venue, a form that is short already
    ("ICML 2019"), or no year to be had."""
    words = _words(venue)
    short = _BY_WORDS.get(words) if words else None
    if short is None:
        return ""
    found = _YEAR.search(venue)
    year = int(found.group(1)) if found else year
    if year is None:
        return ""
    named = f"{short} {year}"
    return "" if named == venue.strip() else named
