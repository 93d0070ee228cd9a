"""``prspace power FILE``: can my test set tell my models apart?  Power and sample size per metric.

For the best model and the runner-up by each of AUROC, AP, AUPR and AUPRG (models scored on the
same rows): the power to detect the observed difference at the planned sizes, the smallest
difference detected with 80% power there, and the positives needed to detect the observed
difference (:func:`prspace.audit.simulation.audit_power.power_table`; the method in ``docs/audit.md``, "Power and
sample size").  Reads the file as ``prspace audit`` does (:func:`prspace.audit.audit_result.read_frame`:
long and wide layouts, ``--score-cols``, weights, every error naming the file).  ``--group-col``: the
unit is the group (patient, subject, site): planned test sets draw whole groups, the test is the audit's
grouped jackknife t, sizes are numbers of groups (``--groups``) and the answer is the groups needed.

``prspace power --plan --metric M --value-a A --value-b B --cases N --controls N [--corr R]``: no
file; the power of the audit's paired test to tell two models of assumed values apart
(:func:`prspace.audit.simulation.planning.plan_power`).  Exit status 2 on bad input.
"""

from __future__ import annotations

import argparse
import dataclasses

import pandas as pd

from prspace.audit.audit_files import read_table, short_path
from prspace.audit.audit_numbers import difference
from prspace.audit.audit_result import read_frame
from prspace.audit.simulation.audit_power import METRICS, power_table
from prspace.audit.simulation.planning import plan_power
from prspace.cli.audit import progress_printer
from prspace.core.errors import InputError

ROLES = ("model", "label", "score", "fold", "task", "weight", "repeat", "row")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "power", help="power and sample size: how large a difference your test set can detect, per metric",
        description=("Resample your own models' scores (positives and negatives, both models' scores of a row "
                     "together) at planned sizes, plant differences and run the audit's paired test at the "
                     "family's Bonferroni level: the power for the observed difference, the smallest "
                     "difference detected with the target power, and the positives needed."))
    p.add_argument("file", metavar="FILE", nargs="?",
                   help="predictions, as for prspace audit (.csv, .tsv, .parquet); none with --plan")
    for role in ROLES:
        p.add_argument(f"--{role}-col", help=f"{role} column (found by name as in prspace audit; '' = none)")
    p.add_argument("--group-col", metavar="NAME",
                   help="column of each row's patient, subject or site: planned test sets draw whole groups and the "
                        "test is the audit's grouped one (as in prspace audit; '' = none)")
    p.add_argument("--groups", type=int, nargs="+", metavar="N",
                   help="with --group-col: planned numbers of groups (default: the file's)")
    p.add_argument("--score-cols", metavar="A,B,...",
                   help="a wide file: one score column per model, comma-separated, or 'all' (as in prspace audit)")
    p.add_argument("--ignore-col", action="append", metavar="NAME",
                   help="a column not to use although it looks like a role (as in prspace audit)")
    p.add_argument("--sep", help="field separator of a text file")
    p.add_argument("--decimal", help="decimal mark of a text file's numbers: '.' or ',' (as in prspace audit)")
    p.add_argument("--pos-label", help="the label value of the positive class")
    p.add_argument("--positives", type=int, nargs="+", metavar="N",
                   help="planned numbers of positives (default: the file's)")
    p.add_argument("--negatives", type=int, nargs="+", metavar="N",
                   help="planned numbers of negatives, one per --positives (default: the file's prevalence kept)")
    p.add_argument("--metric", nargs="+", default=None, help="metrics (default: auroc average_precision aupr auprg; "
                   "--plan: one of them)")
    plan = p.add_argument_group("planning from assumed values (no file)")
    plan.add_argument("--plan", action="store_true", help="plan from assumed values instead of a file")
    plan.add_argument("--value-a", type=float, help="model a's assumed value of --metric")
    plan.add_argument("--value-b", type=float, help="model b's assumed value of --metric")
    plan.add_argument("--cases", type=int, help="planned positives")
    plan.add_argument("--controls", type=int, help="planned negatives")
    plan.add_argument("--corr", type=float, default=0.5,
                      help="correlation of the two models' scores within each class (default 0.5)")
    p.add_argument("--power", type=float, default=0.8, help="target power (default 0.8)")
    p.add_argument("--alpha", type=float, default=0.05, help="family-wise level (default 0.05)")
    p.add_argument("--sims", type=int, default=200, help="simulated test sets per power value (default 200)")
    p.add_argument("--seed", type=int, default=0, help="seed of the simulated test sets (default 0)")
    p.add_argument("--out", help="write the table as CSV here")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="print what power is computing on stderr (default: when stderr is a terminal)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:

    _check_options(args)
    if args.plan:
        return _plan(args)
    source = short_path(args.file)
    data, candidates = _read(args, source)
    for name in candidates:  # the audit's grouped-rows warning, first: it changes the answer
        print(f"{source}: GROUPED ROWS: column {name!r} repeats its values within every model (a patient, subject or "
              "site id?): the answer below draws its rows as if independent, which overstates the power and understates "
              f"the positives needed when they are correlated: pass --group-col {name} to draw its groups whole (or "
              f"--ignore-col {name} if its rows are independent)")
    say = progress_printer(args.progress, "power")
    try:
        t = power_table(data, n_pos=args.positives, n_neg=args.negatives, metrics=tuple(args.metric or METRICS),
                        alpha=args.alpha, target=args.power, sims=args.sims, seed=args.seed, n_groups=args.groups,
                        progress=say)
        if not len(t):
            raise InputError("no task has two or more models scored on the same rows: nothing to compare")
    except InputError as exc:
        raise InputError(f"{source}: {exc}") from None
    _answer(t, data, source, args.group_col or None)
    if args.out:
        t.to_csv(args.out, index=False)
    return 0


