"""Predicted interest: a linear model learnt from the user's decisions ranks the papers.

Features (Features.build: once per catalogue, the slow part, off the GUI thread):
TF-IDF of the words and word pairs of title and abstract (TeX rendered to text by
reader.core.text.plain; sublinear tf, English stop words dropped, terms of at least two
papers), beside the authors and the venue as tokens of their own weighed AUTHOR_WEIGHT;
each paper's row L2-normalised.

A model (Features.train: after each decision, fast): a linear SVM (scikit-learn's
LinearSVC, C=SVM_C as ASReview's default) on the papers decided so far, plus the cosine
similarity to the centroid of the positives; each standardised over all papers, then
added. The SVM learns what separates; the centroid keeps every positive's words in play
while the SVM has seen few of them. With positives only (no negatives yet: "papers like
this one") the centroid alone. Both are linear, so a paper's score is one dot product
and Model.explain() names the features that weigh most in it.

Nothing here reads the network. numpy, scipy and scikit-learn are imported inside
functions only, never at the start of the window or the command line.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from itertools import repeat
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reader.core.models import Paper

#: how much the authors and the venue weigh beside the words (TF-IDF blocks' scale)
AUTHOR_WEIGHT = 0.5
#: the SVM's regularisation (ASReview's default for its SVM)
SVM_C = 0.11
#: the share of picks made at random among the undecided papers, so that triage does
#: not only dig where it already found (0.05: one pick in twenty, on average)
EXPLORATION = 0.05
#: from this many papers on, best() walks ranked() instead of scoring each
MANY = 5_000


def _tokens(tokens: Sequence[str]) -> Sequence[str]:
    """The analyzer of the author/venue block: the tokens as they are."""
    return tokens


def paper_text(paper: Paper) -> tuple[str, list[str]]:
    """What the model reads of a paper: title and abstract as text; authors and venue
    as tokens."""
    from reader.core.text import plain

    people = [f"author: {plain(a).strip()}" for a in paper.authors if a.strip()]
    if paper.venue.strip():
        people.append(f"venue: {plain(paper.venue).strip()}")
    return f"{plain(paper.title)}\n{plain(paper.abstract)}", people


class Features:
    """Every paper of a catalogue as a row of features. Read-only once built: any
    number of threads may train() on it at once."""

    def __init__(self, ids: Sequence[str], matrix: Any, names: Sequence[str]) -> None:
        self.ids = list(ids)
        self.row = {pid: i for i, pid in enumerate(self.ids)}
        self.matrix = matrix  # scipy CSR, float32, one L2-normalised row per paper
        self.names = list(names)

    @classmethod
    def build(cls, papers: Iterable[Paper]) -> Features:
        """The features of `papers` (all of the library's, with their abstracts:
        Library.completed(); words are weighed by how rare they are in it). Seconds at
        100,000 papers: call it off the GUI thread, again after an import (papers added
        since are ranked last)."""
        ids, texts, people = [], [], []
        for paper in papers:
            text, tokens = paper_text(paper)
            ids.append(paper.id)
            texts.append(text)
            people.append(tokens)
        return cls.from_texts(ids, texts, people)

    @classmethod
    def from_texts(
        cls, ids: Sequence[str], texts: Sequence[str], people: Sequence[Sequence[str]]
    ) -> Features:
        import numpy as np
        from scipy import sparse
        from sklearn.preprocessing import normalize

        words, word_names = _tfidf(
            texts,
            ngram_range=(1, 2),
            sublinear_tf=True,
            stop_words="english",
            min_df=2,
            dtype=np.float32,
        )
        who, who_names = _tfidf(
            people, analyzer=_tokens, lowercase=False, min_df=1, dtype=np.float32
        )
        n = len(ids)
        if who is not None:
            who = who * np.float32(AUTHOR_WEIGHT)
        present = [m for m in (words, who) if m is not None]
        matrix = (
            sparse.hstack(present, format="csr", dtype=np.float32)
            if present
            else sparse.csr_matrix((n, 0), dtype=np.float32)
        )
        if matrix.shape[1]:
            matrix = normalize(matrix, copy=False).astype(np.float32)
        return cls(ids, matrix, [*word_names, *who_names])

    def __len__(self) -> int:
        return len(self.ids)

    def train(self, labels: Mapping[str, bool]) -> Model:
        """A model of `labels` (paper id -> interested); ids not in the features are
        left out. Tens of ms at 100,000 papers (the scoring of them all)."""
        import numpy as np

        rows = [(self.row[pid], bool(v)) for pid, v in labels.items() if pid in self.row]
        pos = [r for r, v in rows if v]
        neg = [r for r, v in rows if not v]
        x = self.matrix
        n_features = x.shape[1]
        weights = np.zeros(n_features, dtype=np.float32)
        if pos and n_features:
            centroid = np.asarray(x[pos].mean(axis=0), dtype=np.float32).ravel()
            weights += _standardised(x, centroid)
            if neg:
                from sklearn.svm import LinearSVC

                svm = LinearSVC(C=SVM_C)
                svm.fit(x[pos + neg], [1] * len(pos) + [0] * len(neg))
                weights += _standardised(x, svm.coef_.ravel().astype(np.float32))
        scores = x @ weights if n_features else np.zeros(len(self.ids), dtype=np.float32)
        return Model(self, weights, scores, dict(rows))


def _tfidf(docs: Sequence[Any], **options: Any) -> tuple[Any, list[str]]:
    """TF-IDF of `docs` and the terms' names; (None, []) when there is no term (a term
    in one paper only is kept when min_df=2 leaves nothing, as in a tiny library)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    if not docs:
        return None, []
    for min_df in sorted({options.pop("min_df", 1), 1}, reverse=True):
        vectorizer = TfidfVectorizer(min_df=min_df, **options)
        try:
            matrix = vectorizer.fit_transform(docs)
        except ValueError:  # empty vocabulary
            continue
        return matrix, [str(t) for t in vectorizer.get_feature_names_out()]
    return None, []


