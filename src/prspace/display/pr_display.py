"""PR display: the Davis-Goadrich (hyperbolic) interpolated PR curve whose area is
:func:`prspace.metrics.aupr`, over Boyd et al.'s unachievable region, shaded.

Boyd et al. (2012), Theorem 1: "Precision (p) and recall (r) must satisfy, p >= pi r / (1 - pi + pi r)
where pi is the skew"; every point under that minimum PR curve is unachievable, and its area is
AUCPR_MIN = 1 + (1 - pi) ln(1 - pi) / pi (Theorem 2; :func:`prspace.metrics.aupr_min`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from prspace.display._base import axes, label, once, positive_text
from prspace.display.curve import CurveDisplay
from prspace.metrics import aupr, aupr_min, interpolate_pr_curve, min_pr_curve, pr_curve

#: at most about this many points are drawn along the interpolated curve
MAX_POINTS = 200_000


class PrecisionRecallDisplay(CurveDisplay):
    """PR curve with Boyd's unachievable region, in the conventions of ``sklearn.metrics.PrecisionRecallDisplay``.

    Build it with :meth:`from_predictions` or :meth:`from_estimator`, which compute the curve and draw
    it; the constructor takes a curve already computed, and :meth:`plot` draws it. After :meth:`plot`:
    ``ax_``, ``figure_``, ``line_``, ``unachievable_`` (the shaded region, or None) and
    ``chance_level_`` (precision = pi, or None); :attr:`aupr_min` is the region's area.

    Parameters
    ----------
    precision : array-like
        Precisions along the hyperbolic interpolation.
    recall : array-like
        Their recalls, from 0.
    aupr : float, default=None
        The exact area, shown in the legend.
    prevalence : float, default=None
        The skew pi of the unachievable region and the chance line.
    name : str, default=None
        Legend name of the curve.
    pos_label : int, float, bool or str, default=None
        The positive class, shown in the axis labels.

    See Also
    --------
    prspace.metrics.pr_curve : The curve.
    prspace.metrics.aupr_min : The region's area.

    Examples
    --------
    >>> from prspace.display import PrecisionRecallDisplay
    >>> d = PrecisionRecallDisplay(precision=[1, 1, 0.5], recall=[0, 0.5, 1], prevalence=0.5).plot()
    >>> round(d.aupr_min, 4)
    0.3069
    """

    def __init__(self, *, precision: ArrayLike, recall: ArrayLike, aupr: float | None = None,
                 prevalence: float | None = None, name: str | None = None, pos_label: Any = None) -> None:
        self.precision = np.asarray(precision, dtype=np.float64)
        self.recall = np.asarray(recall, dtype=np.float64)
        self.aupr, self.prevalence, self.name, self.pos_label = aupr, prevalence, name, pos_label

    @property
    def aupr_min(self) -> float | None:
        """The area of the unachievable region at :attr:`prevalence` (Boyd et al. Theorem 2).

        See Also
        --------
        prspace.metrics.aupr_min : The area.

        Examples
        --------
        >>> from prspace.display import PrecisionRecallDisplay
        >>> round(PrecisionRecallDisplay(precision=[1], recall=[0], prevalence=0.1).aupr_min, 4)
        0.0518
        """
        return None if self.prevalence is None else aupr_min(self.prevalence)

    @classmethod
    def _compute(cls, y_true, y_score, *, pos_label, sample_weight) -> dict[str, Any]:
        c = pr_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
        per_segment = int(np.clip(MAX_POINTS // max(len(c.tp) - 1, 1), 2, 20))
        dense = interpolate_pr_curve(c, per_segment)
        return {"precision": dense.precision, "recall": dense.recall,
                "aupr": aupr(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight),
                "prevalence": float(c.tp[-1] / (c.tp[-1] + c.fp[-1]))}

    def plot(self, ax: Any = None, *, name: str | None = None, plot_unachievable: bool = True,
             unachievable_kw: dict | None = None, plot_chance_level: bool = False,
             chance_level_kw: dict | None = None, curve_kwargs: dict | None = None) -> PrecisionRecallDisplay:
        """Draw the unachievable region, the chance line and the curve.

        The region under Boyd et al.'s minimum PR curve at the skew is shaded once per skew on axes
        that several displays share, then the precision = pi line of random ranking, then the curve.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            The axes to draw on; None: a new figure's.
        name : str, default=None
            Legend name; None: the display's.
        plot_unachievable : bool, default=True
            Shade the unachievable region at the skew.
        unachievable_kw : dict, default=None
            Keywords of ``ax.fill_between`` for it.
        plot_chance_level : bool, default=False
            Draw the precision = pi line.
        chance_level_kw : dict, default=None
            Keywords of ``ax.plot`` for it.
        curve_kwargs : dict, default=None
            Keywords of ``ax.plot`` for the curve.

        Returns
        -------
        PrecisionRecallDisplay
            ``self``, with ``ax_``, ``figure_``, ``line_``, ``unachievable_`` and ``chance_level_``.

        See Also
        --------
        prspace.metrics.min_pr_curve : The region's edge.

        Examples
        --------
        >>> from prspace.display import PrecisionRecallDisplay
        >>> d = PrecisionRecallDisplay(precision=[1, 0.5], recall=[0, 1], prevalence=0.5).plot(plot_chance_level=True)
        >>> d.unachievable_ is not None and d.chance_level_ is not None
        True
        """
        self.ax_, self.figure_ = axes(ax)
        name = self.name if name is None else name
        pi = self.prevalence
        self.unachievable_ = self.chance_level_ = None
        if plot_unachievable and pi is not None:
            r = np.linspace(0.0, 1.0, 401)
            lo = min_pr_curve(pi, r).precision
            ukw = {"color": "0.82", "linewidth": 0,
                   "label": f"Unachievable at pi = {pi:.3g} (AUPR_MIN = {aupr_min(pi):.3f})", **(unachievable_kw or {})}
            self.unachievable_ = once(self.ax_, f"prspace-unachievable-{pi:.12g}",
                                      lambda: self.ax_.fill_between(r, 0.0, lo, **ukw))
        if plot_chance_level and pi is not None:
            ckw = {"color": "k", "linestyle": "--", "linewidth": 0.8, "label": f"Chance level (precision = {pi:.3g})",
                   **(chance_level_kw or {})}
            self.chance_level_ = once(self.ax_, f"prspace-pr-chance-{pi:.12g}",
                                      lambda: self.ax_.plot((0, 1), (pi, pi), **ckw)[0])
        kw = {"label": label(name, "AUPR", self.aupr), **(curve_kwargs or {})}
        (self.line_,) = self.ax_.plot(self.recall, self.precision, **kw)
        pos = positive_text(self.pos_label)
        self.ax_.set(xlabel="Recall" + pos, ylabel="Precision" + pos, xlim=(-0.01, 1.01), ylim=(-0.01, 1.01),
                     aspect="equal")
        self.ax_.legend(loc="best")
        return self
