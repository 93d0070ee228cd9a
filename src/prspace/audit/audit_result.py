"""The audit as a function: :func:`audit` on a table, :func:`run_audit` on the canonical frame.

Both return an :class:`AuditResult`: the tables (metrics pooled and per fold, intervals, paired comparisons,
comparisons of all pairs, ranks, confidence sets for ranks, AUPR estimators, critical-difference tables across
tasks), the disagreement sentences, the findings and a headline, with :meth:`AuditResult.to_text`,
:meth:`~AuditResult.to_markdown` and :meth:`~AuditResult.to_html`.

One module of about 500 lines on purpose: the audit's two entry points (table and arrays), the
reading they share with ``prspace power`` and the result object they return are one contract; splitting
the result from its builders is left to the refactor of issue 43.
"""

from __future__ import annotations

import base64
import dataclasses
import html
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from tqdm.auto import tqdm

from prspace.audit.audit_record import AuditRecord
from prspace.audit.inference import audit_bands as curve_band
from prspace.audit.inference import audit_blocks, audit_cd, decision, grouping, tables, uncertainty
from prspace.audit.inference import audit_ranksets as ranksets
from prspace.audit.inference.audit_operating import operating_table
from prspace.audit.inference.audit_pairwise import pairwise_table
from prspace.audit.inference.bounds import bound_table
from prspace.audit.inference.tables import LABELS
from prspace.audit.intake import arrays, inputs, keys
from prspace.audit.intake.prevalence import _train_pi, parse_train_pi
from prspace.audit.intake.rows import check_row_ids_once, pairing_frame, shared_rows
from prspace.audit.intake.table_check import check_table
from prspace.audit.report import audit_sentences as sentences
from prspace.audit.report import findings as F
from prspace.audit.report import render
from prspace.audit.simulation.audit_power import METRICS, power_table
from prspace.core import memory
from prspace.core import registry as R
from prspace.core.defaults import N_BOOT
from prspace.core.errors import InputError
from prspace.core.output import figure_bytes
from prspace.stats.bands import CURVES, CurveBand
from prspace.stats.replicates import jackknife

if TYPE_CHECKING:
    from matplotlib.figure import Figure


class Headline(list):
    """The headline's lines: a list of str as before (iterable, indexable), printed as text (one line
    each) and shown as a list in a notebook."""

    def __str__(self) -> str:
        return "\n".join(self)

    def _repr_html_(self) -> str:
        return "<ul>" + "".join(f"<li>{html.escape(s)}</li>" for s in self) + "</ul>"


def _count(x: float) -> str:
    """A (weighted) count: an integer when it is one."""
    return f"{int(x)}" if float(x).is_integer() else f"{x:.4g}"


