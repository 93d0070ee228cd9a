"""The audit as a function: :func:`audit` on a table or arrays, :func:`run_audit` on the canonical frame.

Both return an :class:`~prspace.audit.audit_result.result.AuditResult`. :func:`audit` takes one keyword per
option, the command line's name (``label_col=`` as ``--label-col``); the resample count is ``n_boot`` (the
command line's ``--bootstrap``, mapped once in :mod:`prspace.cli.audit`). The former spellings (``label=``,
``bootstrap=``, ...: :data:`RENAMED`) are still accepted with a :class:`FutureWarning` naming the new one;
given beside the new one, they are an error whatever the two values (issue 79). :func:`read_frame` is
the reading :func:`audit` shares with ``prspace power``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from tqdm.auto import tqdm

from prspace.audit.audit_result.reading import Handover, read_frame
from prspace.audit.audit_result.result import AuditResult
from prspace.audit.inference import audit_bands as curve_band
from prspace.audit.inference import audit_blocks, audit_cd, decision, grouping, tables, uncertainty
from prspace.audit.inference import audit_ranksets as ranksets
from prspace.audit.inference.audit_pairwise import pairwise_table
from prspace.audit.inference.bounds import bound_table
from prspace.audit.intake import arrays, inputs, keys
from prspace.audit.intake.prevalence import _train_pi
from prspace.audit.intake.rows import pairing_frame, shared_rows
from prspace.audit.report import audit_sentences as sentences
from prspace.audit.report import findings as F
from prspace.core import memory
from prspace.core.defaults import renamed_keyword, resolve_n_boot
from prspace.core.errors import InputError
from prspace.stats.replicates import jackknife

__all__ = ["RENAMED", "Handover", "audit", "read_frame", "run_audit"]

#: The former keywords of :func:`audit` (deprecated) -> the keyword that replaced each: the command line's name.
RENAMED = {"model": "model_col", "label": "label_col", "score": "score_col", "fold": "fold_col", "task": "task_col",
           "weight": "weight_col", "repeat": "repeat_col", "row": "row_col", "ignore": "ignore_col",
           "bootstrap": "n_boot"}
#: The roles of the table's columns, each :func:`audit`'s ``<role>_col`` keyword.
ROLES = ("model", "label", "score", "fold", "task", "weight", "repeat", "row")


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
              skew_tolerance: float = 0.02, downsample_ratio: float = 1.5, n_boot: int | None = None,
              confidence: float = 0.95, seed: int = 0, duplicates: dict | None = None,
              columns: list[str] | None = None, progress: Callable[[str], None] | None = None,
              groupings: dict[str, list[str]] | None = None, group_col: str | None = None,
              group_candidates: list[str] | None = None, metrics_only: bool = False,
              bands_ahead: bool = False) -> AuditResult:
    """Audit the canonical frame of :func:`prspace.audit.intake.inputs.prepare`.

    With row ids, a task whose models lack a few of each other's rows is audited on the rows every model
    shares (:func:`prspace.audit.intake.rows.shared_rows`; said in the findings).

    Parameters
    ----------
    data : pandas.DataFrame
        The canonical frame (``task``, ``model``, ``y``, ``score``, ``weight``, ``fold``, ...).
    positive : str, default ""
        How the positive class was told (shown in the reports).
    train_pi : float or dict of str to float, optional
        The positive class's prevalence in the training data or population before any downsampling
        (one number, or task -> number).
    skew_tolerance : float, default 0.02
        Folds' or tasks' AUPR_MIN differing by more than this are flagged.
    downsample_ratio : float, default 1.5
        Test odds of a positive at least this many times the training odds are flagged.
    n_boot : int, optional
        Bootstrap resamples (0: no bootstrap; DeLong's, the jackknife's and Boyd's intervals remain);
        None: :data:`prspace.core.defaults.N_BOOT`.
    confidence : float, default 0.95
        Level of the intervals, tests and rank sets.
    seed : int, default 0
        Seed of the resampling (and of the curve bands).
    duplicates : dict, optional
        The input's duplicated rows, as :func:`prspace.audit.intake.inputs.duplicate_rows` counts them.
    columns : list of str, optional
        The lines that account for the input's columns (shown first in the reports).
    progress : callable, optional
        Called with a short text as each stage starts (the command line prints it on stderr).
    groupings : dict of str to list of str, optional
        Columns not used that split every model's rows alike (``pooled-groups``).
    group_col : str, optional
        The column whose groups ``data["group"]`` holds (resampled whole,
        :mod:`prspace.audit.inference.grouping`).
    group_candidates : list of str, optional
        Columns not used that look like one (``group-column`` warning).
    metrics_only : bool, default False
        The point estimates alone (no DeLong, jackknife, bootstrap, paired test or rank set).
    bands_ahead : bool, default False
        Compute the curve bands of the models the report draws in a second thread while the intervals
        are computed (``prspace audit --out``); they travel as the result's ``bands_ahead``.

    Returns
    -------
    AuditResult
        Everything the audit found.

    Raises
    ------
    prspace.core.errors.InputError
        A ``group_col`` without a ``group`` column (or the reverse), or a confidence outside (0, 1).

    See Also
    --------
    audit : The audit of a table or arrays, which prepares the frame and calls this.

    Examples
    --------
    >>> import numpy as np
    >>> from prspace.audit import audit
    >>> from prspace.audit.audit_result import run_audit
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(200) < 0.3
    >>> first = audit(y, scores={"a": y + rng.normal(size=200), "b": rng.normal(size=200)}, n_boot=0)
    >>> again = run_audit(first.data, first.positive, n_boot=0)
    >>> again.pooled["auroc"].equals(first.pooled["auroc"])
    True
    """
    n_boot = resolve_n_boot(n_boot)
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
    ahead = curve_band.start_ahead(data, pooled, n_boot=0 if metrics_only or not bands_ahead else n_boot,
                                   confidence=confidence, seed=seed)
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
                       metrics_only=metrics_only, bands_ahead=ahead)


def _renamed(given: dict[str, Any], former: dict[str, Any]) -> None:
    """``given`` (keyword -> value) with each former keyword's value moved to its new keyword (:data:`RENAMED`):
    a :class:`FutureWarning` naming the new one; both given is an error (:func:`prspace.core.defaults.renamed_keyword`)."""
    unknown = sorted(set(former) - set(RENAMED))
    if unknown:
        raise TypeError(f"audit() got an unexpected keyword argument {unknown[0]!r}")
    for old, value in former.items():
        new = RENAMED[old]
        given[new] = renamed_keyword(given[new], value, new_name=new, old_name=old, where="audit()", stacklevel=4)


def audit(frame: pd.DataFrame | ArrayLike, scores: Mapping[str, ArrayLike] | pd.DataFrame | None = None, *,
          sample_weight: ArrayLike | None = None, folds: ArrayLike | None = None, groups: ArrayLike | None = None,
          model_col: str | None = None, label_col: str | None = None, score_col: str | None = None,
          fold_col: str | None = None, task_col: str | None = None, weight_col: str | None = None,
          repeat_col: str | None = None, row_col: str | None = None, group_col: str | None = None,
          score_cols: str | Sequence[str] | None = None, ignore_col: str | Sequence[str] | None = None,
          pos_label: str | None = None, train_pi: float | dict[str, float] | str | None = None,
          skew_tolerance: float = 0.02, downsample_ratio: float = 1.5, n_boot: int | None = None,
          metrics_only: bool = False, confidence: float = 0.95, seed: int = 0,
          progress: Callable[[str], None] | None = None, source: str | None = None, bands_ahead: bool = False,
          **former: Any) -> AuditResult:
    """Audit a table of scored test rows (one row per model and test example), or arrays.

    Two forms, told apart by the first argument: ``audit(frame, ...)``, ``frame`` a pandas DataFrame;
    or ``audit(y_true, scores={"name": array, ...}, sample_weight=None, folds=None, groups=None, ...)``,
    the test set's labels and each model's scores on the same rows in the same order
    (:func:`prspace.audit.intake.arrays.frame_from_arrays`), where the table's column options do not
    apply. Every keyword is the command line's option of the same name (``prspace audit --help``:
    ``label_col=`` is ``--label-col``), except ``n_boot=``, which is ``--bootstrap``.
    Columns are found by name unless given (:func:`prspace.audit.intake.inputs.resolve_columns`); every
    other column is checked (:func:`prspace.audit.intake.columns.account`: one that looks like a role is
    an error unless listed in ``ignore_col``).

    Parameters
    ----------
    frame : pandas.DataFrame or array_like
        The scored rows; or ``y_true``, the test set's labels, with ``scores=``.
    scores : dict of str to array_like, or pandas.DataFrame, optional
        With ``y_true``: each model's scores (larger = more positive), by name, or one column per model.
    sample_weight, folds, groups : array_like, optional
        With ``y_true``: each test row's weight, fold and group (patient, subject or site).
    model_col, label_col, score_col, fold_col, task_col, weight_col, repeat_col, row_col : str, optional
        The column holding each role (``""``: none); default found by name.
    group_col : str, optional
        The column naming each row's patient, subject or site: every interval, paired test and
        plausible-best set then resamples whole groups (:mod:`prspace.audit.inference.grouping`).
    score_cols : str or sequence of str, optional
        A wide table: one score column per model (``"all"``: every numeric column not named like a role).
    ignore_col : str or sequence of str, optional
        Columns accepted as unused although they look like a role.
    pos_label : str, optional
        The label value of the positive class (default: 1 or True for 0/1, -1/1 and boolean labels).
    train_pi : float, dict of str to float, or str, optional
        The positive class's prevalence before any downsampling: a number, task -> number, or as
        ``--train-pi`` takes it (a number, or the name of the column holding it: :func:`parse_train_pi`).
    skew_tolerance : float, default 0.02
        Folds' or tasks' AUPR_MIN differing by more than this are flagged.
    downsample_ratio : float, default 1.5
        Test odds of a positive at least this many times the training odds are flagged.
    n_boot : int, optional
        Bootstrap resamples (``--bootstrap``; 0: none, DeLong's, the jackknife's and Boyd's intervals
        remain); default :data:`prspace.core.defaults.N_BOOT`.
    metrics_only : bool, default False
        The point estimates alone: no interval, paired test or plausible-best set.
    confidence : float, default 0.95
        Level of the intervals, tests and rank sets.
    seed : int, default 0
        Seed of the resampling and of the curve bands.
    progress : callable, optional
        Called with a short text as each stage starts (:func:`run_audit`).
    source : str, optional
        The file the table came from, put in front of every message about the table.
    bands_ahead : bool, default False
        Compute the bands the report draws in a second thread meanwhile (``prspace audit --out``).
    **former
        The former keywords, deprecated (:data:`RENAMED`: ``model=`` ... ``row=``, ``ignore=``,
        ``bootstrap=``): accepted with a :class:`FutureWarning` naming the new keyword.

    Returns
    -------
    AuditResult
        Everything the audit found; the columns used are its ``used``.

    Raises
    ------
    prspace.core.errors.InputError
        Bad input (one message naming the problem and the fix), or a former keyword given beside
        its new one (whatever the two values).
    TypeError
        An unknown keyword.

    See Also
    --------
    run_audit : The audit of a frame already prepared.
    AuditResult : What it returns.

    Examples
    --------
    >>> import numpy as np
    >>> from prspace.audit import audit
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(200) < 0.3
    >>> result = audit(y, scores={"logreg": y + rng.normal(size=200), "forest": rng.normal(size=200)}, n_boot=50)
    >>> result.pooled["model"].tolist()
    ['forest', 'logreg']
    >>> df = result.data.rename(columns={"y": "diagnosis"})[["model", "diagnosis", "score", "row"]]
    >>> audit(df, label_col="diagnosis", row_col="row", n_boot=0).pooled["model"].tolist()
    ['forest', 'logreg']
    """
    given = {"model_col": model_col, "label_col": label_col, "score_col": score_col, "fold_col": fold_col,
             "task_col": task_col, "weight_col": weight_col, "repeat_col": repeat_col, "row_col": row_col,
             "ignore_col": ignore_col, "n_boot": n_boot}
    _renamed(given, former)
    n_boot = resolve_n_boot(given.pop("n_boot"))
    ignore = given.pop("ignore_col")
    roles = {r: given[f"{r}_col"] for r in ROLES}
    table_form = isinstance(frame, (pd.DataFrame, Handover))  # a Handover: a table (audit_file's), taken once read
    settings = dict(pos_label=pos_label, train_pi=train_pi, skew_tolerance=skew_tolerance,
                    downsample_ratio=downsample_ratio, n_boot=n_boot, confidence=confidence, seed=seed,
                    progress=progress, metrics_only=metrics_only, bands_ahead=bands_ahead)
    if scores is not None or not table_form:
        if table_form:
            raise InputError("scores= goes with arrays: audit(y_true, scores={...}); with a DataFrame, name its "
                             "score column (score_col=) or its score columns (score_cols=) instead")
        if scores is None:
            raise InputError(f"audit() takes a pandas DataFrame of scored rows, or y_true with scores={{'name': "
                             f"scores, ...}}; got a {type(frame).__name__} and no scores=")
        return _audit_arrays(frame, scores, sample_weight=sample_weight, folds=folds, groups=groups,
                             table_options={**given, "score_cols": score_cols, "ignore_col": ignore,
                                            "group_col": group_col},
                             source=source, settings=settings)
    if groups is not None:
        raise InputError("groups= goes with arrays: audit(y_true, scores={...}, groups=...); in a DataFrame name the "
                         "group column with group_col=")
    if sample_weight is not None or folds is not None:
        raise InputError("sample_weight= and folds= go with arrays: audit(y_true, scores={...}); in a DataFrame "
                         "name the weight and fold columns with weight_col= and fold_col=")
    if group_col == "":
        group_col = None
    frame, cols, acc, data, positive, pi, candidates = read_frame(
        frame, roles, ignore=ignore, score_cols=score_cols, pos_label=pos_label, train_pi=train_pi, source=source,
        group_col=group_col, with_candidates=True)
    # with row ids, prepare has already refused any repeated (task, model, repeat, fold, row id): no copies
    duplicates = {"n": 0} if cols.row else inputs.duplicate_rows(frame, cols)
    del frame  # the long table: the audit reads only the canonical frame from here on
    memory.release()  # the input stage's freed arrays, before the audit's own
    settings.pop("pos_label")
    result = run_audit(data, positive, **{**settings, "train_pi": pi}, duplicates=duplicates, columns=acc.lines(),
                       groupings=acc.groupings, group_col=group_col, group_candidates=candidates)
    result.used = cols
    return result


def _audit_arrays(y_true: ArrayLike, scores: Mapping[str, ArrayLike] | pd.DataFrame, *, sample_weight, folds, groups,
                  table_options: dict[str, Any], source: str | None, settings: dict[str, Any]) -> AuditResult:
    """:func:`audit`'s array form: the arrays made a long table (:func:`prspace.audit.intake.arrays.frame_from_arrays`;
    ``table_options``, the table's column options, must be unset) and audited as one."""
    group_col = table_options.pop("group_col")
    long, roles = arrays.frame_from_arrays(y_true, scores, sample_weight=sample_weight, folds=folds, **table_options)
    if group_col is not None:
        raise InputError("group_col= names a column of a table; with arrays pass groups= (one group per test row)")
    names = list(dict.fromkeys(long[arrays.MODEL]))
    if groups is not None:
        long["groups"] = np.tile(arrays._vector("groups", groups, len(long) // len(names)), len(names))
    result = audit(long, **{f"{r}_col": c for r, c in roles.items()}, **settings, source=source,
                   group_col="groups" if groups is not None else None)
    unit = [c for c in result.columns or [] if c.startswith("resampling unit")]
    result.columns = arrays.describe(len(long) // len(names), names, weighted=sample_weight is not None,
                                     folds=folds is not None) + unit
    return result
