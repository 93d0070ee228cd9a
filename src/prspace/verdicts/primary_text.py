"""How a primary row is computed: the resample counts derived from the verdicts' ``n_boot``
(``analysis.verdicts.n_boot``: :func:`rerun_resamples`, :func:`double_outer`, :func:`sensitivity_outer`, the one
place each is computed; the schema's description of that key names each, tests/verdicts/test_verdict_settings.py),
and the detail text that says how its interval was computed, its level counted and its claim decided
(:func:`how_computed`, for :mod:`prspace.verdicts.primary` and :mod:`prspace.verdicts.direction`)."""

from __future__ import annotations

import numpy as np

from prspace.stats import cluster_bootstrap as CB

#: Independent reruns of the bootstrap (seeds spawned from the study's seed): the intervals pool
#: them, the Monte Carlo error of each end is their spread (the detail text names them).
REPLICATES = 10
#: The fewest resamples of one rerun, whatever ``n_boot``.
MIN_RERUN_RESAMPLES = 50
#: One outer sample of the double bootstrap per ``OUTER_EVERY`` resamples of ``n_boot``, at least
#: ``OUTER_MIN`` and at most :data:`prspace.stats.cluster_bootstrap.DOUBLE_OUTER` (20,000).
OUTER_EVERY, OUTER_MIN = 50, 1_000
#: Outer samples of the known-truth simulation of each sensitivity variant, at most (six variants: the primary
#: rows' 20,000 each would take most of the verdict step's time; 2,000 keep the step no slower than it
#: was before the count, and the variants' ends carry the larger MC error their column states).
SENSITIVITY_OUTER = 2_000


def rerun_resamples(n_boot: int, replicates: int = REPLICATES) -> int:
    """Resamples of families in each of the ``replicates`` independent reruns behind a primary row's interval:
    ``max(n_boot // replicates, 50)``."""
    return max(n_boot // replicates, MIN_RERUN_RESAMPLES)


def double_outer(n_boot: int) -> int:
    """Outer samples of the double bootstrap (the known-truth simulation) for ``n_boot``: one per 50,
    from 1,000 to :data:`prspace.stats.cluster_bootstrap.DOUBLE_OUTER` (20,000 at the default
    ``n_boot``), each with :data:`prspace.stats.cluster_bootstrap.DOUBLE_INNER` inner resamples: a
    95% interval's coverage counted with an MC SE of 0.0015, and a tail of 0.0017 (Holm's first step
    over fifteen claims) resolved by 1.7 inner resamples and 34 outer samples. Also the simulated null
    studies of the sign-flip rows (:func:`prspace.verdicts.primary.sign_flip_claims`)."""
    return int(np.clip(n_boot // OUTER_EVERY, OUTER_MIN, CB.DOUBLE_OUTER))


def sensitivity_outer(n_boot: int) -> int:
    """Outer samples of each sensitivity variant's double bootstrap: :func:`double_outer`, at most
    :data:`SENSITIVITY_OUTER`."""
    return min(double_outer(n_boot), SENSITIVITY_OUTER)


#: The numbers derived from ``n_boot``, by the name the schema's description of ``analysis.verdicts.n_boot``
#: gives each.
DERIVED = {"rerun_resamples": rerun_resamples, "double_outer": double_outer, "sensitivity_outer": sensitivity_outer}


def _ends_text(r: object) -> str:
    """Each end's counted miss rate, and one countable step narrower."""
    return (f"missed below {r.coverage_miss_below:.4f} and above {r.coverage_miss_above:.4f}, one countable step "
            f"narrower {r.coverage_step_below:.4f} and {r.coverage_step_above:.4f}")


def procedure_text(r: object) -> str:
    """The coverage of the procedure the study runs (``procedure_coverage``; :mod:`prspace.stats.nested.procedure`),
    told apart from the oracle's; empty where it was not counted."""
    nan = float("nan")
    cov, n = float(getattr(r, "procedure_coverage", nan)), float(getattr(r, "procedure_coverage_n", nan))
    if not (cov == cov and n == n):
        return ""
    inner = float(getattr(r, "procedure_coverage_inner", nan))
    counts = f", {int(inner)} inner resamples" if inner == inner else ""
    se = float(r.procedure_coverage_mc_se)
    short = (f": short of its {r.level:.0%} by more than 2 MC SE, so its interval and outcome are less sure than "
             f"{r.level:.0%}" if cov < float(r.level) - 2 * se else "")
    return (f"; the oracle's coverage above corrects each simulated study's level on the population itself; the procedure "
            f"this study runs, its level corrected from its own families (each of {int(n)} studies drawn from this study's "
            f"families running it whole{counts}): its {r.level:.0%} interval covered the truth in {cov:.3f} of them "
            f"(MC SE {se:.3f}){short}")


def how_computed(r: object, k: int, what: str) -> str:
    """How row ``r``'s interval was computed, its level counted and it was decided (Holm over ``k`` claims of ``what``)."""
    if getattr(r, "method", "") == "sign-flip":
        return (f"per-claim {r.level:.0%} interval that inverts the sign-flip test over the {r.n_families} families of "
                f"the {r.n_tasks} tasks (every pattern of signs up to 16 families, else 4,096 drawn), its level counted "
                f"in a known-truth simulation (the study's families as the population, {int(r.coverage_n)} samples of "
                f"the study's size in {REPLICATES} reruns, seed {r.seed}): oracle coverage counted {r.oracle_coverage:.4f} (MC SE "
                f"{r.coverage_mc_se:.4f}; uncorrected {r.oracle_coverage_plain:.4f}; {_ends_text(r)}); decided by Holm over the {k} primary "
                f"claims of {what} (multiplier {int(r.holm_multiplier)}, adjusted p of deciding {r.p_holm:.3g}, tests "
                f"read at error {r.alpha_used:.4g}, where the test rejects the simulation's truth at a counted rate "
                f"{r.false_rate:.4f}, MC SE {r.false_rate_mc_se:.4f}); MC error of the interval's ends over the reruns "
                f"{r.mc_lo:.4f} / {r.mc_hi:.4f}{procedure_text(r)}")
    quart = getattr(r, "claim_id", "").endswith(("_q25", "_q75"))
    kind = ("Woodruff interval of a quartile (the bootstrap-t interval of the share of tasks at or below it, mapped "
            "through the tasks' quantiles)" if quart else "studentized (bootstrap-t) interval")
    return (f"per-claim {r.level:.0%} {kind} from a cluster bootstrap over {r.n_families} families of the "
            f"{r.n_tasks} tasks ({r.n_boot} resamples in {REPLICATES} independent reruns, seed {r.seed}), its level "
            f"corrected by counting in a known-truth simulation (the study's families as the population, "
            f"{int(r.coverage_n)} samples of the study's size): oracle coverage counted {r.oracle_coverage:.4f} (MC SE "
            f"{r.coverage_mc_se:.4f}; uncorrected bootstrap-t {r.oracle_coverage_plain:.4f}; {_ends_text(r)}); decided by Holm over the {k} "
            f"primary claims of {what} (multiplier {int(r.holm_multiplier)}, adjusted p of deciding {r.p_holm:.3g}, "
            f"tests read at error {r.alpha_used:.4g}, where the test rejects the simulation's truth at a counted rate "
            f"{r.false_rate:.4f}, MC SE {r.false_rate_mc_se:.4f}); MC error of the interval's ends over the reruns "
            f"{r.mc_lo:.4f} / {r.mc_hi:.4f}{procedure_text(r)}")
