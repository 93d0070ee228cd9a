"""The audit's result: :class:`AuditResult`, everything the audit found with the methods that report it.

:func:`prspace.audit.audit` and :func:`prspace.audit.run_audit` (:mod:`prspace.audit.audit_result.run`)
return one. Its fields are :class:`~prspace.audit.audit_record.AuditRecord`'s (the tables, sentences and
findings, and the bands computed ahead, :attr:`~prspace.audit.audit_record.AuditRecord.bands_ahead`), the
columns used, and the caches of what its methods computed once (declared fields, not written into the
object's ``__dict__``: issue 79).

One module (over 400 lines) because half of it is the numpydoc docstrings of the result and its report
methods, each with an example that runs; the methods that compute on demand (bands, power, operating
points) are :mod:`~prspace.audit.audit_result.questions`'s.
"""

from __future__ import annotations

import base64
import dataclasses
import html
from collections.abc import Callable
from typing import TYPE_CHECKING

from prspace.audit.audit_record import AuditRecord
from prspace.audit.audit_result.questions import AuditQuestions
from prspace.audit.inference import audit_ranksets as ranksets
from prspace.audit.inference.tables import LABELS
from prspace.audit.intake import inputs
from prspace.audit.report import render
from prspace.core import memory
from prspace.core import registry as R
from prspace.core.output import figure_bytes

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["AuditResult", "Headline"]

class Headline(list):
    """The headline's lines: a list of str that prints as text and shows as a list in a notebook.

    Parameters
    ----------
    iterable : iterable of str, optional
        The lines (as :class:`list` takes them).

    See Also
    --------
    AuditResult.headline : The headline of an audit.

    Examples
    --------
    >>> h = Headline(["first line", "second line"])
    >>> print(h)
    first line
    second line
    >>> h[0]
    'first line'
    """

    def __str__(self) -> str:
        return "\n".join(self)

    def _repr_html_(self) -> str:
        return "<ul>" + "".join(f"<li>{html.escape(s)}</li>" for s in self) + "</ul>"


def _count(x: float) -> str:
    """A (weighted) count: an integer when it is one."""
    return f"{int(x)}" if float(x).is_integer() else f"{x:.4g}"


def _field(default_factory=None, *, default=None):
    """A field the methods fill (not an argument of the constructor, not shown, not compared)."""
    if default_factory is not None:
        return dataclasses.field(default_factory=default_factory, init=False, repr=False, compare=False)
    return dataclasses.field(default=default, init=False, repr=False, compare=False)


