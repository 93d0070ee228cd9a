"""``prspace power FILE``: can my test set tell my models apart?  Power and sample size per metric.

For the best model and the runner-up by each of AUROC, AP, AUPR and AUPRG (models scored on the
same rows): the power to detect the observed difference at the planned sizes, the smallest
difference detected with 80% power there, and the positives needed to detect the observed
difference (:func:`prspace.audit.power.power_table`; the method in ``docs/audit.md``, "Power and
sample size").  Reads the file as ``prspace audit`` does; exit status 2 on bad input.
"""

from __future__ import annotations

import argparse

from prspace import audit
from prspace.audit.files import read_table
from prspace.audit.power import METRICS, power_table
from prspace.core.errors import InputError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "power", help="power and sample size: how large a difference your test set can detect, per metric",
        description=("Resample your own models' scores (positives and negatives, both models' scores of a row "
                     "together) at planned sizes, plant differences and run the audit's paired test at the "
                     "family's Bonferroni level: the power for the observed difference, the smallest "
                     "difference detected with the target power, and the positives needed."))
    p.add_argument("file", metavar="FILE", help="predictions, as for prspace audit (.csv, .tsv, .parquet)")
    for role in ("model", "label", "score", "fold", "task", "row"):
        p.add_argument(f"--{role}-col", help=f"{role} column (found by name as in prspace audit)")
    p.add_argument("--sep", help="field separator of a text file")
    p.add_argument("--pos-label", help="the label value of the positive class")
    p.add_argument("--positives", type=int, nargs="+", metavar="N",
                   help="planned numbers of positives (default: the file's)")
    p.add_argument("--negatives", type=int, nargs="+", metavar="N",
                   help="planned numbers of negatives, one per --positives (default: the file's prevalence kept)")
    p.add_argument("--metric", nargs="+", default=None, help="metrics (default: auroc average_precision aupr auprg)")
    p.add_argument("--power", type=float, default=0.8, help="target power (default 0.8)")
    p.add_argument("--alpha", type=float, default=0.05, help="family-wise level (default 0.05)")
    p.add_argument("--sims", type=int, default=200, help="simulated test sets per power value (default 200)")
    p.add_argument("--seed", type=int, default=0, help="seed of the simulated test sets (default 0)")
    p.add_argument("--out", help="write the table as CSV here")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:

    if not 0 < args.power < 1 or not 0 < args.alpha < 1:
        raise InputError("--power and --alpha must lie strictly between 0 and 1")
    if args.sims < 20:
        raise InputError(f"--sims {args.sims} is too few for a power estimate; give at least 20")
    df = read_table(args.file, args.sep)
    given = {r: getattr(args, f"{r}_col") for r in ("model", "label", "score", "fold", "task", "row")}
    cols = audit.resolve_columns(list(df.columns), **given)
    data, _ = audit.prepare(df, cols, pos_label=args.pos_label, detect_model=given["model"] is None)
    t = power_table(data, n_pos=args.positives, n_neg=args.negatives, metrics=tuple(args.metric or METRICS),
                    alpha=args.alpha, target=args.power, sims=args.sims, seed=args.seed)
    if not len(t):
        raise InputError("no task has two or more models scored on the same rows: nothing to compare")
    for r in t.to_dict("records"):
        mdd = "none below the largest plantable" if r["minimal_detectable"] != r["minimal_detectable"] else \
            f"{r['minimal_detectable']:.3f}"
        need = "more than 20000" if r["positives_needed"] != r["positives_needed"] else f"{r['positives_needed']:.0f}"
        print(f"{r['task']} {r['metric']}: {r['model_a']} - {r['model_b']} = {r['observed_diff']:+.3f}; at "
              f"{r['n_pos']} positives / {r['n_neg']} negatives power {r['power_observed']:.2f} "
              f"(MC se {r['power_mc_se']:.2f}); smallest difference detected with power {r['target']:.0%}: {mdd}; "
              f"positives needed for the observed difference: {need} "
              f"({r['test']}, level {r['alpha_pair']:.4f} = alpha / {r['pairs']} pairs, corrected by simulation as the "
              f"audit does to raw p < {r['raw_threshold']:.4g})")
    if args.out:
        t.to_csv(args.out, index=False)
    return 0
