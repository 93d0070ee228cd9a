"""OpenML: the tasks Flach and Kull (2015) ranked and their runs' predictions -> the predictions schema.

The room's modules, in the order a fetch uses them:

* ``client.py``: the HTTP layer (timeouts, retries with backoff, atomic downloads, request count);
* ``cache.py``: settings + cache of every answer per server (:class:`~prspace.openml.cache._Session`),
  paged listings;
* ``metadata.py``: task, run and dataset metadata;
* ``selection.py``: which tasks qualify (:func:`select_tasks`, :class:`TaskCandidate`,
  :func:`candidates_frame`);
* ``predictions_arff.py``: the fast parser of a run's predictions file;
* ``runs.py``: one run's predictions -> checked rows;
* ``fetch.py``: :func:`fetch_task`, ``n_models`` runs of distinct flows drawn with a seeded RNG;
* ``selfcheck.py``: our AUROC against the OpenML evaluation engine's.

The manifest of a study's draws is written and replayed by ``prspace fetch-openml``
(:mod:`prspace.cli.fetch_openml`). Every public name is re-exported here.
"""

from prspace.openml.client import ClientSettings, OpenMLNetworkError, OpenMLServerRefused
from prspace.openml.fetch import FetchResult, ReplayMismatch, fetch_task
from prspace.openml.selection import (
    CANDIDATE_COLUMNS,
    TaskCandidate,
    candidates_frame,
    select_tasks,
)

__all__ = [
    "CANDIDATE_COLUMNS",
    "ClientSettings",
    "FetchResult",
    "OpenMLNetworkError",
    "OpenMLServerRefused",
    "ReplayMismatch",
    "TaskCandidate",
    "candidates_frame",
    "fetch_task",
    "select_tasks",
]