@dataclasses.dataclass
class AuditResult(AuditRecord):
    """Everything the audit found (:class:`~prspace.audit.audit_record.AuditRecord`), with its reports.

    In a notebook it shows itself compactly (:meth:`_repr_html_`): the headline, the pooled metrics
    with their intervals and the plausible-best sets per task; :meth:`to_html` is the whole report.
    """

    #: The columns :func:`audit` used for each role (None from :func:`run_audit` on a prepared frame).
    used: inputs.Columns | None = None

    def headline(self) -> Headline:
        """The few lines a reader must see first: a list of str that prints as text."""
        return Headline(render.headline(self))

    def _overview(self) -> str:
        d = self.data
        n_models, n_tasks = d["model"].nunique(), d["task"].nunique()
        boot = ("metrics only (no interval or test)" if self.metrics_only else
                f"{self.n_boot} bootstrap resamples" if self.n_boot else "no bootstrap")
        return (f"{len(d)} rows, {n_models} model(s), {n_tasks} task(s); positive class: {self.positive}; {boot}; "
                f"{sum(f.severity == 'error' for f in self.findings)} error(s), "
                f"{sum(f.severity == 'warning' for f in self.findings)} warning(s)")

    def __repr__(self) -> str:
        return f"<AuditResult: {self._overview()}>\nHeadline:\n{self.headline()}"

    def _repr_html_(self) -> str:
        """The audit in a notebook: overview, headline, per task the pooled metrics (intervals where
        calibrated) and the plausible-best sets; the findings, every table and figure are in
        :meth:`to_html` and the attributes."""
        e = html.escape
        parts = [f"<div class='prspace-audit'><p><b>prspace audit</b>: {e(self._overview())}</p>",
                 "<p><b>Headline</b></p>", self.headline()._repr_html_()]
        multi = self.pooled["task"].nunique() > 1
        for task in sorted(self.pooled["task"].unique()):
            g = self.pooled[self.pooled["task"] == task].iloc[0]
            where = f"Task {task}: " if multi else ""
            note = ("(point estimates only)" if self.metrics_only else
                    f"[{self.confidence:.0%} interval where calibrated]")
            parts.append(f"<p><b>{e(where)}pooled metrics</b> {note}; "
                         f"pi = {g['pi']:.3g} ({_count(g['n_pos'])} positives, {_count(g['n_neg'])} negatives), "
                         f"AUPR_MIN = {g['aupr_min']:.3g}</p>")
            parts.append(render.pooled_frame(self, task).to_html(index=False, border=0, escape=True))
            best = ranksets.plausible_best_lines(self.rank_sets, task)
            if best:
                parts.append(f"<p><b>Plausible best</b> ({self.confidence:.0%} confidence sets for ranks):</p><ul>"
                             + "".join(f"<li>{e(b)}</li>" for b in best) + "</ul>")
        png = self.__dict__.get("_curves_png")
        if png is None:
            png = self.__dict__["_curves_png"] = figure_bytes(self.plot(), "png", 72)
        parts.append("<p><b>Curves</b> (ROC, PR, PRG; <code>result.plot()</code>):</p><img style='max-width:100%' "
                     f"alt='ROC, PR and PRG curves' src='data:image/png;base64,{base64.b64encode(png).decode('ascii')}'/>")
        parts.append("<p>Findings: <code>result.findings</code>; the whole report: <code>result.to_html()</code>.</p>")
        return "".join(parts) + "</div>"

    def plot(self) -> Figure:
        """The ROC, PR and PRG curves of the models, one row of panels per task (``curves.png`` of the report): a
        matplotlib Figure, shown by a notebook, saved with ``.savefig(path)``."""
        from prspace.audit.report import plot

        return plot.curves_figure(self)

    def to_text(self, source: str = "") -> str:
        return render.format_text(self, source)

    def to_markdown(self, source: str = "", figures: dict[str, str] | None = None) -> str:
        return render.format_markdown(self, source, figures)

    def figures(self) -> dict[str, bytes]:
        """The report's figures as PNG bytes: ``curves`` and ``intervals`` (one row per task), and
        ``bands`` (the top models' ROC, PR and PRG bands) unless the audit ran without a bootstrap;
        ``cd_diagram`` when the audit has critical-difference tables (:attr:`cd`)."""
        from prspace.audit.report import plot

        ready = self.__dict__.pop("_drawn", {})  # drawn ahead, while the bands were computed (:meth:`draw_ahead`)

        def png(draw: Callable[[], Figure]) -> bytes:  # at the report's resolution; each figure's memory handed back
            content = figure_bytes(draw(), "png", plot.DPI)
            memory.release()
            return content

        out = {name: ready[name] if name in ready else png(draw) for name, draw in self._plain_figures(plot).items()}
        if self.n_boot:
            bands = self.shown_bands()
            out["bands"] = png(lambda: plot.bands_figure(self, bands))
        if self.cd:
            from prspace.figures.cd_figure import cd_figure

            out[R.FIGURE_CD_DIAGRAM.name] = png(lambda: cd_figure(
                self.cd[R.CD_RANKS.name], self.cd[R.CD_CLIQUES.name], self.cd[R.CD_TESTS.name], labels=LABELS))
        return out

    def _plain_figures(self, plot) -> dict[str, Callable[[], Figure]]:  # the figures that need no bands
        return {"curves": lambda: plot.curves_figure(self), "intervals": lambda: plot.intervals_figure(self)}

    def draw_ahead(self) -> None:
        """Draw the figures that need no bands now, for the next :meth:`figures` only (``prspace audit --out`` draws
        them while another thread computes the bands)."""
        from prspace.audit.report import plot

        self.__dict__["_drawn"] = {name: figure_bytes(draw(), "png", plot.DPI)
                                   for name, draw in self._plain_figures(plot).items()}

    def bands(self, task: str, model: str, curve: str = "pr", *, n_resamples: int | None = None,
              level: float | None = None, seed: int | None = None) -> CurveBand:
        """Pointwise and simultaneous bootstrap band of one model's ``curve`` ("roc", "pr" or "prg")
        on ``task`` (:mod:`prspace.stats.bands`; default the audit's resamples, confidence and seed)::

            b = result.bands("user-example", "random_forest", "pr")
            b.grid, b.estimate, b.lo, b.hi, b.sim_lo, b.sim_hi
        """
        if curve not in CURVES:
            raise InputError(f"unknown curve {curve!r}; choose one of {', '.join(CURVES)}")
        seed = self.seed if seed is None else int(seed)
        key = (str(task), str(model), n_resamples, level, seed)
        cache = self.__dict__.setdefault("_bands", {})
        if key not in cache:
            cache[key] = curve_band.model_bands(self, task, model, n_resamples=n_resamples, level=level, seed=seed)
        return cache[key][curve]

    def shown_bands(self) -> dict[tuple[str, str], dict[str, CurveBand]]:
        """The bands ``bands.png`` draws and ``bands.csv`` holds (:func:`prspace.audit.inference.audit_bands.shown`);
        a model whose rows cannot be resampled (one class with positive weight) is left out."""
        out = {}
        for task, models in curve_band.shown(self):
            for model in models:
                try:
                    out[(task, model)] = {c: self.bands(task, model, c) for c in CURVES}
                except InputError:
                    continue
        return out

    def band_table(self) -> pd.DataFrame:
        """``bands.csv``: the bands of :meth:`shown_bands`, one row per task, model, curve and grid point."""
        sizes = {t: (float(g["n_pos"].iloc[0]), float(g["n_pos"].iloc[0] + g["n_neg"].iloc[0]), self.n_groups(t))
                 for t, g in self.pooled.groupby("task")}
        return curve_band.band_table(self.shown_bands(), sizes)

    def power(self, n_pos: list[int] | None = None, n_neg: list[int] | None = None, *,
              metrics: tuple[str, ...] | None = None, target: float = 0.8, sims: int = 200,
              n_groups: list[int] | None = None) -> pd.DataFrame:
        """Can the test set tell?  Per task and metric (AUROC, AP, AUPR, AUPRG), best model against
        runner-up: power at the planned sizes (default the task's), the smallest difference detected
        with power ``target``, the positives needed (:func:`prspace.audit.simulation.audit_power.power_table`); audited
        with ``group_col``: whole groups, sizes ``n_groups``, the groups needed."""
        return power_table(pairing_frame(self.data)[0], n_pos=n_pos, n_neg=n_neg, metrics=tuple(metrics or METRICS),
                           alpha=1.0 - self.confidence, target=target, sims=sims, seed=self.seed, n_groups=n_groups)

    def operating_points(self, *, max_fpr=(), specificity=(), recall=(), n_resamples: int | None = None) -> pd.DataFrame:
        """Partial AUROC up to each ``max_fpr`` (McClish-standardised: scikit-learn's ``roc_auc_score(max_fpr=)``),
        sensitivity at each ``specificity`` and precision at each ``recall``, per task and model, with percentile
        bootstrap intervals at the audit's confidence (:func:`prspace.audit.inference.audit_operating.operating_table`;
        ``n_resamples`` default the audit's, 1000 without one).  The threshold table: :func:`prspace.metrics.coords`."""
        n = n_resamples if n_resamples is not None else (self.n_boot or N_BOOT)
        return operating_table(self.data, max_fpr=max_fpr, specificity=specificity, recall=recall, n_resamples=n,
                               confidence=self.confidence, seed=self.seed)

    def to_html(self, source: str = "", figures: dict[str, bytes] | None = None) -> str:
        """One self-contained page; the figures are drawn (and embedded) unless given."""
        return render.format_html(self, source, self.figures() if figures is None else figures)


