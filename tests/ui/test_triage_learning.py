"""The window's triage decisions and the command line's teach the ranking the same."""

from reader.core.interest import training_labels
from reader.core.library import Library
from reader.core.ranking import Features
from reader.core.screening import MemoryStore
from reader.core.triage import DEFAULT_DECISIONS, apply_decision
from reader.ui.commands import TriageDecisionCommand
from tests.helpers.libraries import fresh

INTERESTING, LATER, SKIP = DEFAULT_DECISIONS
STEPS = [(0, INTERESTING), (1, SKIP), (2, LATER), (1, INTERESTING), (3, SKIP), (0, SKIP)]


def test_window_and_command_line_decisions_train_the_same_model(qapp, library_dir):
    papers = fresh(library_dir).papers()
    window, cli = Library(MemoryStore(papers)), Library(MemoryStore(papers))
    ids = [p.id for p in papers]
    for k, decision in STEPS:
        TriageDecisionCommand(window, ids[k], decision, DEFAULT_DECISIONS).redo()
        apply_decision(cli, ids[k], decision, DEFAULT_DECISIONS)
    for pid in ids:
        assert (window.tags(pid), window.status(pid)) == (cli.tags(pid), cli.status(pid))
    labels = training_labels(cli)
    assert (
        labels
        == training_labels(window)
        == {ids[0]: False, ids[1]: True, ids[2]: True, ids[3]: False}
    )
    features = Features.build(papers)
    assert features.train(labels).order(ids) == features.train(training_labels(window)).order(ids)