def _standardised(x: Any, weights: Any) -> Any:
    """`weights` scaled so that the scores they give the papers have unit spread."""
    spread = float((x @ weights).std())
    return weights / spread if spread > 0 else weights


class Model:
    """Scores for every paper of the Features it was trained on. Immutable: may be
    handed from the thread that trained it to any other."""

    def __init__(
        self, features: Features, weights: Any, scores: Any, labels: Mapping[int, bool]
    ) -> None:
        self.features = features
        self.weights = weights
        self.scores = scores
        #: what it learnt from, by row
        self.labels = dict(labels)
        self.positives = sum(1 for v in self.labels.values() if v)
        self.negatives = len(self.labels) - self.positives
        #: ranked(), once made; the expected interesting papers of all of them, once made
        self._ranked: list[str] | None = None
        self._total: float | None = None
        #: calibrate()'s fit, once made (`_calibrated`)
        self._platt: tuple[float, float] | None = None
        self._calibrated = False

    @property
    def can_rank(self) -> bool:
        """Whether it learnt anything: at least one positive."""
        return self.positives > 0

    def score(self, paper_id: str) -> float:
        """Higher is likelier interesting (a standardised score, about -3..10);
        -inf for a paper the features do not know."""
        row = self.features.row.get(paper_id)
        return float("-inf") if row is None else float(self.scores[row])

    def order(self, ids: Iterable[str]) -> list[str]:
        """`ids` by score, highest first; ties (and unknown papers, last) in their order."""
        ids = list(ids)
        keys = [self.score(pid) for pid in ids]
        return [ids[i] for i in sorted(range(len(ids)), key=lambda i: -keys[i])]

    def rank(self, ids: Iterable[str]) -> list[tuple[str, float]]:
        """order() with each paper's score."""
        return [(pid, self.score(pid)) for pid in self.order(ids)]

    def ranked(self) -> list[str]:
        """Every paper of the features, best first (made once: the trainer's thread
        asks for it, so the window only walks it)."""
        if self._ranked is None:
            import numpy as np

            ids = self.features.ids
            rows: Any = np.argsort(-self.scores, kind="stable")
            self._ranked = [ids[r] for r in rows.tolist()]
        return self._ranked

    def best(self, ids: Sequence[str]) -> str | None:
        """The first paper of order(ids), without sorting them. (Of many: the first of
        ranked() among them, walked from the top; a paper the features do not know
        comes only when none of them does.)"""
        if len(ids) >= MANY:
            wanted = set(ids)
            found = next((pid for pid in self.ranked() if pid in wanted), None)
            return found if found is not None else (ids[0] if ids else None)
        best, top = None, float("-inf")
        for pid in ids:
            s = self.score(pid)
            if best is None or s > top:
                best, top = pid, s
        return best

    def explain(self, paper_id: str, n: int = 8) -> list[tuple[str, float]]:
        """The features that add most to the paper's score, with what each adds: words
        and word pairs as they are, "author: X", "venue: X"."""
        row = self.features.row.get(paper_id)
        if row is None:
            return []
        vec = self.features.matrix[row]
        parts = vec.data * self.weights[vec.indices]
        top = sorted(range(len(parts)), key=lambda i: -parts[i])[:n]
        names = self.features.names
        return [(names[vec.indices[i]], float(parts[i])) for i in top if parts[i] > 0]

    def calibrate(self) -> tuple[float, float] | None:
        """The logistic fit of the decisions so far to their scores (Platt scaling):
        slope and intercept, None without both kinds of decision. Made once (the
        trainer's thread calls it, so the GUI thread only applies it)."""
        if not self._calibrated:
            self._calibrated = True
            if self.positives and self.negatives:
                from sklearn.linear_model import LogisticRegression

                rows = list(self.labels)
                fit = LogisticRegression()
                fit.fit(self.scores[rows].reshape(-1, 1), [self.labels[r] for r in rows])
                self._platt = (float(fit.coef_[0][0]), float(fit.intercept_[0]))
        return self._platt

    def expected_interesting_except(self, excluded: Iterable[str]) -> float:
        """expected_interesting() of every paper the features know but `excluded`:
        for a view of the whole library, without a pass over all its ids."""
        import numpy as np

        platt = self.calibrate()
        if platt is None:
            return float("nan")
        slope, intercept = platt
        if self._total is None:
            z = np.asarray(self.scores, dtype=float) * slope + intercept
            self._total = float((1.0 / (1.0 + np.exp(-z))).sum())
        return self._total - self.expected_interesting(excluded)

    def expected_interesting(self, ids: Iterable[str]) -> float:
        """An estimate of how many of `ids` are interesting: the sum of their
        probabilities, the scores mapped to probabilities by a logistic fit to the
        decisions so far (see calibrate()). Rough: the papers decided were mostly
        those ranked first, so it leans high early on. NaN without both kinds of
        decision."""
        import numpy as np

        platt = self.calibrate()
        if platt is None:
            return float("nan")
        get = self.features.row.get
        rows = np.fromiter(map(get, ids, repeat(-1)), dtype=np.int64)
        known = rows[rows >= 0]
        if not len(known):
            return 0.0
        slope, intercept = platt
        z = np.asarray(self.scores[known], dtype=float) * slope + intercept
        return float((1.0 / (1.0 + np.exp(-z))).sum())