def _typed(table: pd.DataFrame, data: pd.DataFrame) -> pd.DataFrame:
    """Counts as integers when every weight is a whole number; folds as integers when every fold is one."""
    table = table.copy()
    whole = bool(((data["weight"] % 1) == 0).all())
    for col in ("n_pos", "n_neg"):
        if whole and col in table.columns and table[col].notna().all():
            table[col] = table[col].astype("int64")
    if "fold" in table.columns and len(table):
        text = table["fold"].astype(str)
        if text.str.fullmatch(r"-?\d{1,18}").all():
            table["fold"] = text.astype("int64")
    return table


def _bar(enabled: bool, total: int, desc: str) -> tqdm:
    """A tqdm bar on stderr while a long stage runs (the resamples of the bootstrap), shown when the audit
    reports progress (``progress=``: the command line's ``--progress``, by default when stderr is a terminal)
    and stderr is a terminal (a log or a captured stderr gets the stage lines only, as
    :mod:`prspace.local.crossval`'s bars), gone when done; else a disabled one."""
    return tqdm(total=total, desc=f"prspace audit: {desc}", unit="resample", file=sys.stderr, leave=False,
                disable=not (enabled and sys.stderr.isatty()), dynamic_ncols=True, mininterval=0.5)


@keys.memo()  # the key columns factorised once for all stages
def run_audit(data: pd.DataFrame, positive: str = "", *, train_pi: float | dict[str, float] | None = None,
              skew_tolerance: float = 0.02, downsample_ratio: float = 1.5, n_boot: int = N_BOOT,
              confidence: float = 0.95, seed: int = 0, duplicates: dict | None = None,
              columns: list[str] | None = None, progress: Callable[[str], None] | None = None,
              groupings: dict[str, list[str]] | None = None, group_col: str | None = None,
              group_candidates: list[str] | None = None, metrics_only: bool = False) -> AuditResult:
    """Audit the canonical frame of :func:`prspace.audit.intake.inputs.prepare`.

    ``train_pi``: the positive class's prevalence in the training data or population before
    any downsampling (one number, or task -> number).  ``n_boot`` bootstrap resamples (0:
    DeLong and Boyd's intervals only), ``confidence`` level, ``seed`` of the resampling.
    With row ids, a task whose models lack a few of each other's rows is audited on the rows
    every model shares (:func:`prspace.audit.intake.rows.shared_rows`; said in the findings).
    ``columns``: the lines that account for the input's columns (shown first in the reports);
    ``progress``: called with a short text as each stage starts (the command line prints it on stderr);
    ``groupings``: columns not used that split every model's rows alike (``pooled-groups``); ``group_col``: the
    column whose groups ``data["group"]`` holds (resampled whole, :mod:`prspace.audit.inference.grouping`);
    ``group_candidates``: columns not used that look like one (``group-column`` warning); ``metrics_only``
    (``--metrics-only``): the point estimates alone (no DeLong, jackknife, bootstrap, paired test or rank set).
    """
    say = progress or (lambda _text: None)
    if (group_col is not None) != ("group" in data.columns):
        raise InputError("group_col= goes with a 'group' column of the frame: use audit(..., group_col=...)")
    if not 0 < confidence < 1:
        raise InputError(f"--confidence must lie strictly between 0 and 1, got {confidence:g}")
    data, dropped = shared_rows(data)
    memory.release()  # each stage's freed arrays handed back before the next one's are made
    train = _train_pi(train_pi, data["task"].unique())
    n_models, n_tasks = data["model"].nunique(), data["task"].nunique()
    say(f"metrics of {n_models} model(s) on {n_tasks} task(s), {len(data):,} rows")
    ties = tables.tie_codes(data)  # each model's tie groups, found once for the three tables (unit weights)
    pooled = _typed(tables.pooled_metrics(data, ties), data)
    memory.release()
    curve_band.start_ahead(data, pooled, n_boot=0 if metrics_only else n_boot, confidence=confidence, seed=seed)
    folds = _typed(tables.fold_metrics(data, ties), data)
    memory.release()
    summary = tables.fold_summary(folds) if len(folds) else pd.DataFrame()
    ranks, est = tables.rank_table(pooled), tables.estimator_table(data, ties)
    del ties
    paired_rows, own = pairing_frame(data)  # models with their own folds on the same rows: paired by row id
    memory.release()  # the tables' freed arrays, before the resampling blocks are cut
    # --metrics-only: no resampling block (no tie groups found), every interval, paired test and rank set table empty
    blocks, comparable, paired = audit_blocks.blocks(paired_rows, pairing_only=metrics_only)
    n_boot = 0 if metrics_only else n_boot
    keys.forget()  # the remembered codes over every row (about 20 MB at 10^6 x 3): the stages left barely read them
    memory.release()
    reps: dict = {}
    if n_boot:
        say(f"bootstrap: {n_boot} resamples")
    with _bar(progress is not None and n_boot > 0, n_boot * len(blocks), "bootstrap") as bar:
        iv, cmp = uncertainty.uncertainty(blocks, pooled, n_boot=n_boot, confidence=confidence, seed=seed,
                                          replicates=reps, tick=bar.update)
    if not metrics_only:
        say("jackknife and all pairs compared")
    jacks = {id(b): jackknife(audit_blocks.jack_block(b), rng=np.random.default_rng(seed)) for b in blocks if b.paired}
    binned = [b.task for b in blocks if audit_blocks.jack_block(b) is not b]
    pairs = pairwise_table(blocks, pooled, reps, jacks, confidence=confidence, seed=seed)
    if not metrics_only:
        say("confidence sets for ranks")
    cmp = decision.decided(cmp, pairs)
    rank_sets = ranksets.rank_set_table(blocks, pooled, reps, jacks, confidence=confidence, pairwise=pairs)
    del blocks, paired_rows, reps, jacks  # the resampling's arrays (each model's scores and tie groups): read no more
    memory.release()
    said = sentences.disagreement_sentences(ranks, pooled, summary, comparisons=cmp, comparable=comparable)
    say("findings and what the AUROCs allow")
    ctx = F.Context(data, pooled, folds, est, comparable, duplicates or {"n": 0}, train, cmp, skew_tolerance,
                    downsample_ratio, paired=paired, dropped=dropped, own_folds=own,
                    intervals=iv, groupings=groupings, group_candidates=group_candidates)
    return AuditResult(data, positive, pooled, folds, summary, ranks, est, iv, cmp, said, F.find_issues(ctx),
                       comparable, train, n_boot, confidence, paired, rank_sets=rank_sets, pairwise=pairs,
                       cd=audit_cd.cd_tables(pooled, seed=seed), auroc_bounds=bound_table(pooled, data), seed=seed,
                       columns=[*(columns or []), *grouping.resampling_lines(data, group_col),
                                *audit_blocks.binned_lines(binned, n_tasks > 1)], dropped=dropped,
                       own_folds=own, groupings=groupings, group_col=group_col, group_candidates=group_candidates,
                       metrics_only=metrics_only)


