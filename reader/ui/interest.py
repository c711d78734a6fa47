"""Predicted interest in the window: the model learnt off the GUI thread, kept up to
date with the user's decisions, and what the list, triage and the pane make of it.

The features of the papers are built once, on a worker, at the first need (triage,
the sort order "Predicted interest", More Like This) and again after an import; a
model is trained on a worker after each decision (reader.core.ranking: ms at 3,300
papers, ~0.2 s at 100,000). Until a new one is ready the last one is used: triage
never waits for it. The GUI thread only reads the library's decisions
(reader.core.interest.training_labels) and hands them over.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QLocale, QObject, Signal

from reader.core.library import Change, Library
from reader.ui.i18n import fill

if TYPE_CHECKING:
    from reader.core.ranking import Features, Model
    from reader.core.triage import Decision
    from reader.ui.tasks import TaskRunner

#: the two models kept: the user's interest (triage, the sort) and More Like This
INTEREST, LIKE = "interest", "like"
#: how many of a paper's strongest features "why" names
WHY_FEATURES = 6


class Interest(QObject):
    """The models of predicted interest, trained off the GUI thread.

    Signals:
        changed(str): a new model is ready for INTEREST or LIKE.
        failed(str): training failed (what to tell the user).
    """

    changed = Signal(str)
    failed = Signal(str)

    def __init__(
        self,
        library: Library,
        decisions: Callable[[], Sequence[Decision]] | None = None,
        runner: TaskRunner | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._library = library
        #: the triage decisions (default: those kept in the library's preferences)
        self._decisions = decisions or self._stored_decisions
        #: the worker (made at the first model asked for: not before the first paint)
        self._runner = runner
        self._features: Features | None = None
        #: bumped when the catalogue changes: features built before are not kept
        self._generation = 0
        #: per model, the labels to train on next (the latest request wins)
        self._wanted: dict[str, dict[str, bool]] = {}
        self._running = False
        self.models: dict[str, Model] = {}
        #: the list is to be sorted by LIKE's model once it is learnt (see more_like)
        self.like_wanted = False
        #: per model, every paper it scored, best first (sorted on the worker)
        self.orders: dict[str, list[str]] = {}
        #: what LIKE's model is like ("“A paper's title”", "tag:diffusion")
        self.like_what = ""
        #: emptied when Qt deletes this object (its window closed): a model learnt after
        #: that is told to nobody
        self._alive = alive = [True]
        self.destroyed.connect(lambda: alive.clear())
        library.subscribe(self._on_change)

    def _stored_decisions(self) -> Sequence[Decision]:
        from reader.core.triage import stored_decisions

        return stored_decisions(self._library)

    # -- asking -----------------------------------------------------------------

    @property
    def model(self) -> Model | None:
        """The latest model of the user's interest (None: none trained yet)."""
        return self.models.get(INTEREST)

    def refresh(self) -> None:
        """Train the interest model on the library's decisions as they are now."""
        from reader.core.interest import training_labels

        self._want(INTEREST, training_labels(self._library, self._decisions()))

    def more_like(self, *, paper_ids: Sequence[str] = (), tag: str | None = None) -> None:
        """Train LIKE's model: papers like `paper_ids`, or like those tagged `tag`."""
        from reader.core.interest import training_labels
        from reader.core.text import plain

        lib = self._library
        if tag is not None:
            self.like_what = f"tag:{tag}"
        elif len(paper_ids) == 1:
            self.like_what = f"“{plain(lib.paper(paper_ids[0]).title)}”"
        else:
            self.like_what = self.tr("%Ln paper(s)", "", len(paper_ids))
        labels = training_labels(lib, self._decisions(), tag=tag, like=list(paper_ids))
        self.like_wanted = True
        self._want(LIKE, labels)

    def why(self, which: str, paper_id: str) -> str:
        """What weighs most for `paper_id` in a model: its score and features."""
        model = self.models.get(which)
        if model is None or not model.can_rank:
            return ""
        parts = [name for name, _weight in model.explain(paper_id, WHY_FEATURES)]
        score = model.score(paper_id)
        if score == float("-inf"):
            return self.tr("Not scored yet: added after the model learnt")
        shown = QLocale().toString(score, "f", 1)
        if not parts:
            return fill(self.tr("Score %1"), shown)
        return fill(self.tr("Score %1 · why: %2"), shown, ", ".join(parts))

    # -- the worker -------------------------------------------------------------

    def _want(self, which: str, labels: dict[str, bool]) -> None:
        self._wanted[which] = labels
        self._next()

    def _next(self) -> None:
        if self._running or not self._wanted:
            return
        which = INTEREST if INTEREST in self._wanted else LIKE
        labels = self._wanted.pop(which)
        features, generation = self._features, self._generation
        papers = self._library.papers() if features is None else []
        self._running = True

        def work(_task: Any) -> tuple[Features, Model, list[str]]:
            from reader.core.ranking import Features

            built = features or Features.build(self._library.completed(papers))
            model = built.train(labels)
            model.calibrate()  # (here: the triage bar only applies it, triage walks it)
            return built, model, model.ranked()

        def done(result: tuple[Features, Model, list[str]]) -> None:
            if not self._alive:
                return
            self._running = False
            built, model, order = result
            if generation == self._generation:
                self._features = built
            self.models[which] = model
            self.orders[which] = order
            self.changed.emit(which)
            self._next()

        def fail(exc: BaseException) -> None:
            if not self._alive:
                return
            self._running = False
            self.failed.emit(fill(self.tr("Predicted interest could not be learnt: %1"), str(exc)))
            self._next()

        if self._runner is None:
            from reader.ui.tasks import TaskRunner

            self._runner = TaskRunner()
        self._runner.start(work, done, fail)

    def _on_change(self, change: Change) -> None:
        if "papers" in change.fields:  # an import: the features are built anew
            self._generation += 1
            self._features = None
