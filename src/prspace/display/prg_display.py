"""Precision-Recall-Gain display (Flach & Kull 2015), in the unit square as the paper plots it.

Flach & Kull (2015), section 3.1: "A Precision-Recall-Gain curve plots Precision Gain on the y-axis
against Recall Gain on the x-axis in the unit square (i.e., negative gains are ignored)", and "all
classifiers with baseline F1 performance end up on the minor diagonal".  So the part of
:func:`prspace.metrics.prg_curve` with recall gain < 0 (down to -5 and below on a skewed task: a
naive plot of it is L-shaped) is not drawn, nor is the part with precision gain < 0 (it ends at the
curve's crossing of 0); :func:`prspace.metrics.auprg`, in the legend, is the area over recall gain
in [0, 1] with negative precision gain counted negatively, as the paper's reference code.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from prspace.display._base import axes, label, once, positive_text
from prspace.display.curve import CurveDisplay
from prspace.metrics import auprg, prg_curve


def unit_square(recall_gain: ArrayLike, precision_gain: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """The points of a PRG curve that are drawn, in the unit square.

    Recall gain >= 0 (from the curve's crossing of recall
    gain 0), precision gain below 0 masked as NaN (a gap in the line; the crossings of precision
    gain 0 that :func:`prspace.metrics.prg_curve` inserts end the drawn parts exactly).

    Parameters
    ----------
    recall_gain : array-like
        The curve's recall gains.
    precision_gain : array-like
        The curve's precision gains.

    Returns
    -------
    recall_gain : ndarray
        The recall gains >= 0.
    precision_gain : ndarray
        Their precision gains, NaN where below 0.

    See Also
    --------
    prspace.metrics.prg_curve : The whole curve.

    Examples
    --------
    >>> from prspace.display import unit_square
    >>> unit_square([-1.0, 0.0, 1.0], [1.0, 0.5, -0.5])
    (array([0., 1.]), array([0.5, nan]))
    """
    rg, pg = np.asarray(recall_gain, dtype=np.float64), np.asarray(precision_gain, dtype=np.float64)
    keep = rg >= 0.0
    rg, pg = rg[keep], pg[keep].copy()
    pg[pg < 0.0] = np.nan
    return rg, pg


class PrecisionRecallGainDisplay(CurveDisplay):
    """PRG curve in the unit square, in the conventions of ``sklearn.metrics.RocCurveDisplay``.

    Build it with :meth:`from_predictions` or :meth:`from_estimator`, which compute the curve and draw
    it; the constructor takes the whole curve (as :class:`prspace.metrics.PRGCurve`), and :meth:`plot`
    draws its part in the unit square (:func:`unit_square`). After :meth:`plot`: ``ax_``, ``figure_``,
    ``line_`` and ``baseline_`` (the minor diagonal, precision gain + recall gain = 1: the F1 of the
    always-positive classifier, or None).

    Parameters
    ----------
    recall_gain : array-like
        The whole curve's recall gains.
    precision_gain : array-like
        Its precision gains.
    auprg : float, default=None
        The area, shown in the legend.
    name : str, default=None
        Legend name of the curve.
    pos_label : int, float, bool or str, default=None
        The positive class, shown in the axis labels.

    See Also
    --------
    prspace.metrics.prg_curve : The curve.
    prspace.metrics.auprg : Its area.

    Examples
    --------
    >>> from prspace.display import PrecisionRecallGainDisplay
    >>> d = PrecisionRecallGainDisplay(recall_gain=[0, 1], precision_gain=[1, 0], auprg=0.5, name='m').plot()
    >>> d.line_.get_label()
    'm (AUPRG = 0.500)'
    """

    def __init__(self, *, recall_gain: ArrayLike, precision_gain: ArrayLike, auprg: float | None = None,
                 name: str | None = None, pos_label: Any = None) -> None:
        self.recall_gain = np.asarray(recall_gain, dtype=np.float64)
        self.precision_gain = np.asarray(precision_gain, dtype=np.float64)
        self.auprg, self.name, self.pos_label = auprg, name, pos_label

    @classmethod
    def _compute(cls, y_true, y_score, *, pos_label, sample_weight) -> dict[str, Any]:
        c = prg_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
        return {"recall_gain": c.recall_gain, "precision_gain": c.precision_gain,
                "auprg": auprg(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)}

    def plot(self, ax: Any = None, *, name: str | None = None, plot_baseline: bool = True,
             baseline_kw: dict | None = None, curve_kwargs: dict | None = None) -> PrecisionRecallGainDisplay:
        """Draw the curve's part in the unit square and the minor diagonal.

        The part with recall gain >= 0 is drawn, precision gain below 0 left as a gap
        (:func:`unit_square`); the diagonal is drawn once on axes that several displays share.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            The axes to draw on; None: a new figure's.
        name : str, default=None
            Legend name; None: the display's.
        plot_baseline : bool, default=True
            Draw the minor diagonal.
        baseline_kw : dict, default=None
            Keywords of ``ax.plot`` for the diagonal.
        curve_kwargs : dict, default=None
            Keywords of ``ax.plot`` for the curve.

        Returns
        -------
        PrecisionRecallGainDisplay
            ``self``, with ``ax_``, ``figure_``, ``line_`` and ``baseline_``.

        See Also
        --------
        unit_square : The points drawn.

        Examples
        --------
        >>> from prspace.display import PrecisionRecallGainDisplay
        >>> d = PrecisionRecallGainDisplay(recall_gain=[-1, 0, 1], precision_gain=[1, 1, 0]).plot()
        >>> d.line_.get_xdata().tolist()
        [0.0, 1.0]
        """
        self.ax_, self.figure_ = axes(ax)
        name = self.name if name is None else name
        self.baseline_ = None
        if plot_baseline:
            bkw = {"color": "k", "linestyle": "--", "linewidth": 0.8, "label": "Always-positive F1 (minor diagonal)",
                   **(baseline_kw or {})}
            self.baseline_ = once(self.ax_, "prspace-prg-baseline", lambda: self.ax_.plot((0, 1), (1, 0), **bkw)[0])
        rg, pg = unit_square(self.recall_gain, self.precision_gain)
        kw = {"label": label(name, "AUPRG", self.auprg), **(curve_kwargs or {})}
        (self.line_,) = self.ax_.plot(rg, pg, **kw)
        pos = positive_text(self.pos_label)
        self.ax_.set(xlabel="Recall gain" + pos, ylabel="Precision gain" + pos, xlim=(-0.01, 1.01),
                     ylim=(-0.01, 1.01), aspect="equal")
        self.ax_.legend(loc="best")
        return self
