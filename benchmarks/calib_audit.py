"""Calibrate the audit's intervals and all-pairs procedures across skew (:mod:`prspace.audit.simulation.simulate`).

    PYTHONPATH=src python benchmarks/calib_audit.py --n 300 1000 --reps 200 --out benchmarks/audit_calibration.csv
    PYTHONPATH=src python benchmarks/calib_audit.py --write-rule --docs
    PYTHONPATH=src python benchmarks/calib_audit.py --coverage --n 300 1000 --reps 1000 --write-rule --docs


One row per cell (pi, n, truth), replicate, metric, procedure and pair: the raw paired p-value, the
difference, its se and degrees of freedom, the true difference (:func:`prspace.audit.simulation.simulate.calibrate`);
``--cells pi:n ...`` runs chosen cells (several processes, then ``--merge``); ``--write-rule`` writes the
table the decision rule reads (``audit/data/calibration_table.csv``, read by
:mod:`prspace.audit.inference.decision`: the level correction fitted on
half the replicates, its error and power measured on the other half), ``--docs`` the tables of
docs/calibration.md.
"""

from __future__ import annotations

import argparse
import time

import pandas as pd

PIS = (0.5, 0.1, 0.03, 0.01)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, nargs="+", default=[300, 1000])
    ap.add_argument("--pi", type=float, nargs="+", default=list(PIS))
    ap.add_argument("--reps", type=int, default=240)
    ap.add_argument("--cells", nargs="*", default=None, help="pi:n pairs instead of the --pi x --n grid")
    ap.add_argument("--n-boot", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default="benchmarks/audit_calibration.csv")
    ap.add_argument("--merge", nargs="*", default=None, help="per-n CSVs to join into --out")
    ap.add_argument("--write-rule", action="store_true", help="write src/prspace/audit/data/calibration_table.csv from --out")
    ap.add_argument("--docs", action="store_true", help="write the tables into docs/calibration.md from --out")
    ap.add_argument("--coverage", action="store_true",
                    help="the coverage of every interval method (prspace.audit.inference.coverage) into --out "
                         "(default benchmarks/audit_coverage.csv); with --write-rule/--docs: its table and docs")
    a = ap.parse_args()
    if a.coverage:
        coverage_main(a)
        return
    if a.merge:
        pd.concat([pd.read_csv(f, keep_default_na=False, na_values=[""]) for f in a.merge]).to_csv(a.out, index=False)
    elif not (a.write_rule or a.docs):
        from prspace.audit.simulation.simulate import calibrate

        parts = []
        cells = ([(float(c.split(":")[0]), int(c.split(":")[1])) for c in a.cells] if a.cells
                 else [(pi, n) for n in a.n for pi in a.pi])
        for pi, n in cells:
            if True:
                for alt in (False, True):
                    t0 = time.perf_counter()
                    parts.append(calibrate(pi, n, a.reps, alternative=alt, seed=a.seed))
                    print(f"n={n} pi={pi} alt={alt}: {time.perf_counter() - t0:.0f} s", flush=True)
                    pd.concat(parts).to_csv(a.out, index=False)
    if a.write_rule:
        from prspace.audit.inference.decision import write_table

        print(write_table(pd.read_csv(a.out, keep_default_na=False, na_values=[""]), a.seed))


    if a.docs:
        write_docs(pd.read_csv(a.out, keep_default_na=False, na_values=[""]))


def coverage_main(a: argparse.Namespace) -> None:
    from prspace.audit.inference import coverage
    from prspace.audit.simulation.coverage_calib import calibrate_coverage

    out = a.out if a.out != "benchmarks/audit_calibration.csv" else "benchmarks/audit_coverage.csv"
    if not a.merge and not _exists(out):
        parts = []
        for n in a.n:
            for pi in a.pi:
                for alt in (False, True):
                    t0 = time.perf_counter()
                    parts.append(calibrate_coverage(pi, n, a.reps, alternative=alt, seed=a.seed, n_boot=a.n_boot))
                    print(f"coverage n={n} pi={pi} alt={alt}: {time.perf_counter() - t0:.0f} s", flush=True)
                    pd.concat(parts).to_csv(out, index=False)
    t = pd.read_csv(out, keep_default_na=False, na_values=[""])
    if a.write_rule:
        print(coverage.write_table(t, a.seed))
    if a.docs:
        write_coverage_docs(t)


def _exists(path: str) -> bool:
    import os

    return os.path.exists(path)


COV_START, COV_END = "<!-- audit-coverage:start -->", "<!-- audit-coverage:end -->"


def write_coverage_docs(t: pd.DataFrame, path: str = "docs/calibration.md") -> None:
    """The coverage tables of docs/calibration.md, "Which intervals the audit prints" (between the markers)."""
    from prspace.audit.inference.coverage import TARGET, rule_table

    r = rule_table(t).rename(columns={"coverage": "share"})
    lo, hi = int(t["reps"].min()), int(t["reps"].max())
    reps = f"{lo}" if lo == hi else f"{lo} to {hi}"
    parts = [f"Generated by `benchmarks/calib_audit.py --coverage --docs` from `benchmarks/audit_coverage.csv` "
             f"({reps} replicates per cell and truth, the count in `reps`; the worse coverage of the null and the planted alternative "
             f"(Monte Carlo se); **bold**: at least {TARGET:g}, printed by the audit at such a task).", "",
             "**Per-model 95% intervals:**", "", _cov_table(r, "coverage", TARGET), "",
             "**Unadjusted paired 95% intervals of a difference:**", "", _cov_table(r, "pair coverage", TARGET)]
    text = open(path).read()
    i, j = text.index(COV_START) + len(COV_START), text.index(COV_END)
    open(path, "w").write(text[:i] + "\n" + "\n".join(parts) + "\n" + text[j:])


