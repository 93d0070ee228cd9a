"""The claims of both papers, as the papers state them: the one registry.

Each :class:`Claim` is one sentence of a paper, quoted, with where it stands, the value(s) it
gives and how this project tests it. Three roles:

* ``primary``: what the paper says and reports from data (Flach & Kull's shares, correlations,
  quartiles, "as different as" and "all significantly different", the last a test: quantity
  ``test``, its row a p-value; Boyd et al.'s empirical claims of sections 4.1-4.3). Each paper's
  primary claims are one multiplicity family, decided by Holm's step-down (:func:`holm`) at
  :data:`HOLM_ALPHA`, each against :func:`decision_value` +- :func:`decision_margin`
  (docs/verdicts.md, "One scheme"). :func:`primary_level` (Bonferroni over all of them) is kept for
  the Boyd experiments' own evidence rows.
* ``implementation``: a theorem, closed form or the arithmetic of a published table checked against
  this project's code or against itself (Boyd's Theorems 1-3 and Corollary 4 of section 2, Tables 2-3;
  Flach & Kull's Definition 1 and Theorems 1-4 of section 3, and their code). It cannot fail on
  data; it checks the code (or the table).

Checkable sentences without a row are listed, with why, by
:func:`prspace.verdicts.completeness_step.not_tested_table` (table ``claims_not_tested``).
* ``exploratory`` rows are not here: they are this project's own questions (``paper = "prspace"``),
  never shown under a paper's column.

A row of the verdict table whose ``paper`` is a paper's key must have its ``claim_id`` here: the
paper column holds only what the registry quotes (a test enforces it).

Margins (``docs/verdicts.md``, "Margins"; their history: ``docs/analysis-plan.md``): each primary
claim's margin is the smallest effect of interest on the claim's own scale (:data:`READER_MARGIN`):
0.05 for a share of tasks ("one task in four" against "one in three" is a different finding, and
one task in twenty is the smallest share a reader would act on); 0.02 for a mean rank correlation or a
quartile of it (the paper reads 0.95 against 0.96 as the same); 0.05 / 0.02 for the difference between
two pairs' shares / correlations ("as different as", compared with 0); Boyd et al.'s directions:
:data:`DIRECTION_MARGIN` and :data:`DIRECTION_MARGINS`. The paper's own sampling error is not added
to the margin (until 2026-11-26 it was, with its rounding: 0.24 +- 0.096 let one task in three
"replicate" one in four); the paper's number is taken as the reference it states.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Flach & Kull's datasets behind their 886 tasks (the families of their study).
FK_DATASETS = 426
#: The family-wise error of the primary claims' simultaneous intervals.
PRIMARY_ALPHA = 0.05

#: The smallest difference that matters to a reader, per quantity (module docstring).
READER_MARGIN = {"share": 0.05, "correlation": 0.02, "quartile": 0.02, "share_gap": 0.05, "correlation_gap": 0.02}


@dataclass(frozen=True)
class Claim:
    """One claim of a paper: ``claim_id`` (the verdict row's id), ``paper`` (a key of
    :data:`prspace.verdicts.rule.PAPERS`), ``role`` (primary / implementation), ``where`` (section,
    table, figure), ``quote`` (the paper's words, short), ``paper_value`` (NaN when the paper
    states a direction, not a number), ``quantity`` (what is compared: a key of
    :data:`READER_MARGIN`, ``direction``, ``test`` or ``check``), ``test`` (how this project tests it, one
    line), ``decimals`` (printed by the paper)."""

    claim_id: str
    paper: str
    role: str
    where: str
    quote: str
    test: str
    quantity: str
    paper_value: float = float("nan")
    decimals: int = 2
    direction: int = 0
    extra: dict = field(default_factory=dict)

    @property
    def margin(self) -> float:
        """The smallest effect of interest on the claim's scale (:data:`READER_MARGIN`; module
        docstring); NaN for a direction or a check (:func:`decision_margin` has those)."""
        return READER_MARGIN.get(self.quantity, float("nan"))


FK = "flach-kull-2015"
BOYD = "boyd-2012"
_FK4 = "sec. 4, text on Figure 4 (left)"
_TEST_SHARE = ("share of tasks whose two metrics differ, over this study's tasks; interval from a bootstrap "
               "over families of tasks")
_TEST_CORR = ("mean over tasks of the per-task Spearman correlation of the models' ranks (equal to the pooled "
              "rank correlation across tasks when every task has the same number of untied models); "
              "interval from a bootstrap over families")


_T1 = ("precision at a fixed ROC point (TPR t, FPR f) is pi t / (pi t + (1 - pi) f), the identity Theorem 1's proof "
       "rests on (tp = r pi n, fp at most (1 - pi) n), increasing in pi whenever t > 0; downsampling the test set's "
       "negatives keeps each model's ROC curve (up to sampling), so ")


def _fk_share(pair: str, k: str, value: float, quote: str) -> Claim:
    what = "best model" if k == "top1" else "ordered top three"
    return Claim(f"fk.{pair}.{k}", FK, "primary", _FK4, quote,
                 f"{_TEST_SHARE} (different {what})", "share", value, decimals=2)


CLAIMS: tuple[Claim, ...] = (
    # --- Flach & Kull (NIPS 2015), section 4 -------------------------------------------------------
    _fk_share("aupr_auprg", "top1", 0.24, "they disagree on the best method in 24% of the tasks"),
    _fk_share("aupr_auprg", "top3", 0.58, "and on the top three methods in 58% of the tasks"),
    _fk_share("aupr_auroc", "top1", 0.29, "the disagreement between AUPR and AUROC (29% and 65% disagreement "
                                          "for top 1 and top 3, respectively)"),
    _fk_share("aupr_auroc", "top3", 0.65, "the disagreement between AUPR and AUROC (29% and 65% disagreement "
                                          "for top 1 and top 3, respectively)"),
    _fk_share("auprg_auroc", "top1", 0.22, "and between AUPRG and AUROC (22% and 57%)"),
    _fk_share("auprg_auroc", "top3", 0.57, "and between AUPRG and AUROC (22% and 57%)"),
    Claim("fk.aupr_auprg.spearman", FK, "primary", "sec. 4, text", "the correlation between AUPR-ranks and "
          "AUPRG-ranks is 0.95", _TEST_CORR, "correlation", 0.95),
    Claim("fk.aupr_auroc.spearman", FK, "primary", "sec. 4, text", "between AUPR and AUROC it is 0.95",
          _TEST_CORR, "correlation", 0.95),
    Claim("fk.auprg_auroc.spearman", FK, "primary", "sec. 4, text", "and between AUPRG and AUROC it is 0.96",
          _TEST_CORR, "correlation", 0.96),
    Claim("fk.aupr_auprg.spearman_q25", FK, "primary", "sec. 4, text on Figure 4 (right)",
          "relatively low and high rank correlations (0.944 and 0.991, selected as lower and upper quartiles "
          "among all tasks)", "lower quartile over tasks of the per-task AUPR-AUPRG Spearman correlation; "
          "interval from a bootstrap over families", "quartile", 0.944, decimals=3),
    Claim("fk.aupr_auprg.spearman_q75", FK, "primary", "sec. 4, text on Figure 4 (right)",
          "relatively low and high rank correlations (0.944 and 0.991, selected as lower and upper quartiles "
          "among all tasks)", "upper quartile over tasks of the per-task AUPR-AUPRG Spearman correlation; "
          "interval from a bootstrap over families", "quartile", 0.991, decimals=3),
    Claim("fk.as_different.top1", FK, "primary", "sec. 4, first paragraph",
          "in some sense, AUPR and AUPRG are as different from each other as AUPR and AUROC",
          "paired difference of shares, (AUPR vs AUPRG) minus (AUPR vs AUROC), different best model, on the same "
          "tasks and families; compared with 0 (as different); the paper's own gap is 0.24 - 0.29 = -0.05, "
          "context only", "share_gap", 0.0, decimals=2),
    Claim("fk.as_different.top3", FK, "primary", "sec. 4, first paragraph",
          "in some sense, AUPR and AUPRG are as different from each other as AUPR and AUROC",
          "paired difference of shares, (AUPR vs AUPRG) minus (AUPR vs AUROC), different ordered top three; "
          "compared with 0 (as different); the paper's own gap is 0.58 - 0.65 = -0.07, context only", "share_gap",
          0.0, decimals=2),
    Claim("fk.as_different.spearman", FK, "primary", "sec. 4, first paragraph",
          "in some sense, AUPR and AUPRG are as different from each other as AUPR and AUROC",
          "paired difference of mean rank correlations, (AUPR vs AUPRG) minus (AUPR vs AUROC); compared with 0 "
          "(as different); the paper's own gap is 0.95 - 0.95 = 0", "correlation_gap", 0.0,
          decimals=2),
    Claim("fk.all_different", FK, "primary", _FK4,
          "Therefore, AUPR, AUPRG and AUROC are related quantities, but still all significantly different.",
          "per metric pair, the mean over tasks of how much more often the two metrics pick different best models "
          "than one metric disagrees with itself on resampled test rows (cross- minus self-disagreement, "
          "noise_floor_pairs.csv), bootstrapped over families of tasks; an intersection-union test over the three "
          "pairs (all differ when each pair's difference excludes 0, decided as the weakest pair)", "direction",
          direction=1),
    # --- Boyd et al. (ICML 2012), section 4: the empirical claims ------------------------------------
    Claim("boyd.sec4_1.averaging_optimistic", BOYD, "primary", "sec. 4.1",
          "Failing to account for fold-by-fold variation in skew can lead to overly optimistic assessments "
          "when using straightforward averaging.",
          "'can lead to' is modal, so the row counts how often: the share of tasks where folds made to differ in "
          "skew raise (mean of per-fold AUPR minus AUPR of the merged folds) by more than the AUPR margin 0.01 "
          "above the same on a control with the same moves class for class (fold skews unchanged), at the largest "
          "dispersion of fold skews tested (the paper's 'substantial variation in the skew of the folds'); the "
          "other dispersions, and optimism of any size, are this project's rows", "direction", direction=+1,
          extra={"indicator": True}),
    Claim("boyd.sec4_1.aucnpr_reduces_bias", BOYD, "primary", "sec. 4.1",
          "Averaging AUCNPR, which has the same range regardless of skew, helps reduce (but not eliminate) "
          "skew's effect compared to averaging AUCPR.",
          "size of the averaging bias (skewed minus control) for AUPR minus that for AUCNPR, each divided by the spread "
          "of the models' values, at the dispersion of boyd.sec4_1.averaging_optimistic (the largest tested)",
          "direction", direction=+1),
    Claim("boyd.sec4_3.aupr_rises", BOYD, "primary", "sec. 4.3, Table 3 (1:1: AUCPR 0.851 downsampled, 0.330 original)",
          "Table 3 shows the AUCPR and AUCNPR scores on a test set downsampled to the same skew as the train set and "
          "on the original (i.e., non-downsampled) test set.",
          "AUPR on a test set downsampled to 1:1 minus AUPR on the original test set, the same models on both "
          "(downsampling keeps the ROC curve up to sampling, and at a fixed ROC point precision rises with pi)",
          "direction", direction=+1,
          extra={"follows_from": "Theorem 1", "by_construction": (
              f"{_T1}every model's AUPR on the 1:1 test set is at least its AUPR at the original skew")}),
    Claim("boyd.sec4_3.gap_grows_with_pi", BOYD, "primary", "sec. 4.3, Table 3",
          "As expected, the difference increases as the ratio approaches 1 positive to 1 negative.",
          "slope of the downsampled-minus-original AUPR difference against the downsampled test skew, over the "
          "downsampled ratios only (the original ratio, difference 0 by definition, left out); each model's "
          "difference rises with pi by arithmetic, and the models of different training ratios differ only as "
          "their ROC curves do", "direction", direction=+1,
          extra={"follows_from": "Theorem 1", "follows_when": "for models whose ROC curve the training ratio leaves unchanged",
                 "by_construction": (f"{_T1}each model's downsampled-minus-original AUPR grows with the downsampled "
                                     "test set's pi; the models of different training ratios differ only as their ROC "
                                     "curves do")}),
    Claim("boyd.sec4_3.aucnpr_moves_less", BOYD, "primary", "sec. 4.3",
          "AUCNPR, which adjusts for the unachievable region, should be more stable than AUCPR to changes in skew.",
          "AUPR's downsampled-minus-original difference minus AUCNPR's, at 1:1", "direction", direction=+1),
    Claim("boyd.sec4_3.aucnpr_less_variance", BOYD, "primary", "sec. 4.3, Table 3",
          "AUCNPR has less variance than AUCPR.",
          "per task the standard deviation over the training ratios (the original included, as in Table 3) of the "
          "downsampled test set's AUPR minus that of its AUCNPR: a difference of SDs, on the AUPR scale of the "
          "margin 0.01", "direction", direction=+1),
    Claim("boyd.sec4_3.aucnpr_still_moves", BOYD, "primary", "sec. 4.3, Table 3",
          "However, there is still a sizable difference between the scores on the downsampled test set and the "
          "original test set.",
          "AUCNPR on the 1:1 downsampled test set minus AUCNPR on the original, the same models on both (the sentence "
          "follows 'AUCNPR has less variance than AUCPR': the scores are AUCNPR's; at a fixed ROC curve AUCNPR rises "
          "with pi)", "direction", direction=+1,
          extra={"follows_from": "Theorem 1", "by_construction": (
              f"{_T1}AUPR rises with pi, and AUCNPR = (AUPR - AUPR_MIN) / (1 - AUPR_MIN) rescales it from the floor "
              "AUPR_MIN(pi) of Theorem 2 (itself Theorem 1's bound integrated): at a fixed ROC curve AUCNPR rises with pi "
              "too (a random ranking's from 0.02 at pi 0.04 to 0.28 at pi 0.5)")}),
    Claim("boyd.sec4_3.aucnpr_more_than_twice", BOYD, "primary", "sec. 4.3, Table 3 (1:1: 0.785 vs 0.316, x2.48)",
          "At this ratio, even the AUCNPR score on the downsampled data is more than twice the score on the "
          "original skew.",
          "per task downsampled AUCNPR at 1:1 minus twice the original AUCNPR (its mean above 0: the mean downsampled "
          "AUCNPR is more than twice the mean original)", "direction", direction=+1),
    # --- implementation checks: cannot fail on data ---------------------------------------------------
    Claim("boyd.thm1", BOYD, "implementation", "sec. 2.1, Theorem 1",
          "Precision (p) and recall (r) must satisfy, p >= pi r / (1 - pi + pi r)",
          "the closed form against prspace.metrics on the worst ranking and random rankings", "check"),
    Claim("boyd.thm2", BOYD, "implementation", "sec. 2.2, Theorem 2",
          "AUCPR_MIN = 1 + (1 - pi) ln(1 - pi) / pi", "the closed form against prspace.metrics", "check"),
    Claim("boyd.thm3", BOYD, "implementation", "sec. 2.2, Theorem 3",
          "AP_MIN = (1/pos) sum_i i / (i + neg)", "the closed form against prspace.metrics", "check"),
    Claim("boyd.cor4", BOYD, "implementation", "sec. 2.2, Corollary 4",
          "For calculation of AUCPR over recalls in [a, b] where 0 <= a < b <= 1, AUCPR_MIN = b - a + (1 - pi)/pi "
          "ln((pi (a - 1) + 1) / (pi (b - 1) + 1))", "the closed form against prspace.metrics", "check"),
    Claim("boyd.table3", BOYD, "implementation", "sec. 4.3, Table 3",
          "AUCPR and AUCNPR scores for SAYU on UW-CSE advisedBy task for different train set skews",
          "the published AUCNPR column against (AUCPR - AUCPR_MIN) / (1 - AUCPR_MIN) at each published skew "
          "(the table's own arithmetic, within its rounding)", "check"),
    Claim("boyd.table2.mean_row", BOYD, "implementation", "sec. 4.2, Table 2", "mean 0.733 0.680",
          "the published mean row against the mean of the published predicate rows (the table's own "
          "arithmetic, within its rounding)", "check"),
    Claim("boyd.table2.more_conservative", BOYD, "implementation", "sec. 4.2, Table 2",
          "AUCNPR yields a more conservative overall estimate of performance",
          "mean AUCNPR <= mean AUPR over this study's tasks; AUCNPR <= AUPR holds for every model by "
          "construction, so this cannot fail", "check", direction=+1),
    Claim("boyd.aucnpr_orders_as_aupr", BOYD, "implementation", "sec. 3 (definition of AUCNPR)",
          "AUCNPR = (AUCPR - AUCPR_MIN) / (1 - AUCPR_MIN)",
          "within a task AUCNPR is an increasing function of AUPR, so both order the models alike", "check"),
    # --- Flach & Kull (NIPS 2015), sections 3 and 5: implementation checks (cannot fail on data) ----
    Claim("fk.def1", FK, "implementation", "sec. 3.1, Definition 1",
          "The always-positive classifier has recG = 1 and precG = 0 and hence gets plotted in the lower right-hand "
          "corner of Precision-Recall-Gain space, regardless of the class distribution.",
          "prspace.metrics.precision_gain / recall_gain against Definition 1's (x - pi) / ((1 - pi) x) on random "
          "contingency tables, and the always-positive classifier at (1, 0) at every skew", "check"),
    Claim("fk.thm1", FK, "implementation", "sec. 3.2, Theorem 1",
          "a model with an interpolated contingency table C* = lambda C1 + (1 - lambda) C2 has precision gain "
          "precG* = mu precG1 + (1 - mu) precG2 and recall gain recG* = mu recG1 + (1 - mu) recG2",
          "the gains of interpolated contingency tables (prspace.metrics) against mu-weighted gains of the endpoints",
          "check"),
    Claim("fk.thm2", FK, "implementation", "sec. 3.2, Theorem 2", "precG + beta^2 recG = (1 + beta^2) FG_beta",
          "prspace.metrics.fg_score against the gains and against (F_beta - pi) / ((1 - pi) F_beta)", "check"),
    Claim("fk.thm3", FK, "implementation", "sec. 3.3, Theorem 3",
          "if the operating points are chosen such that Delta is uniformly distributed in this range, then the "
          "expected FG1 can be calculated from the area under the Precision-Recall-Gain curve",
          "prspace.metrics.expected_fg1 (the closed form) against FG1 averaged over Delta uniform, integrated "
          "segment by segment along the PRG curve of prspace.metrics.prg_curve", "check"),
    Claim("fk.thm4", FK, "implementation", "sec. 3.4, Theorem 4",
          "these two classifiers have the same F_beta score if and only if beta^2 = -(1/prec1 - 1/prec2) / "
          "(1/rec1 - 1/rec2)",
          "the F-calibrated scores of prspace.metrics.prg_convex_hull against d = 1 / (beta^2 + 1) of each hull "
          "segment's end points, and F_beta of both points equal at that beta", "check"),
    Claim("fk.auprg_reference", FK, "implementation", "sec. 5",
          "To assist practitioners we have made R, Matlab and Java code to calculate AUPRG and PRG curves available",
          "prspace.metrics.auprg against the authors' Python code (PyPI pyprg, calc_auprg(create_prg_curve)) on this "
          "study's pooled predictions, every model of every task", "check"),
)

BY_ID: dict[str, Claim] = {c.claim_id: c for c in CLAIMS}
ROLES = ("primary", "implementation", "exploratory")


def primary_ids() -> tuple[str, ...]:
    """The primary claims, one family for the multiplicity control."""
    return tuple(c.claim_id for c in CLAIMS if c.role == "primary")


def by_construction(claim_id: str) -> str:
    """Why a primary claim cannot fail on data (it follows from Boyd et al.'s Theorem 1 by arithmetic, the
    registry's ``extra["by_construction"]``), or "" for a claim that can: such a claim's row checks the
    implementation, not a finding; it stays in its paper's Holm family (docs/verdicts.md)."""
    c = BY_ID.get(claim_id)
    return str(c.extra.get("by_construction", "")) if c is not None and c.role == "primary" else ""


def primary_level(alpha: float = PRIMARY_ALPHA) -> float:
    """Coverage of each primary claim's interval so that all hold together at ``1 - alpha``
    (Bonferroni over the :func:`primary_ids`)."""
    return 1.0 - alpha / len(primary_ids())


def claim(claim_id: str) -> Claim | None:
    """The registry's claim of that id (None for this project's exploratory rows)."""
    return BY_ID.get(claim_id)


# --- the decision scheme's margins and multiplicity (docs/verdicts.md, "One scheme") -------------------
#: The smallest effect that matters for a Boyd et al. direction claim (value 0, the claimed side
#: stated): 0.01 on the AUPR / AUCNPR scale. Boyd's tables print three decimals and the differences
#: the paper calls "sizable" are 0.05 and more (Table 3); 0.01 is a fifth of that, and below the
#: spread of AUPR over repeated cross-validation of one learner on the study's tasks.
DIRECTION_MARGIN = 0.01
#: Rows on another scale: the slope of the AUPR gap against the test set's pi (0.01 of AUPR over the
#: half unit of pi the downsampling moves, 0.02 per unit), a bias in units of the models' AUPR SD
#: (a tenth of the spread between the models), and section 4.1's share of tasks where averaging is
#: optimistic by more than DIRECTION_MARGIN (a share of tasks: READER_MARGIN["share"], one task in
#: twenty). ``boyd.sec4_3.aucnpr_less_variance`` is a difference of standard deviations, on the AUPR
#: scale of DIRECTION_MARGIN itself. Flach & Kull's "all significantly different": a share of tasks
#: (the excess of cross- over self-disagreement), READER_MARGIN["share"].
DIRECTION_MARGINS = {"boyd.sec4_3.gap_grows_with_pi": 0.02, "boyd.sec4_1.aucnpr_reduces_bias": 0.10,
                     "boyd.sec4_1.averaging_optimistic": READER_MARGIN["share"],
                     "fk.all_different": READER_MARGIN["share"]}
#: The family-wise error of each paper's primary claims (Holm over the paper's claims).
HOLM_ALPHA = 0.05
#: The per-claim interval shown beside the Holm one.
CLAIM_LEVEL = 0.95
#: Every primary verdict is also shown at these multiples of its own margin (table margin_sensitivity):
#: half and twice the smallest effect of interest, each on the claim's own scale.
SENSITIVITY_FACTORS = (0.5, 2.0)


def decision_margin(claim_id: str) -> float:
    """The margin of a primary claim's equivalence and difference tests: the registry's
    :attr:`Claim.margin` for a number, :data:`DIRECTION_MARGINS` (else :data:`DIRECTION_MARGIN`)
    for a claimed direction; NaN for a check or an unknown id."""
    c = BY_ID.get(claim_id)
    if c is None:
        return float("nan")
    if c.quantity == "direction":
        return float(DIRECTION_MARGINS.get(claim_id, DIRECTION_MARGIN))
    return c.margin


def decision_value(claim_id: str) -> float:
    """The value a primary claim's interval is compared with: the paper's number, or 0 for a
    claimed direction (the claimed side is :attr:`Claim.direction`)."""
    c = BY_ID.get(claim_id)
    if c is None:
        return float("nan")
    return 0.0 if c.quantity == "direction" else c.paper_value


def holm(p: list[float] | tuple[float, ...], alpha: float = HOLM_ALPHA) -> tuple[list[float], list[int]]:
    """Holm's (1979) step-down: the adjusted p-values ``max_{j <= i} min(1, (k - j + 1) p_(j))``
    and each hypothesis's multiplier (its interval's level is ``1 - alpha / multiplier``), in the
    input order; NaN p-values are left out (NaN, multiplier 0).

    The multiplier of the ``i``-th smallest p-value is Holm's ``k - i + 1`` for the hypotheses the
    step-down rejects (adjusted p at most ``alpha``), with tied p-values sharing the largest of their
    places' multipliers; every hypothesis it does not reject shares ``r``, the number not rejected
    (the level Strassburger and Bretz (2008, Stat Med 27:4914) give the bounds compatible with Holm's
    test for the hypotheses it keeps). So a claim's level changes only when a decision changes: with
    each place's own ``k - i + 1``, claims that no interval of the grid decides (p-values near 1)
    swapped places with the bootstrap's seed and their intervals moved between 95% and 97.5% (the
    default study at seed 1, 2026-11-26: 30 Monte Carlo errors). Each rejected hypothesis still has
    ``p <= alpha / multiplier``, and each kept one ``p > alpha / r``: the interval decides exactly
    where the test does."""
    idx = [i for i, x in enumerate(p) if x == x]
    order = sorted(idx, key=lambda i: p[i])
    k = len(order)
    adj, mult = [float("nan")] * len(p), [0] * len(p)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (k - rank) * float(p[i])))
        adj[i] = running
    kept = [i for i in order if adj[i] > alpha]
    first_place: dict[float, int] = {}
    for rank, i in enumerate(order):
        first_place.setdefault(float(p[i]), rank)
        mult[i] = len(kept) if adj[i] > alpha else k - first_place[float(p[i])]
    return adj, mult


def holm_carried_mc(adj: list[float] | tuple[float, ...], mc: list[float] | tuple[float, ...], *, alpha: float = HOLM_ALPHA,
                    k: float = 2.0) -> list[float]:
    """Each Holm-adjusted p-value's MC error carried down the step-down: Holm rejects a step only when it
    rejects every earlier one, so a step whose rejection is in doubt (its adjusted p within ``k`` MC errors
    of ``alpha``: :data:`prspace.verdicts.rule.BORDERLINE_MC`) leaves every later step in doubt too. A
    step's error is the largest of its own and that of every other step in doubt whose adjusted p is at
    most its own (an earlier step, or one tied with it); since adjusted p-values never fall down the steps,
    a later step then lies within ``k`` of those errors of ``alpha`` (or above it), and the rule reads it as
    borderline (or inconclusive), whatever its own error (issue 80.6)."""
    a, m = [float(x) for x in adj], [float(x) for x in mc]
    doubt = [x == x and e == e and e > 0 and abs(x - alpha) <= k * e for x, e in zip(a, m, strict=True)]
    return [max([m[i], *(m[j] for j in range(len(a)) if doubt[j] and j != i and a[j] <= a[i])]) if a[i] == a[i]
            else m[i] for i in range(len(a))]