@dataclasses.dataclass
class AuditResult(AuditQuestions, AuditRecord):
    """Everything the audit found, with its reports, figures, bands, power and operating points.

    The fields are :class:`~prspace.audit.audit_record.AuditRecord`'s (tables sorted by task and model) and
    ``used``; :func:`prspace.audit.audit` and :func:`prspace.audit.run_audit` make one. In a notebook
    the result shows itself compactly: the headline, the pooled metrics with their intervals and the
    plausible-best sets per task; :meth:`to_html` is the whole report.

    Parameters
    ----------
    data : pandas.DataFrame
        The canonical frame audited (one row per model and test row).
    positive : str
        How the positive class was told.
    pooled, folds, fold_summary, ranks, estimators, intervals, comparisons : pandas.DataFrame
        Metrics pooled and per fold, the folds' summary, ranks, every AUPR estimator, intervals and
        paired comparisons.
    sentences : dict of str to list of str
        Where the rankings disagree, per task.
    findings : list of prspace.audit.report.finding_types.Finding
        What the audit found wrong or worth a look.
    comparable : dict of str to bool
        Per task: whether the models were scored on the same rows.
    train_pi : dict of str to float, optional
        The training prevalence per task.
    n_boot : int
        Bootstrap resamples drawn (0: none).
    confidence : float
        Level of the intervals, tests and rank sets.
    paired : dict of str to bool, optional
        Per task: whether the models' rows are paired by row id.
    rank_sets, pairwise : pandas.DataFrame, optional
        Confidence sets for ranks; comparisons of all pairs.
    cd : dict of str to pandas.DataFrame, optional
        Critical-difference tables across tasks.
    auroc_bounds : pandas.DataFrame, optional
        What the AUROCs allow.
    seed : int
        Seed of the resampling and the curve bands.
    columns : list of str, optional
        The lines accounting for the input's columns.
    dropped : list of dict, optional
        Rows left out so that every model of a task is scored on the same rows.
    own_folds : dict of str to bool, optional
        Per task: models scored the same rows with different fold assignments.
    groupings : dict of str to list of str, optional
        Columns not used that split every model's rows alike.
    group_col : str, optional
        The column whose groups were resampled whole.
    group_candidates : list of str, optional
        Columns not used that look like a group column.
    metrics_only : bool
        Point estimates alone.
    bands_ahead : concurrent.futures.Future, optional
        The bands of the models the report draws, computed ahead (``bands_ahead=True`` of
        :func:`~prspace.audit.audit`).
    used : prspace.audit.intake.inputs.Columns, optional
        The columns :func:`~prspace.audit.audit` used for each role (None from
        :func:`~prspace.audit.run_audit` on a prepared frame).

    See Also
    --------
    prspace.audit.audit : The audit that returns one.
    prspace.audit.audit_record.AuditRecord : Its fields.

    Examples
    --------
    >>> import numpy as np
    >>> from prspace.audit import audit
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(200) < 0.3
    >>> result = audit(y, scores={"a": y + rng.normal(size=200), "b": rng.normal(size=200)}, n_boot=50)
    >>> result.pooled["model"].tolist()
    ['a', 'b']
    >>> result.n_boot, result.exit_code
    (50, 0)
    """

    #: The columns :func:`audit` used for each role (None from :func:`run_audit` on a prepared frame).
    used: inputs.Columns | None = None
    #: Each model's bands asked for, by (task, model, n_boot, level, seed) (:meth:`bands`).
    _bands: dict = _field(dict)
    #: The figures that need no bands, drawn ahead for the next :meth:`figures` only (:meth:`draw_ahead`).
    _drawn: dict = _field(dict)
    #: The notebook's curves figure (PNG), drawn once.
    _curves_png: bytes | None = _field()
    #: Set once ``prspace audit --out`` computed the bands and drew what it could ahead
    #: (:func:`prspace.audit.audit_files.prepare_outputs`).
    _outputs_prepared: bool = _field(default=False)

    def headline(self) -> Headline:
        """The few lines a reader must see first.

        Returns
        -------
        Headline
            A list of str that prints as text, one line each.

        See Also
        --------
        to_text : The whole summary as text.

        Examples
        --------
        >>> import numpy as np
        >>> from prspace.audit import audit
        >>> rng = np.random.default_rng(0)
        >>> y = rng.random(200) < 0.3
        >>> result = audit(y, scores={"a": y + rng.normal(size=200), "b": rng.normal(size=200)}, n_boot=50)
        >>> isinstance(result.headline()[0], str)
        True
        """
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
        if self._curves_png is None:
            self._curves_png = figure_bytes(self.plot(), "png", 72)
        png = self._curves_png
        parts.append("<p><b>Curves</b> (ROC, PR, PRG; <code>result.plot()</code>):</p><img style='max-width:100%' "
                     f"alt='ROC, PR and PRG curves' src='data:image/png;base64,{base64.b64encode(png).decode('ascii')}'/>")
        parts.append("<p>Findings: <code>result.findings</code>; the whole report: <code>result.to_html()</code>.</p>")
        return "".join(parts) + "</div>"

    def plot(self) -> Figure:
        """The ROC, PR and PRG curves of the models, one row of panels per task.

        Returns
        -------
        matplotlib.figure.Figure
            The figure ``curves.png`` of the report: a notebook shows it, ``.savefig(path)`` saves it.

        See Also
        --------
        figures : Every figure of the report as PNG bytes.

        Examples
        --------
        >>> import numpy as np
        >>> from prspace.audit import audit
        >>> rng = np.random.default_rng(0)
        >>> y = rng.random(200) < 0.3
        >>> result = audit(y, scores={"a": y + rng.normal(size=200), "b": rng.normal(size=200)}, n_boot=50)
        >>> fig = result.plot()
        >>> len(fig.axes) >= 3
        True
        """
        from prspace.audit.report import plot

        return plot.curves_figure(self)

    def to_text(self, source: str = "") -> str:
        """The summary ``prspace audit`` prints: overview, headline, per task the metrics and tests.

        Parameters
        ----------
        source : str, default ""
            The name of the file audited, shown in the first line.

        Returns
        -------
        str
            The summary, lines ending with a newline.

        See Also
        --------
        to_markdown, to_html : The whole report.

        Examples
        --------
        >>> import numpy as np
        >>> from prspace.audit import audit
        >>> rng = np.random.default_rng(0)
        >>> y = rng.random(200) < 0.3
        >>> result = audit(y, scores={"a": y + rng.normal(size=200), "b": rng.normal(size=200)}, n_boot=50)
        >>> result.to_text("scores.csv").splitlines()[0]
        'prspace audit of scores.csv'
        """
        return render.format_text(self, source)

    def to_markdown(self, source: str = "", figures: dict[str, str] | None = None) -> str:
        """The report as Markdown (``report.md``).

        Parameters
        ----------
        source : str, default ""
            The name of the file audited, shown in the title.
        figures : dict of str to str, optional
            Figure name (``curves``, ``intervals``, ...) -> the relative path of its PNG, linked in the report.

        Returns
        -------
        str
            The Markdown text.

        See Also
        --------
        to_html : The report as one HTML page.

        Examples
        --------
        >>> import numpy as np
        >>> from prspace.audit import audit
        >>> rng = np.random.default_rng(0)
        >>> y = rng.random(200) < 0.3
        >>> result = audit(y, scores={"a": y + rng.normal(size=200), "b": rng.normal(size=200)}, n_boot=50)
        >>> result.to_markdown("scores.csv").splitlines()[0]
        '# prspace audit of `scores.csv`'
        """
        return render.format_markdown(self, source, figures)

    def figures(self) -> dict[str, bytes]:
        """The report's figures as PNG bytes.

        ``curves`` and ``intervals`` (one row per task); ``bands`` (the top models' ROC, PR and PRG bands,
        :meth:`shown_bands`) unless the audit ran without a bootstrap; ``cd_diagram`` when the audit has
        critical-difference tables (``cd``). Figures drawn ahead (:meth:`draw_ahead`) are taken, once.

        Returns
        -------
        dict of str to bytes
            Figure name -> PNG.

        See Also
        --------
        plot : The curves as a matplotlib figure.

        Examples
        --------
        >>> import numpy as np
        >>> from prspace.audit import audit
        >>> rng = np.random.default_rng(0)
        >>> y = rng.random(200) < 0.3
        >>> result = audit(y, scores={"a": y + rng.normal(size=200), "b": rng.normal(size=200)}, n_boot=50)
        >>> sorted(result.figures())
        ['bands', 'curves', 'intervals']
        """
        from prspace.audit.report import plot

        ready, self._drawn = self._drawn, {}  # drawn ahead, while the bands were computed (:meth:`draw_ahead`)

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
        """Draw the figures that need no bands now, for the next :meth:`figures` only.

        ``prspace audit --out`` draws them while another thread computes the bands.

        Returns
        -------
        None
            The PNGs are kept on the result until :meth:`figures` takes them.

        See Also
        --------
        figures : Every figure of the report.

        Examples
        --------
        >>> import numpy as np
        >>> from prspace.audit import audit
        >>> rng = np.random.default_rng(0)
        >>> y = rng.random(200) < 0.3
        >>> result = audit(y, scores={"a": y + rng.normal(size=200), "b": rng.normal(size=200)}, n_boot=50)
        >>> result.draw_ahead()
        >>> sorted(result.figures())
        ['bands', 'curves', 'intervals']
        """
        from prspace.audit.report import plot

        self._drawn = {name: figure_bytes(draw(), "png", plot.DPI) for name, draw in self._plain_figures(plot).items()}

    def to_html(self, source: str = "", figures: dict[str, bytes] | None = None) -> str:
        """The report as one self-contained HTML page (``report.html``).

        Parameters
        ----------
        source : str, default ""
            The name of the file audited, shown in the title.
        figures : dict of str to bytes, optional
            Figure name -> PNG, embedded; default :meth:`figures` (drawn now).

        Returns
        -------
        str
            The page.

        See Also
        --------
        to_markdown : The report as Markdown.

        Examples
        --------
        >>> import numpy as np
        >>> from prspace.audit import audit
        >>> rng = np.random.default_rng(0)
        >>> y = rng.random(200) < 0.3
        >>> result = audit(y, scores={"a": y + rng.normal(size=200), "b": rng.normal(size=200)}, n_boot=50)
        >>> result.to_html("scores.csv", figures={}).startswith("<!DOCTYPE html>")
        True
        """
        return render.format_html(self, source, self.figures() if figures is None else figures)
