"""Where an import's time goes, stage by stage (not a test; prints milliseconds).

    python bench/import_profile.py FILE.json [--profile]

Stages, as import_files runs them (the garbage collector paused throughout): read and
decode the bytes, parse and normalise the records, plan the merge against an empty
library, stamp the added papers, write them to a fresh library folder, and the one
collector pass that follows. Each shows wall and CPU time (CPU time is the steadier
figure on a busy machine).
"""

from __future__ import annotations

import cProfile
import gc
import pstats
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from reader.core.library import Library, now_iso  # noqa: E402
from reader.core.merge import plan_import  # noqa: E402
from reader.formats import read_papers  # noqa: E402
from reader.importing import _collector_paused, _stamped  # noqa: E402
from reader.store.files import LibraryFolder  # noqa: E402


class Laps:
    def __init__(self) -> None:
        self.times: dict[str, str] = {}
        self.start = self.last = (time.perf_counter(), time.process_time())

    def lap(self, name: str, since: tuple[float, float] | None = None) -> None:
        now = (time.perf_counter(), time.process_time())
        wall, cpu = (now[i] - (since or self.last)[i] for i in (0, 1))
        self.times[name] = f"{wall * 1000:.0f} (cpu {cpu * 1000:.0f})"
        self.last = now


def stages(path: Path) -> dict[str, str]:
    laps = Laps()
    folder = Path(tempfile.mkdtemp(prefix="import-profile-"))
    try:
        with _collector_paused():
            result = read_papers(path)
            laps.lap("read")
            plan = plan_import({}, result.records)
            laps.lap("plan")
            added = _stamped(plan.added, now_iso())
            laps.lap("stamp")
            Library(LibraryFolder(folder / "lib")).add_papers([*added, *plan.updated])
            laps.lap("write")
        gc.collect(0)  # the young objects the pause left, as the first allocation would
        laps.lap("collect")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    laps.lap("total", since=laps.start)
    return laps.times


def main() -> None:
    path = Path(sys.argv[1])
    if "--profile" in sys.argv:
        profile = cProfile.Profile()
        profile.runcall(stages, path)
        stats = pstats.Stats(profile)
        stats.sort_stats("tottime").print_stats(30)
        return
    print(stages(path))


if __name__ == "__main__":
    main()