def _check_options(args: argparse.Namespace) -> None:
    """The options checked before any file is read: the levels, the simulations, a FILE or ``--plan``."""
    if not 0 < args.power < 1 or not 0 < args.alpha < 1:
        raise InputError("--power and --alpha must lie strictly between 0 and 1")
    if args.sims < 20:
        raise InputError(f"--sims {args.sims} is too few for a power estimate; give at least 20")
    if args.plan:
        return
    if args.file is None:
        raise InputError("give a predictions FILE, or --plan with --metric, --value-a, --value-b, --cases and --controls")
    planning = [o for o in ("value_a", "value_b", "cases", "controls") if getattr(args, o) is not None]
    if planning:
        raise InputError(f"--{planning[0].replace('_', '-')} goes with --plan (no FILE); with a FILE plan sizes "
                         "with --positives and --negatives")


def _read(args: argparse.Namespace, source: str) -> tuple[pd.DataFrame, list[str]]:
    """The file read as ``prspace audit`` reads it: the canonical frame and the columns that look like groups."""
    df = read_table(args.file, args.sep, args.decimal)
    given = {r: getattr(args, f"{r}_col") for r in ROLES}
    group_col = args.group_col or None
    if args.groups and group_col is None:
        raise InputError("--groups plans numbers of groups: add --group-col naming each row's patient, subject or site")
    _, _, _, data, _, _, candidates = read_frame(df, given, ignore=args.ignore_col, score_cols=args.score_cols,
                                                 pos_label=args.pos_label, source=source, group_col=group_col,
                                                 with_candidates=True)
    return data, candidates


def _answer(t: pd.DataFrame, data: pd.DataFrame, source: str, group_col: str | None) -> None:
    """The answer's lines: weighted rows said, then one line per row of ``t`` (grouped: :func:`_grouped_lines`)."""
    if (data["weight"] != 1.0).any():
        print(f"{source}: weighted rows: the population is the weighted one; planned test sets draw rows in "
              "proportion to their weights")
    if group_col is not None:
        _grouped_lines(t, source, group_col)
        return
    for r in t.to_dict("records"):
        print(_line(r, f"{r['n_pos']} positives / {r['n_neg']} negatives", "positives", r["positives_needed"],
                    r["positives_cap"]))


