"""The user's table read as the audit reads it: :func:`read_frame` (shared by :func:`prspace.audit.audit` and
``prspace power``) and :class:`Handover`, a table handed over by its only holder."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from prspace.audit.inference import grouping
from prspace.audit.intake import inputs
from prspace.audit.intake.prevalence import parse_train_pi
from prspace.audit.intake.rows import check_row_ids_once
from prspace.audit.intake.table_check import check_table
from prspace.core import memory
from prspace.core.errors import InputError

__all__ = ["Handover", "read_frame"]


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
