"""Realistic made-up paper libraries for the benchmarks, deterministic for a seed."""

# python bench/generate.py --papers 100000 --out /tmp/lib100k [--json papers.json]

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from itertools import pairwise
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from reader.core.models import Annotation, Highlight, Paper, Status  # noqa: E402

SEED = REPO / "data" / "seed_papers.json"

#: technical words mixed into the text the seed abstracts teach, so that a large
#: library has a long tail of rare words as real ones do
EXTRA_WORDS = """
diffusion transformer attention tokenizer quantization pruning distillation sparsity
contrastive self-supervised multimodal retrieval augmentation federated differential privacy
robustness adversarial certification calibration conformal uncertainty bayesian variational
posterior sampler langevin score-based denoising autoregressive flow-matching normalizing
equivariant graph message-passing hypergraph spectral laplacian kernel gaussian-process
bandit regret exploration offline model-based actor-critic policy-gradient q-learning
imitation preference rlhf reward-model alignment jailbreak red-teaming watermark
interpretability mechanistic circuit probing saliency counterfactual causal confounder
instrumental identifiability disentangled representation manifold hyperbolic riemannian
convex nonconvex saddle minimax stochastic momentum adam second-order hessian curvature
generalization overparameterized double-descent grokking scaling-law compute-optimal
benchmark leaderboard contamination tabular time-series forecasting anomaly segmentation
detection captioning grounding embodied navigation manipulation locomotion simulator
protein molecule docking crystal materials weather climate pde neural-operator physics-informed
compression pruning low-rank adapter lora mixture-of-experts routing speculative decoding
kv-cache long-context retrieval-augmented chain-of-thought reasoning planning agents tool-use
""".split()

FIRST = """Ana Wei Yoshua Tim Changyi Jun Mei Lukas Sofia Hiroshi Priya Omar Elena Jakub Chloé
Mateo Aarav Fatima Noah Yuki Ingrid José Zoë Björn Ali Xin Kenji Amara Dmitri Léa Rafael Siddharth
Hannah Emeka Marta Nikolai Aisha Tomás Jiayi Pedro Olga Chen Samuel Ines Kwame Yara
Stefan""".split()
LAST = """Zhang Wang Li Liu Chen Yang Huang Zhao Wu Zhou Müller Schmidt Rocktäschel Núñez García
Martínez Rossi Kowalski Nowak Ivanov Smirnov Kim Park Lee Choi Nguyen Tran Sato Suzuki Tanaka
Singh Kumar Sharma Patel Gupta Okafor Mensah Haddad Cohen Levi Dubois Lefèvre Bengio Hinton
Sutskever Andersson Johansson Nielsen O'Brien Murphy Smith Johnson Brown Williams Jones
Feng Xia Gossmann Chuang Hong Ding Guo Gong Qin Søndergaard Çelik Yılmaz Øverland""".split()

VENUES = [
    "ICML 2025",
    "ICML 2024",
    "NeurIPS 2024",
    "NeurIPS 2023",
    "ICLR 2025",
    "ICLR 2024",
    "AISTATS 2024",
    "COLT 2024",
    "UAI 2023",
    "TMLR",
]
PRESENTATIONS = ["Poster"] * 8 + ["Spotlight", "Oral"]
TAGS = [
    "rl",
    "theory",
    "to-read",
    "method/diffusion",
    "method/transformer",
    "method/distillation",
    "reading-group",
    "skip",
    "survey",
    "baseline",
    "data/benchmark",
    "important",
]

#: inline TeX of the kinds real abstracts carry (see DESIGN.md, Rendering)
TEX = [
    r"$\Theta(1/\sqrt{N})$",
    r"4.7$\times$",
    r"$\mathcal{O}(n \log n)$",
    r"$\epsilon$-greedy",
    r"$\ell_1$",
    r"$K^2$VAE",
    r"$\Theta\left(\frac{1}{\sqrt{N}}\right)$",
    r"$\alpha$",
    r"$\tilde{O}(\sqrt{T})$",
    r"$\sim$2$\times$",
    r"${\textbf{A}}$daptive",
    r"$\texttt{I$^2$MoE}$",
    r"``denoises''",
    r"*Trust-Region Twisted*",
    r"$H^{1/2}$",
    r"$\lambda$",
    r"$\beta$-VAE",
    r"$10^{-3}$",
    r"$\mathbb{R}^d$",
    r"$\delta$",
]


