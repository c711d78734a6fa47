"""Command line of triage by predicted interest: rank, triage, simulate."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reader.cli_lang import _
from reader.core.library import Library


class RankError(Exception):
    """A failure told as one line (reader.cli reports it as its CliError)."""


def add_commands(command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    p = command("rank", _("undecided papers in the order triage would show them, with scores"))
    p.add_argument("query", nargs="*", help=_("only papers matching this query"))
    like = p.add_mutually_exclusive_group()
    like.add_argument("--like", metavar="ID", help=_("papers like this one, by score"))
    like.add_argument("--tag", metavar="TAG", help=_("papers like those tagged TAG, by score"))
    p.add_argument("--limit", type=int, metavar="N", help=_("only the first N"))
    p.add_argument("--json", action="store_true", help=_("print JSON (with each score's why)"))

    p = command("triage", _("record triage decisions as the window does"))
    p.add_argument("ids", nargs="+", metavar="ID")
    p.add_argument("decision", help=_("interesting, later or skip (or a decision's key)"))

    p = command("simulate", _("ASReview-style simulation of triage on a labelled CSV"))
    p.add_argument(
        "file", metavar="FILE.csv", help=_("columns title, abstract, authors, label_included")
    )
    p.add_argument("--prior-idx", nargs="+", type=int, metavar="I", help=_("rows to start from"))
    p.add_argument("--prior-included", type=int, default=1, metavar="N")
    p.add_argument("--prior-excluded", type=int, default=1, metavar="N")
    p.add_argument("--seed", type=int, default=1, help=_("draws the priors and the random picks"))
    p.add_argument(
        "--exploration",
        type=float,
        default=0.0,
        metavar="SHARE",
        help=_(
            "share of random picks (default 0: always the best ranked, as ASReview's max"
            " query; triage in the window and `rank` use 0.05)"
        ),
    )
    p.add_argument("--json", action="store_true", help=_("print JSON"))


def _print_json(data: Any) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def cmd_rank(lib: Library, args: argparse.Namespace) -> None:
    from reader.cli import _paper_id, search_index
    from reader.core.interest import training_labels, undecided
    from reader.core.query import parse
    from reader.core.ranking import Features, can_learn, triage_order
    from reader.core.text import plain
    from reader.core.triage import stored_decisions

    decisions = stored_decisions(lib)
    like = [_paper_id(lib, args.like)] if args.like else []
    labels = training_labels(lib, decisions, tag=args.tag, like=like)
    if args.tag and not any(labels.values()):
        raise RankError(_("no paper is tagged {tag!r}").format(tag=args.tag))
    if not (like or args.tag) and not can_learn(labels):
        raise RankError(
            _(
                "nothing to learn from yet: mark one paper interesting and one skipped"
                " (paper-reader triage ID interesting)"
            )
        )
    query = parse(" ".join(args.query))
    if query.warning:
        print(query.warning, file=sys.stderr)
    ids = search_index(lib, args).filter(query)
    todo = [pid for pid in undecided(lib, ids, decisions, tag=args.tag) if pid not in like]
    model = Features.build(lib.completed(lib.papers())).train(labels)
    if like or args.tag:  # "more like this": by score, no random picks
        order = model.order(todo)
    else:
        order = triage_order(model, todo, len(ids) - len(todo))
    if args.limit is not None:
        order = order[: max(args.limit, 0)]
    if args.json:
        _print_json(
            [
                {
                    "id": pid,
                    "score": round(model.score(pid), 4),
                    "title": plain(lib.paper(pid).title),
                    "why": [{"feature": f, "weight": round(w, 4)} for f, w in model.explain(pid)],
                }
                for pid in order
            ]
        )
        return
    for pid in order:
        why = ", ".join(feature for feature, _weight in model.explain(pid, 4))
        print(f"{pid}\t{model.score(pid):.3f}\t{plain(lib.paper(pid).title)}\t({why})")


def cmd_triage(lib: Library, args: argparse.Namespace) -> None:
    from reader.cli import _paper_id
    from reader.core.triage import apply_decision, find_decision, stored_decisions

    decisions = stored_decisions(lib)
    decision = find_decision(decisions, args.decision)
    if decision is None:
        names = ", ".join(d.label.lower() for d in decisions)
        message = _("unknown decision {given!r} (expected one of: {names})")
        raise RankError(message.format(given=args.decision, names=names))
    ids = [_paper_id(lib, given) for given in args.ids]  # every id known before any edit
    for pid in ids:
        apply_decision(lib, pid, decision, decisions)
        print(f"{pid}: {decision.label.lower()}")


def cmd_simulate(args: argparse.Namespace) -> None:
    """Needs no library: the CSV is the whole list."""
    from reader.core.screening import Oracle, metrics, read_labelled_csv, simulate

    try:
        papers, labels = read_labelled_csv(Path(args.file))
    except ValueError as exc:
        raise RankError(str(exc)) from None
    oracle = Oracle(labels)
    if args.prior_idx:
        bad = [i for i in args.prior_idx if not 0 <= i < len(papers)]
        if bad:
            message = _("--prior-idx {given}: the file has rows 0 to {last}")
            raise RankError(message.format(given=bad[0], last=len(papers) - 1))
        priors = list(dict.fromkeys(args.prior_idx))
    else:
        try:
            priors = oracle.priors(args.prior_included, args.prior_excluded, args.seed)
        except ValueError as exc:
            raise RankError(f"{args.file}: {exc}") from None
    exploration = args.exploration
    if not 0 <= exploration <= 1:
        raise RankError(_("--exploration must be between 0 and 1"))
    rest = len(papers) - len(priors)
    relevant = sum(labels) - sum(labels[i] for i in priors)  # (for the measures, after)
    if relevant <= 0:
        raise RankError(_("{file}: no relevant row beyond the priors").format(file=args.file))
    order = simulate(papers, oracle, priors, exploration=exploration, seed=args.seed)
    result = {
        "file": args.file,
        "papers": len(papers),
        "relevant": sum(labels),
        "priors": priors,
        "exploration": exploration,
        "seed": args.seed,
        **{k: round(v, 4) for k, v in metrics([labels[i] for i in order], rest, relevant).items()},
        "order": order,
    }
    if args.json:
        _print_json(result)
        return
    print(_("order: {rows}").format(rows=" ".join(map(str, order))))
    measures = _(
        "WSS@95 {wss:.3f}  recall@10% {recall:.3f}  average time to discovery {atd:.1f}"
        "  ({papers:,} papers, {relevant:,} relevant, priors {priors})"
    )
    print(
        measures.format(
            wss=result["wss95"],
            recall=result["recall10"],
            atd=result["atd"],
            papers=len(papers),
            relevant=sum(labels),
            priors=priors,
        )
    )


COMMANDS: dict[str, Callable[[Library, Any], None]] = {
    "rank": cmd_rank,
    "triage": cmd_triage,
}
#: commands that open no library
STANDALONE: dict[str, Callable[[Any], None]] = {"simulate": cmd_simulate}