class Handover:
    """A table handed to :func:`audit` by its only holder (:func:`prspace.audit.audit_files.audit_file`, which read it):
    :func:`read_frame` takes it out, so that once a wide table is made long nothing refers to it and its memory
    is freed (240 MB at 6 x 10^6 rows x 3 models, held through the whole audit before: the caller's call kept it)."""

    def __init__(self, table: pd.DataFrame) -> None:
        self.table: pd.DataFrame | None = table

    def take(self) -> pd.DataFrame:
        table, self.table = self.table, None
        if table is None:
            raise RuntimeError("a Handover's table is taken once")
        return table


def read_frame(frame: pd.DataFrame | Handover, given: dict[str, str | None], *, ignore: str | Sequence[str] | None = None,
               score_cols: str | Sequence[str] | None = None, pos_label: str | None = None,
               train_pi: float | dict[str, float] | str | None = None, source: str | None = None,
               group_col: str | None = None, with_candidates: bool = False):
    """The table's columns mapped as the audit maps them (layouts, ``score_cols``, weights, every other
    column accounted for) and its canonical frame: ``(frame, columns, accounting, data, positive,
    train_pi)``; ``given``: role -> column (None: found by name).  Every :class:`InputError` is
    prefixed with ``source`` (the file's name) when given.  Shared by :func:`audit` and ``prspace power``;
    ``frame`` a :class:`Handover`: its table is taken out (and freed once made long)."""
    if isinstance(frame, Handover):
        frame = frame.take()
    try:
        if group_col is not None:
            if group_col not in frame.columns:
                raise InputError(f"--group-col {group_col!r} is not a column of the table; name the column that "
                                 "holds each row's patient, subject or site")
            ignore = [*([ignore] if isinstance(ignore, str) else (ignore or [])), group_col]
        frame, cols, acc = check_table(frame, given, ignore=ignore, score_cols=score_cols, train_pi=train_pi)
        memory.release()  # a wide table made long: its freed arrays handed back before the canonical frame is made
        data, positive = inputs.prepare(frame, cols, pos_label=pos_label,
                                        detect_model=given.get("model") is None and not score_cols)
        check_row_ids_once(data, cols.row)
        pi = parse_train_pi(train_pi, frame, data) if isinstance(train_pi, str) else train_pi
        candidates: list[str] = []
        if group_col is not None:
            data = grouping.attach_groups(frame, data, group_col)
            acc.roles["group"] = repr(group_col)
            acc.unused.pop(group_col, None)
        else:
            candidates = grouping.group_candidates(frame, data, [c for c, why in acc.unused.items() if why == ""])
            for c in candidates:
                acc.unused[c] = f"repeats its values within every model: --group-col {c} resamples its groups whole"
    except InputError as exc:
        if source is None:
            raise
        raise InputError(f"{source}: {exc}") from None
    if with_candidates:
        return frame, cols, acc, data, positive, pi, candidates
    return frame, cols, acc, data, positive, pi


