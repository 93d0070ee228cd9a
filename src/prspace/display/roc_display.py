"""ROC display: the curve through every threshold's (FPR, TPR), its AUROC, the chance diagonal."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from prspace.display._base import axes, label, once, positive_text
from prspace.display.curve import CurveDisplay
from prspace.metrics import auroc, roc_curve


class RocCurveDisplay(CurveDisplay):
    """ROC curve, as ``sklearn.metrics.RocCurveDisplay`` (every vertex kept; ties are diagonal segments).

    Build it with :meth:`from_predictions` or :meth:`from_estimator`, which compute the curve and draw
    it; the constructor takes the vertices from (0, 0) to (1, 1), and :meth:`plot` draws them. After
    :meth:`plot`: ``ax_``, ``figure_``, ``line_`` and ``chance_level_``.

    Parameters
    ----------
    fpr : array-like
        False positive rates of the vertices, from 0 to 1.
    tpr : array-like
        True positive rates of the vertices.
    roc_auc : float, default=None
        The area, shown in the legend.
    name : str, default=None
        Legend name of the curve.
    pos_label : int, float, bool or str, default=None
        The positive class, shown in the axis labels.

    See Also
    --------
    prspace.metrics.roc_curve : The curve.
    prspace.metrics.auroc : Its area.

    Examples
    --------
    >>> from prspace.display import RocCurveDisplay
    >>> d = RocCurveDisplay(fpr=[0, 0, 1], tpr=[0, 1, 1], roc_auc=1.0).plot()
    >>> d.line_.get_label()
    'AUROC = 1.000'
    """

    def __init__(self, *, fpr: ArrayLike, tpr: ArrayLike, roc_auc: float | None = None, name: str | None = None,
                 pos_label: Any = None) -> None:
        self.fpr, self.tpr = np.asarray(fpr, dtype=np.float64), np.asarray(tpr, dtype=np.float64)
        self.roc_auc, self.name, self.pos_label = roc_auc, name, pos_label

    @classmethod
    def _compute(cls, y_true, y_score, *, pos_label, sample_weight) -> dict[str, Any]:
        c = roc_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
        return {"fpr": c.fpr, "tpr": c.tpr,
                "roc_auc": auroc(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)}

    def plot(self, ax: Any = None, *, name: str | None = None, plot_chance_level: bool = True,
             chance_level_kw: dict | None = None, curve_kwargs: dict | None = None) -> RocCurveDisplay:
        """Draw the curve and the chance diagonal.

        The diagonal is drawn once on axes that several displays share.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            The axes to draw on; None: a new figure's.
        name : str, default=None
            Legend name; None: the display's.
        plot_chance_level : bool, default=True
            Draw the diagonal of random ranking.
        chance_level_kw : dict, default=None
            Keywords of ``ax.plot`` for the diagonal.
        curve_kwargs : dict, default=None
            Keywords of ``ax.plot`` for the curve.

        Returns
        -------
        RocCurveDisplay
            ``self``, with ``ax_``, ``figure_``, ``line_`` and ``chance_level_``.

        See Also
        --------
        RocCurveDisplay.from_predictions : Compute and draw.

        Examples
        --------
        >>> from prspace.display import RocCurveDisplay
        >>> d = RocCurveDisplay(fpr=[0, 0, 1], tpr=[0, 1, 1], name='m').plot(plot_chance_level=False)
        >>> d.chance_level_ is None
        True
        """
        self.ax_, self.figure_ = axes(ax)
        name = self.name if name is None else name
        self.chance_level_ = None
        if plot_chance_level:
            ckw = {"color": "k", "linestyle": "--", "linewidth": 0.8, "label": "Chance level (AUROC = 0.5)",
                   **(chance_level_kw or {})}
            self.chance_level_ = once(self.ax_, "prspace-roc-chance", lambda: self.ax_.plot((0, 1), (0, 1), **ckw)[0])
        kw = {"label": label(name, "AUROC", self.roc_auc), **(curve_kwargs or {})}
        (self.line_,) = self.ax_.plot(self.fpr, self.tpr, **kw)
        pos = positive_text(self.pos_label)
        self.ax_.set(xlabel="False positive rate" + pos, ylabel="True positive rate" + pos, xlim=(-0.01, 1.01),
                     ylim=(-0.01, 1.01), aspect="equal")
        self.ax_.legend(loc="lower right")
        return self