def _cov_table(r: pd.DataFrame, kind: str, target: float) -> str:
    cells = _cells(r)
    head = "| metric | method | " + " | ".join(f"pi {p:g}, n {n} ({k} pos.)" for p, n, k in cells) + " |"
    rows = [head, "|" + " --- |" * (len(cells) + 2)]
    sub = r[r["kind"] == kind]
    order = {m: i for i, m in enumerate(NAMES)}
    for (metric, method), g in sorted(sub.groupby(["metric", "method"]), key=lambda x: (order[x[0][0]], x[0][1])):
        vals = []
        for p, n, _ in cells:
            h = g[(g["pi"] == p) & (g["n"] == n)].iloc[0]
            v = f"{h['share']:.3f} ({h['mc_se']:.3f})"
            vals.append(f"**{v}**" if h["share"] >= target else v)
        rows.append(f"| {NAMES[metric]} | {method} | " + " | ".join(vals) + " |")
    return "\n".join(rows)


START, END = "<!-- audit-calibration:start -->", "<!-- audit-calibration:end -->"
NAMES = {"auroc": "AUROC", "average_precision": "AP", "aupr": "AUPR", "aucnpr": "AUCNPR", "auprg": "AUPRG"}


def _cells(t: pd.DataFrame) -> list[tuple[float, int, int]]:
    c = t[["pi", "n", "n_pos"]].drop_duplicates().sort_values(["n", "pi"], ascending=[True, False])
    return [(float(r.pi), int(r.n), int(r.n_pos)) for r in c.itertuples(index=False)]


def _rule_cells(r: pd.DataFrame, column: str, fmt=lambda v, row: f"{v:.3f}") -> str:
    cells = _cells(r)
    head = "| metric | procedure | " + " | ".join(f"pi {p:g}, n {n} ({k} pos.)" for p, n, k in cells) + " |"
    rows = [head, "|" + " --- |" * (len(cells) + 2)]
    order = {m: i for i, m in enumerate(NAMES)}
    for (metric, method), g in sorted(r.groupby(["metric", "method"]), key=lambda x: (order[x[0][0]], x[0][1])):
        vals = []
        for p, n, _ in cells:
            h = g[(g["pi"] == p) & (g["n"] == n)]
            vals.append(fmt(h[column].iloc[0], h.iloc[0]) if len(h) else "")
        rows.append(f"| {NAMES[metric]} | {method} | " + " | ".join(vals) + " |")
    return "\n".join(rows)


def write_docs(t: pd.DataFrame, path: str = "docs/calibration.md") -> None:
    """The tables of docs/calibration.md, "The audit's intervals and tests" (between the markers),
    from the pair rows of the calibration (``t``)."""
    from prspace.audit.inference.decision import LEVEL, decide, raw_threshold, rule_table
    from prspace.stats.replicates import BOOT_METRICS

    r = rule_table(t)
    reps = int(t.groupby(["pi", "n", "truth"])["rep"].nunique().min())

    def err(v, row):
        se = (LEVEL * (1 - LEVEL) / row["reps"]) ** 0.5
        return f"{v:.3f}" + (" (over)" if v > LEVEL + 2 * se else "")

    parts = [f"Generated by `benchmarks/calib_audit.py --write-rule --docs` from its pair rows ({reps} "
             "replicates per cell and truth: the first half fits the level correction, the second half (held out, "
             f"{int(r['reps'].min())} per truth) measures the corrected procedure).", "",
             "**Directional family-wise error of the corrected procedure** (held out; the worse of the null and the "
             f"planted alternative; 0.05 + 2 MC se = {LEVEL + 2 * (LEVEL * (1 - LEVEL) / r['reps'].min()) ** 0.5:.3f}):",
             "", _rule_cells(r, "fwer", err), "",
             "**The same, of the raw test at its nominal level** (Holm on the uncorrected p-values; \"(over)\": above "
             "0.05 + 2 MC se):", "", _rule_cells(r, "fwer_raw", err), "",
             "**Raw p-value counted as p = 0.05 / 10** (Holm's first step for five models) after the correction "
             "(0.005 would be no correction):", "",
             _rule_cells(r, "t_4", lambda v, row: f"{raw_threshold(0.005, tuple(row[c] for c in r.columns if c.startswith('t_'))):.4f}"),
             "", "**Power on the planted lead** (held out; share of the four true leads declared; corrected / raw):", "",
             _rule_cells(r, "power", lambda v, row: f"{v:.2f} / {row['power_raw']:.2f}"), "",
             "**Simultaneous coverage** of the corrected pairwise intervals (held out, the worse of null and "
             "alternative):", "", _rule_cells(r, "simultaneous"), "",
             "**The procedure that decides** (:func:`prspace.audit.inference.decision.decide` at each cell; unit weights):", "",
             "| cell | " + " | ".join(NAMES[m] for m in BOOT_METRICS) + " |",
             "|" + " --- |" * (len(BOOT_METRICS) + 1)]
    for p, n, k in _cells(r):
        parts.append(f"| pi {p:g}, n {n} ({k} pos.) | " + " | ".join(decide(m, k, n).label for m in BOOT_METRICS)
                     + " |")
    text = open(path).read()
    i, j = text.index(START) + len(START), text.index(END)
    open(path, "w").write(text[:i] + "\n" + "\n".join(parts) + "\n" + text[j:])


if __name__ == "__main__":
    main()