def _one(short, long, name: str):
    """The value of an option given by its short name (``task=``) or its command line's (``task_col=``)."""
    if short is not None and long is not None and short != long:
        other = "bootstrap" if name == "n_boot" else f"{name}_col"
        raise InputError(f"{name}= and {other}= name one option and disagree ({short!r} vs {long!r}); give one of them")
    return long if long is not None else short


def audit(frame: pd.DataFrame | ArrayLike, scores: Mapping[str, ArrayLike] | pd.DataFrame | None = None, *,
          sample_weight: ArrayLike | None = None, folds: ArrayLike | None = None, model: str | None = None, label: str | None = None, score: str | None = None,
          fold: str | None = None, task: str | None = None, weight: str | None = None, repeat: str | None = None,
          row: str | None = None, score_cols: str | Sequence[str] | None = None,
          ignore: str | Sequence[str] | None = None, pos_label: str | None = None,
          train_pi: float | dict[str, float] | str | None = None, skew_tolerance: float = 0.02,
          downsample_ratio: float = 1.5, n_boot: int = N_BOOT, confidence: float = 0.95, seed: int = 0,
          progress: Callable[[str], None] | None = None, source: str | None = None,
          group_col: str | None = None, groups: ArrayLike | None = None, metrics_only: bool = False,
          model_col: str | None = None, label_col: str | None = None, score_col: str | None = None,
          fold_col: str | None = None, task_col: str | None = None, weight_col: str | None = None,
          repeat_col: str | None = None, row_col: str | None = None, ignore_col: str | Sequence[str] | None = None,
          bootstrap: int | None = None) -> AuditResult:
    """Audit a table of scored test rows (one row per model and test example), or arrays.

    Two forms, told apart by the first argument:

    * ``audit(frame, ...)``: ``frame`` a pandas DataFrame, the table form below;
    * ``audit(y_true, scores={"name": array, ...}, sample_weight=None, folds=None, ...)``: the test
      set's labels and each model's scores on the same rows in the same order (a dict, or a
      DataFrame with one column per model), optional row weights and fold labels
      (:func:`prspace.audit.intake.arrays.frame_from_arrays`); the table's column options do not apply.
      Every other option is the same.

    Columns are found by name unless given (see :func:`prspace.audit.intake.inputs.resolve_columns`);
    every other column is checked (:func:`prspace.audit.intake.columns.account`: one that looks like a role
    is an error unless listed in ``ignore``); ``score_cols``: a wide table, one score column per
    model (:func:`prspace.audit.intake.table_check.to_long`).  ``train_pi``: a number, task -> number, or text
    as ``--train-pi`` takes it (a number, or the name of the column holding it: :func:`parse_train_pi`).
    Every option is also accepted under its command line's name (``prspace audit --help``): ``model_col=`` ...
    ``row_col=`` (= ``model=`` ... ``row=``), ``ignore_col=`` (= ``ignore=``), ``bootstrap=`` (= ``n_boot=``),
    ``group_col=``, ``score_cols=``, ``metrics_only=``, ``pos_label=``, ``train_pi=`` and the others as they are.
    ``progress``: see :func:`run_audit`; ``source``: the file the table came from, put in front of
    every message about the table.  ``group_col``: the column naming each row's patient, subject or site
    (``--group-col``): every interval, paired test and plausible-best set then resamples whole groups
    (:mod:`prspace.audit.inference.grouping`); without it, a column whose values repeat within every model is
    offered as one in a warning; with arrays, ``groups=`` (one group per test row) does the same.  The columns used are :attr:`AuditResult.used`.
    Raises :class:`~prspace.core.errors.InputError` on bad input.  Example::

        from prspace.audit import audit
        result = audit(df, label="diagnosis", pos_label="malignant")
        print(result.to_text()); html = result.to_html()
        result = audit(y_test, scores={"logreg": p_lr, "forest": p_rf})
        result  # in a notebook: the headline, metrics and plausible-best sets (AuditResult._repr_html_)
    """
    # the command line's names (``task_col=`` as ``--task-col``, ``bootstrap=`` as ``--bootstrap``) and the earlier
    # short ones (``task=``, ``n_boot=``) are one option each: given twice, they must agree
    model, label, score, fold, task, weight, repeat, row, ignore = (
        _one(short, long, name) for short, long, name in (
            (model, model_col, "model"), (label, label_col, "label"), (score, score_col, "score"),
            (fold, fold_col, "fold"), (task, task_col, "task"), (weight, weight_col, "weight"),
            (repeat, repeat_col, "repeat"), (row, row_col, "row"), (ignore, ignore_col, "ignore")))
    if bootstrap is not None:
        n_boot = _one(None if n_boot == N_BOOT else n_boot, bootstrap, "n_boot")
    table_form = isinstance(frame, (pd.DataFrame, Handover))  # a Handover: a table (audit_file's), taken once read
    if scores is not None or not table_form:
        if table_form:
            raise InputError("scores= goes with arrays: audit(y_true, scores={...}); with a DataFrame, name its "
                             "score column (score=) or its score columns (score_cols=) instead")
        if scores is None:
            raise InputError(f"audit() takes a pandas DataFrame of scored rows, or y_true with scores={{'name': "
                             f"scores, ...}}; got a {type(frame).__name__} and no scores=")
        long, roles = arrays.frame_from_arrays(frame, scores, sample_weight=sample_weight, folds=folds, model=model,
                                               label=label, score=score, fold=fold, task=task, weight=weight,
                                               repeat=repeat, row=row, score_cols=score_cols, ignore=ignore)
        if group_col is not None:
            raise InputError("group_col= names a column of a table; with arrays pass groups= (one group per test row)")
        names = list(dict.fromkeys(long[arrays.MODEL]))
        if groups is not None:
            long["groups"] = np.tile(arrays._vector("groups", groups, len(long) // len(names)), len(names))
        result = audit(long, **roles, pos_label=pos_label, train_pi=train_pi, skew_tolerance=skew_tolerance,
                       downsample_ratio=downsample_ratio, n_boot=n_boot, confidence=confidence, seed=seed,
                       progress=progress, source=source, group_col="groups" if groups is not None else None,
                       metrics_only=metrics_only)
        unit = [c for c in result.columns or [] if c.startswith("resampling unit")]
        result.columns = arrays.describe(len(long) // len(names), names, weighted=sample_weight is not None,
                                         folds=folds is not None) + unit
        return result
    if groups is not None:
        raise InputError("groups= goes with arrays: audit(y_true, scores={...}, groups=...); in a DataFrame name the "
                         "group column with group_col=")
    if sample_weight is not None or folds is not None:
        raise InputError("sample_weight= and folds= go with arrays: audit(y_true, scores={...}); in a DataFrame "
                         "name the weight and fold columns with weight= and fold=")
    given = {"model": model, "label": label, "score": score, "fold": fold, "task": task, "weight": weight,
             "repeat": repeat, "row": row}
    if group_col == "":
        group_col = None
    frame, cols, acc, data, positive, pi, candidates = read_frame(
        frame, given, ignore=ignore, score_cols=score_cols, pos_label=pos_label, train_pi=train_pi, source=source,
        group_col=group_col, with_candidates=True)
    # with row ids, prepare has already refused any repeated (task, model, repeat, fold, row id): no copies
    duplicates = {"n": 0} if cols.row else inputs.duplicate_rows(frame, cols)
    del frame  # the long table: the audit reads only the canonical frame from here on
    memory.release()  # the input stage's freed arrays, before the audit's own
    result = run_audit(data, positive, train_pi=pi, skew_tolerance=skew_tolerance,
                       downsample_ratio=downsample_ratio, n_boot=n_boot, confidence=confidence, seed=seed,
                       duplicates=duplicates, columns=acc.lines(), progress=progress,
                       groupings=acc.groupings, group_col=group_col, group_candidates=candidates,
                       metrics_only=metrics_only)
    result.used = cols
    return result
