"""Every data file the tests read, all inside the repository (a fresh clone is enough)."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
SEED_JSON = REPO / "data" / "seed_papers.json"  # the bundled sample, as the product ships it
SEED_TEXT = DATA / "icml2025" / "icml2025_abstracts.txt"  # the seed list in its own text format
ICML_LIST = DATA / "icml2025" / "icml2025_list.json"  # the whole ICML 2025 list, no abstracts