def _grouped_lines(t: pd.DataFrame, source: str, group_col: str) -> None:
    """The answer with groups (:func:`prspace.audit.simulation.audit_power.power_table`'s grouped rows), one line per row."""
    print(f"{source}: the unit is the group of column {group_col!r}: planned test sets draw whole groups with "
          "replacement (each keeping its rows), tested by the audit's grouped jackknife t (AUROC too, not DeLong)")
    for r in t.to_dict("records"):
        print(_line(r, f"{r['n_groups']} groups (mean {r['rows_per_group']:.1f} rows per group: about "
                       f"{r['n_pos']:.0f} positives / {r['n_neg']:.0f} negatives)", "groups", r["groups_needed"],
                    r["groups_cap"]))


def _line(r: dict, sizes: str, unit: str, needed: float, cap: float) -> str:
    """One row of the answer: the difference, the power at ``sizes``, the smallest detectable difference and the
    ``unit`` s needed (NaN: more than the search's cap)."""
    mdd = "none below the largest plantable" if r["minimal_detectable"] != r["minimal_detectable"] else \
        f"{r['minimal_detectable']:.3f}"
    need = (f"more than {cap:,.0f} (the search stops there: ten times the file's {unit}, at least 1,000)"
            if needed != needed else f"{needed:.0f}")
    power = ("not computed: the two models are tied on this metric (no difference to detect)"
             if r["power_observed"] != r["power_observed"] else
             f"{r['power_observed']:.2f} (MC se {r['power_mc_se']:.2f})")
    return (f"{r['task']} {r['metric']}: {r['model_a']} - {r['model_b']} = {difference(r['observed_diff'], sign=True)[0]}; "
            f"at {sizes} power {power}; smallest difference "
            f"detected with power {r['target']:.0%}: {mdd}; {unit} needed for the observed difference: {need} "
            f"({r['test']}, level {r['alpha_pair']:.4f} = alpha / {r['pairs']} pairs, corrected by simulation as the "
            f"audit does to raw p < {r['raw_threshold']:.4g})")


def _plan(args: argparse.Namespace) -> int:
    """``--plan``: the power from assumed values (:func:`prspace.audit.simulation.planning.plan_power`)."""
    if args.file is not None:
        raise InputError(f"--plan takes no FILE (got {args.file!r}); drop one of them")
    missing = [o for o in ("value_a", "value_b", "cases", "controls") if getattr(args, o) is None]
    if missing or not args.metric or len(args.metric) != 1:
        need = ", ".join(f"--{o.replace('_', '-')}" for o in missing) or "one --metric"
        raise InputError(f"--plan needs {need}: e.g. --plan --metric auroc --value-a 0.80 --value-b 0.85 "
                         "--cases 100 --controls 400")
    if args.positives or args.negatives:
        raise InputError("--plan takes its sizes from --cases and --controls, not --positives/--negatives")
    if args.group_col or args.groups:
        raise InputError("--group-col and --groups go with a FILE (its groups are resampled); --plan has none: drop them")
    r = plan_power(args.metric[0], args.value_a, args.value_b, cases=args.cases, controls=args.controls,
                   corr=args.corr, alpha=args.alpha, sims=args.sims, seed=args.seed)
    better = "a" if r.value_a > r.value_b else "b"
    print(f"{r.metric} {r.value_a:g} (a) against {r.value_b:g} (b), {r.cases} positives and {r.controls} negatives, "
          f"scores correlated {r.corr:g} within each class: the audit's paired test "
          f"({'DeLong z' if r.metric == 'auroc' else 'jackknife t'}, raw p < {r.level:.4g}: level {args.alpha:g} "
          f"corrected as the audit corrects it) finds model {better} better with power {r.power:.2f} "
          f"(MC se {r.mc_se:.2f}, {r.sims} simulated test sets; binormal scores, equal variances)")
    if args.out:

        pd.DataFrame([dataclasses.asdict(r) | {"alpha": args.alpha}]).to_csv(args.out, index=False)
    return 0