def can_learn(labels: Mapping[str, bool]) -> bool:
    """Whether triage may follow the model: one "interested" and one other decision."""
    values = set(map(bool, labels.values()))
    return values == {True, False}


def rng_for(seed: int, step: int) -> random.Random:
    """The random draws of a pick: from the seed and the number of decisions so far."""
    return random.Random(seed * 1_000_003 + step)


def pick(
    model: Model,
    undecided: Sequence[str],
    step: int,
    *,
    exploration: float = EXPLORATION,
    seed: int = 0,
) -> str | None:
    """The paper triage shows next: the best scored of `undecided`, or (with chance
    `exploration`, drawn from `seed` and `step`, the number of decisions so far) one of
    them at random. None when there is none."""
    if not undecided:
        return None
    rng = rng_for(seed, step)
    if rng.random() < exploration:
        ranked = model.order(undecided)
        return ranked[rng.randrange(len(ranked))]
    return model.best(undecided)


def triage_order(
    model: Model,
    undecided: Sequence[str],
    step: int,
    *,
    exploration: float = EXPLORATION,
    seed: int = 0,
) -> list[str]:
    """The order pick() would show `undecided` in, one decision after another, were the
    model not retrained meanwhile."""
    rest = model.order(undecided)[::-1]  # the best last: taken with pop()
    out = []
    while rest:
        rng = rng_for(seed, step)
        if rng.random() < exploration:
            out.append(rest.pop(len(rest) - 1 - rng.randrange(len(rest))))
        else:
            out.append(rest.pop())
        step += 1
    return out