SYLLABLES = (
    "ka ri to na mo ve si lu de ba zo fi ne ra tu gal mer son lin dor vex ar "
    "ex tron ix quo pla ser min ta ko ru"
).split()


def long_tail(rng: random.Random, size: int) -> list[str]:
    """Made-up names of methods, datasets and people: the rare words that make up
    most of a real library's vocabulary (drawn with a Zipf-like skew)."""
    words = []
    for _ in range(size):
        word = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))
        style = rng.random()
        if style < 0.2:
            word = word.upper()[: rng.randint(3, 6)] + (
                str(rng.randint(1, 9)) if rng.random() < 0.3 else ""
            )
        elif style < 0.5:
            word = word.capitalize()
        words.append(word)
    return words


def _tokens() -> list[str]:
    """The words of the bundled sample's abstracts, in order (the Markov chain's corpus)."""
    papers = json.loads(SEED.read_text(encoding="utf-8"))
    words: list[str] = []
    for p in papers:
        words.extend(w for w in p["abstract"].split() if "$" not in w and "\\" not in w)
    return words


class TextMaker:
    """English-like sentences from a word-bigram chain over the bundled abstracts."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        words = _tokens()
        self.follow: dict[str, list[str]] = defaultdict(list)
        for a, b in pairwise(words):
            self.follow[a.lower()].append(b)
        self.starts = [b for a, b in pairwise(words) if a.endswith(".") and b[:1].isupper()]
        self.words = words
        self.sentences: list[str] = []
        self.tail = long_tail(rng, 200_000)

    def rare_word(self) -> str:
        """A long-tail word (or number), rarer the further down the list."""
        rng = self.rng
        if rng.random() < 0.3:
            return rng.choice(
                [
                    f"{rng.uniform(0, 100):.1f}%",
                    f"{rng.randint(2, 4096):,}",
                    f"{rng.uniform(1, 20):.1f}x",
                ]
            )
        return self.tail[min(int(rng.paretovariate(0.6)) - 1, len(self.tail) - 1)]

    def sentence(self, max_words: int = 28) -> str:
        rng = self.rng
        word = rng.choice(self.starts)
        out = [word]
        while not word.endswith(".") and len(out) < max_words:
            options = self.follow.get(word.lower())
            if not options or rng.random() < 0.08:
                word = rng.choice(EXTRA_WORDS) if rng.random() < 0.6 else rng.choice(self.words)
            else:
                word = rng.choice(options)
            out.append(word)
        text = " ".join(out)
        return text if text.endswith(".") else text.rstrip(",;:") + "."

    def pool(self, size: int) -> None:
        """Draw abstracts' sentences from `size` pre-made ones (a big library is made
        in seconds; each sentence then recurs as real phrases do)."""
        self.sentences = [self.sentence() for _ in range(size)]

    def abstract(self, target: int) -> str:
        rng = self.rng
        parts: list[str] = []
        size = 0
        tex = rng.random() < 0.35
        while size < target:
            s = rng.choice(self.sentences) if self.sentences else self.sentence()
            words = s.split()
            for _ in range(rng.randint(1, 3)):
                words.insert(rng.randrange(1, len(words)), self.rare_word())
            if tex and rng.random() < 0.3:
                words.insert(rng.randrange(1, len(words)), rng.choice(TEX))
            s = " ".join(words)
            parts.append(s)
            size += len(s) + 1
        return " ".join(parts)

    def title(self) -> str:
        rng = self.rng
        words = self.sentence(max_words=rng.randint(5, 11)).rstrip(".").split()
        words = [w.strip(",;:()") for w in words if w.strip(",;:()")]
        if rng.random() < 0.5:
            words.insert(rng.randrange(len(words) + 1), rng.choice(EXTRA_WORDS))
        if rng.random() < 0.5:
            words.insert(rng.randrange(len(words) + 1), self.rare_word())
        title = " ".join(w[:1].upper() + w[1:] if len(w) > 3 else w for w in words)
        if rng.random() < 0.3:
            acronym = "".join(w[0] for w in words[:4] if w[:1].isalpha()).upper() or "X"
            title = f"{acronym}: {title}"
        return title


def _people(rng: random.Random, tail: list[str], n: int) -> list[str]:
    """`n` author names: common first names, last names from a long list, some initials."""
    last = LAST + [w.capitalize() for w in tail[:4000]]
    return [
        f"{rng.choice(FIRST)} "
        f"{rng.choice('ABCDEFGHJKLMNPRSTW') + '. ' if rng.random() < 0.2 else ''}"
        f"{rng.choice(last)}"
        for _ in range(n)
    ]


def make_papers(n: int, seed: int = 1) -> list[Paper]:
    """`n` papers with ids g0000000...; the same `seed` always gives the same papers."""
    rng = random.Random(seed)
    maker = TextMaker(rng)
    maker.pool(min(60_000, 4 * n))
    people = _people(rng, maker.tail, max(50, n * 3))
    papers = []
    for i in range(n):
        venue = rng.choice(VENUES)
        year = int(venue[-4:]) if venue[-4:].isdigit() else rng.randint(2020, 2025)
        papers.append(
            Paper(
                id=f"g{i:07d}",
                title=maker.title(),
                authors=tuple(
                    people[min(int(rng.paretovariate(0.8)) - 1, len(people) - 1)]
                    if rng.random() < 0.3
                    else rng.choice(people)
                    for _ in range(rng.randint(3, 10))
                ),
                abstract=maker.abstract(int(rng.gauss(1200, 150))),
                venue=venue,
                year=year,
                url=f"https://example.org/paper/{i}",
                presentation=rng.choice(PRESENTATIONS),
                track="main",
                source="bench",
                added="2025-01-01T00:00:00+00:00",
            )
        )
    return papers


def make_annotations(papers: list[Paper], seed: int = 1) -> dict[str, Annotation]:
    """Statuses on ~5%, tags on ~4%, notes on ~1%, highlights on ~0.5% of `papers`."""
    rng = random.Random(seed + 1)
    maker = TextMaker(rng)
    out = {}
    for p in papers:
        r = rng.random()
        status = Status.READ if r < 0.03 else Status.READING if r < 0.05 else Status.UNREAD
        tags = tuple(rng.sample(TAGS, rng.randint(1, 3))) if rng.random() < 0.04 else ()
        note = (
            "\n\n".join(maker.sentence() for _ in range(rng.randint(1, 4)))
            if rng.random() < 0.01
            else ""
        )
        highlights: tuple[Highlight, ...] = ()
        if rng.random() < 0.005 and len(p.abstract) > 80:
            start = rng.randrange(0, len(p.abstract) - 60)
            highlights = (
                Highlight(f"h{p.id}", p.abstract[start : start + 50], comment="key claim"),
            )
        ann = Annotation(
            p.id,
            status,
            tags,
            note,
            highlights,
            created="2025-01-02T00:00:00+00:00",
            modified="2025-01-02T00:00:00+00:00",
        )
        if not ann.is_empty:
            out[p.id] = ann
    return out


def write_library(folder: Path, n: int, seed: int = 1) -> tuple[list[Paper], dict[str, Annotation]]:
    """A real library folder holding `n` generated papers and their annotations."""
    from reader.store.files import LibraryFolder
    from reader.store.migrations import migrate

    papers = make_papers(n, seed)
    annotations = make_annotations(papers, seed)
    store = LibraryFolder(folder)
    store.add_papers(papers)
    migrate(store)
    store.write_annotations({pid: ann.to_dict() for pid, ann in annotations.items()})
    store.close()
    return papers, annotations


def catalogue_mb(folder: Path) -> float:
    """The size of the catalogue files of library `folder` (every device's), in MiB."""
    return sum(p.stat().st_size for p in folder.glob("devices/*/papers/*.jsonl")) / (1 << 20)


def import_json(papers: list[Paper]) -> list[dict[str, Any]]:
    """`papers` as a conference-style JSON list, the way a user would import them."""
    return [
        {
            "id": p.id,
            "title": p.title,
            "authors": list(p.authors),
            "abstract": p.abstract,
            "venue": p.venue,
            "year": p.year,
            "url": p.url,
            "status": p.presentation,
        }
        for p in papers
    ]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--papers", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, help="write a library folder here")
    ap.add_argument("--json", type=Path, help="write an importable JSON list here")
    args = ap.parse_args(argv)
    if args.out:
        write_library(args.out, args.papers, args.seed)
    if args.json:
        args.json.write_text(
            json.dumps(import_json(make_papers(args.papers, args.seed))), encoding="utf-8"
        )
    if not (args.out or args.json):
        for p in make_papers(min(args.papers, 3), args.seed):
            print(json.dumps(p.to_dict(), ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
