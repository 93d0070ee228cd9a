"""The questions an audit's rows answer beyond its tables: :class:`AuditQuestions`, the methods of
:class:`~prspace.audit.audit_result.result.AuditResult` that compute on demand (curve bands, power,
operating points)."""

from __future__ import annotations

import pandas as pd

from prspace.audit.inference import audit_bands as curve_band
from prspace.audit.inference.audit_operating import operating_table
from prspace.audit.intake.rows import pairing_frame
from prspace.audit.simulation.audit_power import METRICS, power_table
from prspace.core.defaults import renamed_keyword, resolve_n_boot
from prspace.core.errors import InputError
from prspace.stats.bands import CURVES, CurveBand

__all__ = ["AuditQuestions"]


class AuditQuestions:
    """The methods of :class:`~prspace.audit.audit_result.result.AuditResult` that compute on demand.

    A mixin of no fields: it reads the result's (``data``, ``pooled``, ``n_boot``, ``confidence``,
    ``seed``, and the cache ``_bands``).

    See Also
    --------
    prspace.audit.AuditResult : The result these methods belong to.
    """

    def bands(self, task: str, model: str, curve: str = "pr", *, n_boot: int | None = None,
              level: float | None = None, seed: int | None = None, n_resamples: int | None = None) -> CurveBand:
        """The pointwise and simultaneous bootstrap band of one model's curve on one task.

        Rows are drawn as the audit draws them (:mod:`prspace.audit.inference.audit_bands`,
        :func:`prspace.stats.bands.curve_bands`); each band asked for is computed once.

        Parameters
        ----------
        task : str
            The task (``"all"`` for a table without a task column).
        model : str
            The model.
        curve : {"pr", "roc", "prg"}, default "pr"
            The curve.
        n_boot : int, optional
            Bootstrap resamples; default the audit's ``n_boot``, or
            :data:`prspace.core.defaults.N_BOOT` when the audit ran without a bootstrap.
        level : float, optional
            Confidence level; default the audit's ``confidence``.
        seed : int, optional
            Seed of the resampling; default the audit's ``seed``.
        n_resamples : int, optional
            Deprecated spelling of ``n_boot`` (a :class:`FutureWarning`).

        Returns
        -------
        prspace.stats.bands.CurveBand
            ``grid``, ``estimate``, ``lo``, ``hi`` (pointwise), ``sim_lo``, ``sim_hi`` (simultaneous),
            ``level`` and ``n_resamples`` (the resamples behind it).

        Raises
        ------
        prspace.core.errors.InputError
            An unknown curve, task or model, or rows that cannot be resampled (one class only).

        See Also
        --------
        shown_bands : The bands the report draws.
        prspace.stats.bands.curve_bands : Bands of arrays outside an audit.

        Examples
        --------
        >>> import numpy as np
        >>> from prspace.audit import audit
        >>> rng = np.random.default_rng(0)
        >>> y = rng.random(200) < 0.3
        >>> result = audit(y, scores={"a": y + rng.normal(size=200), "b": rng.normal(size=200)}, n_boot=50)
        >>> b = result.bands("all", "a", "pr", n_boot=20)
        >>> b.n_resamples, b.lo.shape == b.hi.shape == b.grid.shape
        (20, True)
        """
        n_boot = renamed_keyword(n_boot, n_resamples, new_name="n_boot", old_name="n_resamples",
                                 where="AuditResult.bands()")
        if curve not in CURVES:
            raise InputError(f"unknown curve {curve!r}; choose one of {', '.join(CURVES)}")
        seed = self.seed if seed is None else int(seed)
        key = (str(task), str(model), n_boot, level, seed)
        if key not in self._bands:
            self._bands[key] = curve_band.model_bands(self, task, model, n_boot=n_boot, level=level, seed=seed)
        return self._bands[key][curve]

    def shown_bands(self) -> dict[tuple[str, str], dict[str, CurveBand]]:
        """The bands ``bands.png`` draws and ``bands.csv`` holds.

        Per task the best models by AUPR (:func:`prspace.audit.inference.audit_bands.shown`); a model
        whose rows cannot be resampled (one class with positive weight) is left out.

        Returns
        -------
        dict of (str, str) to dict of str to prspace.stats.bands.CurveBand
            (task, model) -> curve -> band (:meth:`bands`).

        See Also
        --------
        band_table : The same bands as one table.

        Examples
        --------
        >>> import numpy as np
        >>> from prspace.audit import audit
        >>> rng = np.random.default_rng(0)
        >>> y = rng.random(200) < 0.3
        >>> result = audit(y, scores={"a": y + rng.normal(size=200), "b": rng.normal(size=200)}, n_boot=50)
        >>> sorted(result.shown_bands())
        [('all', 'a'), ('all', 'b')]
        """
        out = {}
        for task, models in curve_band.shown(self):
            for model in models:
                try:
                    out[(task, model)] = {c: self.bands(task, model, c) for c in CURVES}
                except InputError:
                    continue
        return out

    def band_table(self) -> pd.DataFrame:
        """``bands.csv``: the bands of :meth:`shown_bands` as one table.

        Returns
        -------
        pandas.DataFrame
            One row per task, model, curve and grid point: the columns
            :data:`prspace.audit.inference.audit_bands.BAND_COLUMNS` (``calibrated``: whether the
            simultaneous band's simulated coverage reaches its target at the task's size).

        See Also
        --------
        shown_bands : The bands themselves.

        Examples
        --------
        >>> import numpy as np
        >>> from prspace.audit import audit
        >>> rng = np.random.default_rng(0)
        >>> y = rng.random(200) < 0.3
        >>> result = audit(y, scores={"a": y + rng.normal(size=200), "b": rng.normal(size=200)}, n_boot=50)
        >>> sorted(result.band_table()["curve"].unique())
        ['pr', 'prg', 'roc']
        """
        sizes = {t: (float(g["n_pos"].iloc[0]), float(g["n_pos"].iloc[0] + g["n_neg"].iloc[0]), self.n_groups(t))
                 for t, g in self.pooled.groupby("task")}
        return curve_band.band_table(self.shown_bands(), sizes)

    def power(self, n_pos: list[int] | None = None, n_neg: list[int] | None = None, *,
              metrics: tuple[str, ...] | None = None, target: float = 0.8, sims: int = 200,
              n_groups: list[int] | None = None) -> pd.DataFrame:
        """Can the test set tell? The power of each metric's test of the best model against the runner-up.

        Per task and metric (AUROC, AP, AUPR, AUPRG): power at the planned sizes, the smallest
        difference detected with power ``target``, the positives needed
        (:func:`prspace.audit.simulation.audit_power.power_table`, at level ``1 - confidence``).

        Parameters
        ----------
        n_pos : list of int, optional
            Planned numbers of positives (default the task's).
        n_neg : list of int, optional
            Planned numbers of negatives (default: the task's prevalence kept).
        metrics : tuple of str, optional
            Metrics to answer for (default all four).
        target : float, default 0.8
            The power aimed at.
        sims : int, default 200
            Simulated test sets per power value.
        n_groups : list of int, optional
            Audited with ``group_col``: planned numbers of groups (default the task's).

        Returns
        -------
        pandas.DataFrame
            One row per task, metric and planned size.

        Raises
        ------
        prspace.core.errors.InputError
            An unknown metric, or positives/negatives planned for grouped rows.

        See Also
        --------
        operating_points : Other questions the same rows answer.

        Examples
        --------
        >>> import numpy as np
        >>> from prspace.audit import audit
        >>> rng = np.random.default_rng(0)
        >>> y = rng.random(200) < 0.3
        >>> result = audit(y, scores={"a": y + rng.normal(size=200), "b": rng.normal(size=200)}, n_boot=50)
        >>> table = result.power(metrics=("auroc",), sims=20)
        >>> table["metric"].tolist()
        ['auroc']
        """
        return power_table(pairing_frame(self.data)[0], n_pos=n_pos, n_neg=n_neg, metrics=tuple(metrics or METRICS),
                           alpha=1.0 - self.confidence, target=target, sims=sims, seed=self.seed, n_groups=n_groups)

    def operating_points(self, *, max_fpr=(), specificity=(), recall=(), n_boot: int | None = None,
                         n_resamples: int | None = None) -> pd.DataFrame:
        """Partial AUROC, sensitivity and precision at given operating points, with bootstrap intervals.

        Per task and model: partial AUROC up to each ``max_fpr`` (McClish-standardised, as
        scikit-learn's ``roc_auc_score(max_fpr=)``), sensitivity at each ``specificity`` and precision at
        each ``recall``, with percentile bootstrap intervals at the audit's confidence
        (:func:`prspace.audit.inference.audit_operating.operating_table`). The threshold table:
        :func:`prspace.metrics.coords`.

        Parameters
        ----------
        max_fpr : sequence of float, default ()
            False positive rates up to which the partial AUROC is taken.
        specificity : sequence of float, default ()
            Specificities at which the sensitivity is read.
        recall : sequence of float, default ()
            Recalls at which the precision is read.
        n_boot : int, optional
            Bootstrap resamples; default the audit's ``n_boot``, or
            :data:`prspace.core.defaults.N_BOOT` when the audit ran without a bootstrap.
        n_resamples : int, optional
            Deprecated spelling of ``n_boot`` (a :class:`FutureWarning`).

        Returns
        -------
        pandas.DataFrame
            One row per task, model, measure and operating point
            (:data:`prspace.audit.inference.audit_operating.OPERATING_COLUMNS`).

        Raises
        ------
        prspace.core.errors.InputError
            An operating point outside its range, or a negative ``n_boot``.

        See Also
        --------
        bands : The whole curve with its band.

        Examples
        --------
        >>> import numpy as np
        >>> from prspace.audit import audit
        >>> rng = np.random.default_rng(0)
        >>> y = rng.random(200) < 0.3
        >>> result = audit(y, scores={"a": y + rng.normal(size=200), "b": rng.normal(size=200)}, n_boot=50)
        >>> t = result.operating_points(recall=[0.5], n_boot=20)
        >>> t[["model", "measure", "n_resamples"]].values.tolist()
        [['a', 'precision at recall', 20], ['b', 'precision at recall', 20]]
        """
        n_boot = renamed_keyword(n_boot, n_resamples, new_name="n_boot", old_name="n_resamples",
                                 where="AuditResult.operating_points()")
        n = n_boot if n_boot is not None else resolve_n_boot(self.n_boot or None)
        return operating_table(self.data, max_fpr=max_fpr, specificity=specificity, recall=recall, n_boot=n,
                               confidence=self.confidence, seed=self.seed)
