"""A loopback OpenML at the paper's scale: 886 binary 10-fold tasks on 426 datasets, generated lazily.

:class:`LoopbackOpenML` is the test server of :mod:`openml_server` (same handler, same XML
formats, the live listing rules: at most 1,000 rows a call, HTTP 412 code 516 above, 513 without a
limit past 1,000, 515 for an offset without a limit, 482/512 for no results) whose content is a
:class:`World` described by a few arrays and generated **on demand from a seed**: a dataset's
rows, a task's folds, a run's predictions file and the server's ``area_under_roc_curve`` are
computed when asked for and forgotten (small LRU caches), so the repository ships no data and the
server's memory does not grow with the number of tasks.

The world (:func:`make_world`, defaults = the paper's scale, Flach & Kull 2015, section 4):

* ``n_datasets`` = 426 datasets; ``n_tasks`` = 886 binary tasks, 10-fold cross-validation
  (estimation procedure 1), each dataset carrying at least one of them (the rest placed at random,
  so a dataset has 1-6 tasks with different fold splits); plus ``n_decoys`` = 150 binary tasks
  that do not qualify (5-29 flows, or 5 x 2-fold CV), so discovery has to filter and the task
  listing (1,036 rows) needs two pages.
* **Dataset sizes**: ``n = round(10 ** (3 + 0.78 z))`` at the 426 quantiles ``z = Phi^-1((i + 0.5) / 426)``
  (shuffled): log-normal with median 1,000 rows, P(n > 10,000) = 0.10 and 2 datasets over
  100,000 rows (the largest 236,064); OpenML's binary datasets have this shape (median about
  1,000 rows, a long right tail).  Minority share uniform on [0.05, 0.5].  Class names from a
  list with OpenML's variety (``tested_positive``, ``'neg 'x''``, ``1``, ...).
* **Runs**: per qualifying task 30 + Geometric flows (mean about 40), 1 + Poisson(0.6) runs a
  flow; 1 % of the tasks have 1,100-2,500 runs (paged listings). 3 % of runs carry an error
  message, 3 % have no predictions file (openml-python #309), 2 % a broken one (NaN scores or
  missing rows); the last run of every flow is a good one.  Predictions files are written in the
  Weka, scikit-learn and mlr layouts of :mod:`openml_server` (quoting, column order, numbers,
  ``correct`` present or not).

Options of the server: ``latency`` (seconds added to every answer), ``bandwidth`` (bytes/s per
connection), ``fail_rate`` with ``fail_kind`` (``"refuse"``: HTTP 503 with an HTML body, ``"drop"``:
the connection closed without an answer, ``"mixed"``) drawn from a seeded RNG. It counts requests
per path and bytes sent.  Run it standalone (``python tests/openml_loopback.py --port 8080``) to
point any client at it.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import hashlib
import re
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from openml_server import (  # noqa: E402
    FakeOpenML,
    Run,
    Task,
    _dq,
    _Handler,
    _q,
    server_evaluations,
)

CLASS_NAMES = [("tested_negative", "tested_positive"), ("0", "1"), ("N", "P"), ("no", "yes"),
               ("neg 'x'", "pos.y z"), ('b"ad', "good one"), ("-1", "1"), ("normal", "anomaly.type")]
STYLES = ("weka", "sklearn", "mlr")
#: run kinds
OK, ERROR, NOFILE, NAN, MISSING = 0, 1, 2, 3, 4
KIND_NAMES = {OK: "ok", ERROR: "error message", NOFILE: "no predictions file", NAN: "NaN scores",
              MISSING: "missing rows"}
DATASET_FILE0 = 900_000_000  # file ids of datasets: DATASET_FILE0 + dataset id; predictions: the run id


def dataset_sizes(n: int, *, median: float = 1000.0, sigma: float = 0.78) -> np.ndarray:
    """``n`` dataset sizes at the quantiles of log10(size) ~ Normal(log10(median), sigma)."""
    from scipy.stats import norm

    z = norm.ppf((np.arange(n) + 0.5) / n)
    return np.maximum(np.round(10 ** (np.log10(median) + sigma * z)).astype(np.int64), 40)


@dataclasses.dataclass
class World:
    """Everything the server knows, as arrays; content is generated from ``seed`` on demand."""

    seed: int
    # datasets (index = dataset id - 1)
    ds_rows: np.ndarray
    ds_minority: np.ndarray  # minority class size
    ds_classes: np.ndarray  # index into CLASS_NAMES
    # tasks
    task_ids: np.ndarray
    task_ds: np.ndarray  # dataset id
    task_proc: np.ndarray  # estimation procedure id
    task_qualifies: np.ndarray  # bool: one of the paper-like tasks
    # runs, sorted by run id
    run_ids: np.ndarray
    run_task: np.ndarray
    run_flow: np.ndarray
    run_kind: np.ndarray
    runs_of_task: dict[int, np.ndarray] = dataclasses.field(default_factory=dict)  # task -> row indices
    run_row: dict[int, int] = dataclasses.field(default_factory=dict)  # run id -> row
    task_row: dict[int, int] = dataclasses.field(default_factory=dict)
    gone: set[int] = dataclasses.field(default_factory=set)  # run ids removed from the server

    def __post_init__(self) -> None:
        self.reindex()

    def reindex(self) -> None:
        order = np.argsort(self.run_ids, kind="stable")
        for name in ("run_ids", "run_task", "run_flow", "run_kind"):
            setattr(self, name, getattr(self, name)[order])
        self.run_row = {int(r): i for i, r in enumerate(self.run_ids)}
        self.task_row = {int(t): i for i, t in enumerate(self.task_ids)}
        groups = collections.defaultdict(list)
        for i, t in enumerate(self.run_task):
            groups[int(t)].append(i)
        self.runs_of_task = {t: np.asarray(v, dtype=np.int64) for t, v in groups.items()}

    @property
    def n_tasks(self) -> int:
        return int(self.task_qualifies.sum())

    def dataset_of(self, tid: int) -> int:
        return int(self.task_ds[self.task_row[tid]])

    def rows_of_task(self, tid: int) -> int:
        return int(self.ds_rows[self.dataset_of(tid) - 1])

    def add_flows(self, tid: int, n_flows: int, first_flow: int = 90_000) -> list[int]:
        """Give task ``tid`` ``n_flows`` new flows with one good run each (the live server gains runs)."""
        start = int(self.run_ids.max()) + 1
        new = np.arange(start, start + n_flows)
        self.run_ids = np.concatenate([self.run_ids, new])
        self.run_task = np.concatenate([self.run_task, np.full(n_flows, tid)])
        self.run_flow = np.concatenate([self.run_flow, first_flow + np.arange(n_flows)])
        self.run_kind = np.concatenate([self.run_kind, np.zeros(n_flows, dtype=self.run_kind.dtype)])
        self.reindex()
        return [int(r) for r in new]

    def largest_task(self) -> int:
        q = np.flatnonzero(self.task_qualifies)
        return int(self.task_ids[q[np.argmax(self.ds_rows[self.task_ds[q] - 1])]])


def make_world(
    *,
    seed: int = 0,
    n_datasets: int = 426,
    n_tasks: int = 886,
    n_decoys: int = 150,
    first_task: int = 1,
    median_rows: float = 1000.0,
    sigma: float = 0.78,
    big_task_share: float = 0.01,
    p_error: float = 0.03,
    p_nofile: float = 0.03,
    p_broken: float = 0.02,
) -> World:
    """The world of the module docstring (defaults: the paper's scale)."""
    rng = np.random.default_rng([seed, 42])
    rows = dataset_sizes(n_datasets, median=median_rows, sigma=sigma)
    rows = rows[rng.permutation(n_datasets)]
    share = rng.uniform(0.05, 0.5, n_datasets)
    minority = np.clip(np.round(rows * share).astype(np.int64), 10, rows // 2)
    classes = rng.integers(0, len(CLASS_NAMES), n_datasets)
    # tasks: every dataset once, the rest at random; decoys on random datasets
    q_ds = np.concatenate([np.arange(1, n_datasets + 1), rng.integers(1, n_datasets + 1, n_tasks - n_datasets)])
    d_ds = rng.integers(1, n_datasets + 1, n_decoys)
    task_ds = np.concatenate([q_ds, d_ds])
    qualifies = np.r_[np.ones(n_tasks, bool), np.zeros(n_decoys, bool)]
    perm = rng.permutation(len(task_ds))  # task ids interleave qualifying tasks and decoys
    task_ds, qualifies = task_ds[perm], qualifies[perm]
    task_ids = first_task + np.arange(len(task_ds))
    proc = np.ones(len(task_ds), dtype=np.int64)
    decoy_idx = np.flatnonzero(~qualifies)
    proc[decoy_idx[: len(decoy_idx) // 3]] = 2  # 5 x 2-fold CV: not the paper's procedure

    run_task, run_flow, run_kind = [], [], []
    for i, tid in enumerate(task_ids):
        if qualifies[i] or proc[i] == 2:
            n_flows = 30 + int(rng.geometric(0.1)) - 1
        else:
            n_flows = int(rng.integers(5, 30))
        big = qualifies[i] and rng.random() < big_task_share
        per_flow = (np.full(n_flows, int(rng.integers(1100, 2500)) // n_flows + 1) if big
                    else 1 + rng.poisson(0.6, n_flows))
        flows = rng.choice(np.arange(1, 8000), n_flows, replace=False)  # flow ids shared across tasks
        for f, k in zip(flows, per_flow, strict=True):
            kinds = rng.choice([OK, ERROR, NOFILE, NAN, MISSING], int(k),
                               p=[1 - p_error - p_nofile - p_broken, p_error, p_nofile, p_broken / 2, p_broken / 2])
            kinds[-1] = OK  # every flow has a good run
            run_task += [tid] * int(k)
            run_flow += [int(f)] * int(k)
            run_kind += kinds.tolist()
    n_runs = len(run_task)
    run_ids = 1 + rng.permutation(n_runs * 3)[:n_runs]  # run ids interleave across tasks, as on OpenML
    return World(seed, rows, minority, classes, task_ids, task_ds, proc, qualifies, run_ids,
                 np.asarray(run_task), np.asarray(run_flow), np.asarray(run_kind, dtype=np.int8))


# --------------------------------------------------------------------------- content


def _fmt_weka(v: float) -> str:
    if 0 < v < 1e-3:
        m, e = f"{v:.4E}".split("E")
        return f"{m}E{int(e)}"
    return f"{v:.6g}"


def _fmt_mlr(v: float) -> str:
    return str(int(v)) if v in (0.0, 1.0) else repr(v)


def write_predictions(t: Task, p1: np.ndarray, style: str, order: np.ndarray, *, nan_rows: np.ndarray | None = None,
                      drop_rows: np.ndarray | None = None) -> bytes:
    """A predictions ARFF of repeat 0 (rows in ``order``) in one of the three layouts; vectorised enough."""
    c0, c1 = t.classes
    conf_order = [c0, c1] if style != "sklearn" else [c1, c0]
    quote = _dq if style == "sklearn" else _q
    head = ["% generated predictions", f"@RELATION openml_task_{t.task_id}_predictions", "",
            "@ATTRIBUTE repeat NUMERIC", "@ATTRIBUTE fold NUMERIC", "@ATTRIBUTE row_id NUMERIC"]
    head += [f"@ATTRIBUTE {quote('confidence.' + c)} NUMERIC" for c in conf_order]
    nominal = "{" + ",".join(quote(c) for c in t.classes) + "}"
    head.append(f"@ATTRIBUTE prediction {nominal}")
    if style != "mlr":
        head.append(f"@ATTRIBUTE correct {nominal}")
    head += ["", "@DATA", ""]
    fmt = {"weka": _fmt_weka, "mlr": _fmt_mlr}.get(style, repr)
    sep = ", " if style == "mlr" else ","
    if drop_rows is not None and len(drop_rows):
        order = order[~np.isin(order, drop_rows)]
    p = p1[order]
    s1 = [fmt(v) for v in p.tolist()]
    s0 = [fmt(v) for v in (1.0 - p).tolist()]
    if nan_rows is not None and len(nan_rows):
        pos = np.flatnonzero(np.isin(order, nan_rows))
        for j in pos:
            s1[j] = s0[j] = "?"
    qc = (quote(c0), quote(c1))
    pred = [qc[int(b)] for b in (p >= 0.5).tolist()]
    folds = t.folds[0][order].tolist()
    ids = order.tolist()
    first, second = (s0, s1) if style != "sklearn" else (s1, s0)
    if style == "mlr":
        lines = [f"0{sep}{f}{sep}{i}{sep}{a}{sep}{b}{sep}{pr}" for f, i, a, b, pr in zip(folds, ids, first, second, pred,
                                                                                          strict=True)]
    else:
        truth = [qc[int(v)] for v in t.y[order].tolist()]
        lines = [f"0,{f},{i},{a},{b},{pr},{tr}" for f, i, a, b, pr, tr in zip(folds, ids, first, second, pred, truth,
                                                                              strict=True)]
    tail = "\n% \n% end\n" if style == "sklearn" else "\n"
    return ("\n".join(head) + "\n".join(lines) + tail).encode()


def dataset_arff_fast(t: Task) -> bytes:
    lines = [f"% generated dataset {t.dataset_name}", f"@RELATION {_q(t.dataset_name)}", ""]
    lines += [f"@ATTRIBUTE x{j} NUMERIC" for j in range(t.X.shape[1])]
    lines += [f"@ATTRIBUTE {_q(t.target)} {{{', '.join(_q(c) for c in t.classes)}}}", "", "@DATA", ""]
    qc = [_q(c) for c in t.classes]
    body = "\n".join(f"{a:.5g},{b:.5g},{qc[c]}" for a, b, c in zip(t.X[:, 0].tolist(), t.X[:, 1].tolist(),
                                                                    t.y.tolist(), strict=True))
    return ("\n".join(lines) + body + "\n").encode()


class Content:
    """Datasets, tasks, runs and files of a :class:`World`, generated on demand (LRU-cached)."""

    def __init__(self, world: World) -> None:
        self.w = world
        self._lock = threading.Lock()

    @functools.lru_cache(maxsize=8)  # noqa: B019 - one Content per server
    def dataset(self, did: int) -> tuple[np.ndarray, np.ndarray]:
        w = self.w
        n, n_min = int(w.ds_rows[did - 1]), int(w.ds_minority[did - 1])
        rng = np.random.default_rng([w.seed, 1, did])
        y = np.zeros(n, dtype=np.int64)
        y[rng.choice(n, n_min, replace=False)] = 1
        minority = int(rng.integers(0, 2))
        if minority == 0:
            y = 1 - y
        X = np.column_stack([(y == minority) + rng.normal(0, 1, n), rng.normal(0, 1, n)])
        return y, X

    @functools.lru_cache(maxsize=8)  # noqa: B019
    def task(self, tid: int) -> Task:
        w = self.w
        i = w.task_row[tid]
        did = int(w.task_ds[i])
        y, X = self.dataset(did)
        t = Task(tid, dataset_id=did, dataset_name=f"dataset-{did}", target="class",
                 classes=CLASS_NAMES[int(w.ds_classes[did - 1])], y=y, X=X, procedure=int(w.task_proc[i]))
        rng = np.random.default_rng([w.seed, 2, tid])
        for rep in range(t.n_repeats):
            folds = np.empty(len(y), dtype=np.int64)
            for cls in (0, 1):
                idx = np.flatnonzero(y == cls)
                rng.shuffle(idx)
                folds[idx] = np.arange(len(idx)) % t.n_folds
            t.folds[rep] = folds
        t.data_file = DATASET_FILE0 + did  # type: ignore[attr-defined]
        return t

    def scores(self, rid: int) -> dict[int, np.ndarray]:
        """P(the task's second class) per row and repeat: a noisy logistic model of the label."""
        w = self.w
        row = w.run_row[rid]
        t = self.task(int(w.run_task[row]))
        rng = np.random.default_rng([w.seed, 3, rid])
        noise = 0.4 + 0.15 * (int(w.run_flow[row]) % 9)
        out = {}
        for rep in range(t.n_repeats):
            z = ((t.y == 1).astype(float) - 0.5) / noise + rng.normal(0, 1, len(t.y))
            p = np.round(1 / (1 + np.exp(-z)), 6)
            p[rng.random(len(p)) < 0.03] = 0.0  # exact zeros and ones, as Weka writes them
            p[rng.random(len(p)) < 0.03] = 1.0
            p[rng.random(len(p)) < 0.01] = 5e-5  # 5.0000E-5 in the Weka layout
            out[rep] = p
        return out

    @functools.lru_cache(maxsize=256)  # noqa: B019
    def run(self, rid: int) -> Run:
        """The run as the server describes it (no file content; ``arff`` is b'' when it has a file)."""
        w = self.w
        row = w.run_row[rid]
        tid, fid, kind = int(w.run_task[row]), int(w.run_flow[row]), int(w.run_kind[row])
        r = Run(rid, tid, fid, f"flow.number_{fid}(1)", None if kind == NOFILE else b"",
                error_message="Run failed: OutOfMemoryError" if kind == ERROR else "", file_id=rid)
        if kind in (OK, MISSING):
            t = self.task(tid)
            r.auroc, r.fold_auroc = server_evaluations(t, {0: self.scores(rid)[0]})
        return r

    def predictions(self, rid: int) -> bytes:
        w = self.w
        row = w.run_row[rid]
        tid, kind = int(w.run_task[row]), int(w.run_kind[row])
        t = self.task(tid)
        rng = np.random.default_rng([w.seed, 4, rid])
        order = np.lexsort((rng.random(len(t.y)), t.folds[0]))
        bad = rng.choice(len(t.y), max(1, len(t.y) // 500), replace=False)
        style = STYLES[int(w.run_flow[row]) % 3]
        return write_predictions(t, self.scores(rid)[0], style, order,
                                 nan_rows=bad if kind == NAN else None, drop_rows=bad if kind == MISSING else None)

    @functools.lru_cache(maxsize=4)  # noqa: B019
    def dataset_file(self, did: int) -> bytes:
        tid = int(self.w.task_ids[np.flatnonzero(self.w.task_ds == did)[0]])
        return dataset_arff_fast(self.task(tid))


# --------------------------------------------------------------------------- the server


class _LazyRuns:
    def __init__(self, srv: LoopbackOpenML) -> None:
        self.srv = srv

    def get(self, rid: int, default: Any = None) -> Run | None:
        if rid not in self.srv.world.run_row or rid in self.srv.world.gone:
            return default
        return self.srv.content.run(rid)


class _LazyTasks:
    def __init__(self, srv: LoopbackOpenML) -> None:
        self.srv = srv

    def get(self, tid: int, default: Any = None) -> Task | None:
        return self.srv.content.task(tid) if tid in self.srv.world.task_row else default

    def __getitem__(self, tid: int) -> Task:
        return self.srv.content.task(tid)


class _LazyFiles:
    def __init__(self, srv: LoopbackOpenML) -> None:
        self.srv = srv

    def get(self, fid: int, default: Any = None) -> tuple[str, bytes] | None:
        w = self.srv.world
        if fid > DATASET_FILE0:
            return (f"dataset_{fid - DATASET_FILE0}.arff", self.srv.content.dataset_file(fid - DATASET_FILE0))
        if fid in w.run_row and fid not in w.gone and int(w.run_kind[w.run_row[fid]]) not in (NOFILE, ERROR):
            return (f"predictions_run_{fid}.arff", self.srv.content.predictions(fid))
        return default

    def __getitem__(self, fid: int) -> tuple[str, bytes]:
        got = self.get(fid)
        if got is None:
            raise KeyError(fid)
        return got


class _ShapedHandler(_Handler):
    """The test server's handler with latency, a bandwidth cap, random refusals/drops and byte counts."""

    def _get(self) -> None:
        fake: LoopbackOpenML = self.server.fake  # type: ignore[assignment]
        kind = fake._draw_failure()
        if kind == "drop":
            fake._record(self.path.split("?", 1)[0])
            self.close_connection = True
            try:
                self.connection.shutdown(2)
            except OSError:
                pass
            return
        if kind == "refuse":
            fake._record(self.path.split("?", 1)[0])
            self._send(503, b"<html><body><h1>503 Service Unavailable</h1></body></html>", "text/html")
            return
        if fake.latency:
            time.sleep(fake.latency)
        super()._get()

    def _send(self, status: int, body: bytes, ctype: str) -> None:
        fake: LoopbackOpenML = self.server.fake  # type: ignore[assignment]
        if not fake.bandwidth:
            super()._send(status, body, ctype)
            fake._sent(len(body))
            return
        import gzip

        gz = "xml" in ctype and "gzip" in self.headers.get("Accept-Encoding", "")
        if gz:
            body = gzip.compress(body)
        extra: dict[str, str] = {}
        if not gz:
            status, body, extra = self._ranged(status, body)
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        if gz:
            self.send_header("Content-Encoding", "gzip")
        else:
            self.send_header("Accept-Ranges", "bytes")
        for k, v in extra.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        chunk = max(1024, int(fake.bandwidth // 20))
        if not body:
            self._served()
        self.end_headers()
        for k in range(0, max(len(body) - 1, 0), chunk):
            part = body[k:min(k + chunk, len(body) - 1)]
            self.wfile.write(part)
            time.sleep(len(part) / fake.bandwidth)
        if body:
            self._served()
            self.wfile.write(body[-1:])
        fake._sent(len(body))


class LoopbackOpenML(FakeOpenML):
    """The test server serving a :class:`World`; see the module docstring."""

    def __init__(self, world: World | None = None, *, latency: float = 0.0, bandwidth: float = 0.0,
                 fail_rate: float = 0.0, fail_kind: str = "mixed", fail_seed: int = 0, port: int = 0,
                 page_limit: int = 1000) -> None:
        super().__init__([], page_limit=page_limit)
        self._srv.server_close()  # rebuild with the shaped handler (and a chosen port)
        from openml_server import _Server

        self._srv = _Server(("127.0.0.1", port), _ShapedHandler)
        self._srv.fake = self
        self._thread = threading.Thread(target=self._srv.serve_forever, daemon=True)
        self.world = world if world is not None else make_world()
        self.content = Content(self.world)
        self.tasks = _LazyTasks(self)  # type: ignore[assignment]
        self.runs = _LazyRuns(self)  # type: ignore[assignment]
        self.files = _LazyFiles(self)  # type: ignore[assignment]
        self.latency, self.bandwidth = float(latency), float(bandwidth)
        if fail_kind not in ("refuse", "drop", "mixed"):
            raise ValueError(f"fail_kind={fail_kind!r}: use refuse, drop or mixed")
        self.fail_rate, self.fail_kind = float(fail_rate), fail_kind
        self._fail_rng = np.random.default_rng([fail_seed, 7])
        self.failures = collections.Counter()
        self.bytes_sent = 0

    # ---------------------------------------------------------------- accounting
    def _draw_failure(self) -> str | None:
        if not self.fail_rate:
            return None
        with self._lock:
            if self._fail_rng.random() >= self.fail_rate:
                return None
            kind = self.fail_kind if self.fail_kind != "mixed" else ("refuse", "drop")[int(self._fail_rng.random() < 0.5)]
            self.failures[kind] += 1
            return kind

    def _sent(self, n: int) -> None:
        with self._lock:
            self.bytes_sent += n

    def per_path(self) -> collections.Counter:
        with self._lock:
            return collections.Counter(self.paths)

    def file_downloads(self) -> collections.Counter:
        """Requests per downloaded file id (predictions and datasets)."""
        out: collections.Counter = collections.Counter()
        for p, k in self.per_path().items():
            m = re.fullmatch(r"/data/download/(\d+)/[^/]*", p)
            if m:
                out[int(m.group(1))] += k
        return out

    # ---------------------------------------------------------------- routing
    def _api(self, call: str) -> str | tuple[int, bytes, str]:
        parts = call.split("/")
        if parts[0] == "data" and len(parts) in (2, 3):
            did = int(parts[-1]) if parts[-1].isdigit() else -1
            if not 1 <= did <= len(self.world.ds_rows):
                return self._error(111, "Unknown dataset")
            t = self.content.task(int(self.world.task_ids[np.flatnonzero(self.world.task_ds == did)[0]]))
            if len(parts) == 2:
                return self._data_xml(t)
            if parts[1] == "features":
                return self._features_xml(t)
            if parts[1] == "qualities":
                return self._qualities_xml(t)
        return super()._api(call)

    def _task_list(self, f: dict[str, str]) -> str | tuple[int, bytes, str]:
        from xml.sax.saxutils import escape

        from openml_server import NS

        known = {"type", "tag", "number_classes", "limit", "offset", "status", "data_id"}
        if set(f) - known:
            return self._error(480, "Illegal filter specified")
        w = self.world
        idx = np.arange(len(w.task_ids))
        if "type" in f and int(f["type"]) != 1 or "tag" in f or "number_classes" in f and f["number_classes"] != "2":
            idx = idx[:0]
        page = self._page(f, len(idx))
        if isinstance(page, tuple):
            return page
        idx = idx[page]
        if not len(idx):
            return self._error(482, "No results")
        items = []
        for i in idx:
            tid, did = int(w.task_ids[i]), int(w.task_ds[i])
            n, n_min = int(w.ds_rows[did - 1]), int(w.ds_minority[did - 1])
            q = {"NumberOfClasses": 2, "NumberOfInstances": n, "MajorityClassSize": n - n_min,
                 "MinorityClassSize": n_min, "NumberOfFeatures": 3, "NumberOfMissingValues": 0}
            items.append(
                f"<oml:task><oml:task_id>{tid}</oml:task_id><oml:task_type_id>1</oml:task_type_id>"
                f"<oml:task_type>Supervised Classification</oml:task_type><oml:did>{did}</oml:did>"
                f"<oml:name>{escape(f'dataset-{did}')}</oml:name><oml:status>active</oml:status><oml:format>ARFF</oml:format>"
                f'<oml:input name="estimation_procedure">{int(w.task_proc[i])}</oml:input>'
                f'<oml:input name="target_feature">class</oml:input>'
                + "".join(f'<oml:quality name="{k}">{v}.0</oml:quality>' for k, v in q.items())
                + "</oml:task>")
        return f"<oml:tasks {NS}>{''.join(items)}</oml:tasks>"

    def _run_list(self, f: dict[str, str]) -> str | tuple[int, bytes, str]:
        from xml.sax.saxutils import escape

        from openml_server import NS

        known = {"task", "flow", "limit", "offset", "show_errors", "run", "setup", "uploader"}
        if set(f) - known:
            return self._error(510, "Illegal filter specified")
        w = self.world
        if "task" not in f:
            return self._error(510, "the loopback server lists runs by task only")
        rows = np.concatenate([w.runs_of_task.get(int(x), np.zeros(0, np.int64)) for x in f["task"].split(",")])
        rows = np.sort(rows)
        if "flow" in f:
            rows = rows[np.isin(w.run_flow[rows], [int(x) for x in f["flow"].split(",")])]
        if f.get("show_errors") != "true":
            rows = rows[w.run_kind[rows] != ERROR]
        if w.gone:
            rows = rows[~np.isin(w.run_ids[rows], list(w.gone))]
        page = self._page(f, len(rows))
        if isinstance(page, tuple):
            return page
        rows = rows[page]
        if not len(rows):
            return self._error(512, "No results")
        err = escape("Run failed: OutOfMemoryError")
        items = "".join(
            f"<oml:run><oml:run_id>{r}</oml:run_id><oml:task_id>{t}</oml:task_id>"
            f"<oml:task_type_id>1</oml:task_type_id><oml:setup_id>{r}</oml:setup_id>"
            f"<oml:flow_id>{fl}</oml:flow_id><oml:uploader>1</oml:uploader>"
            f"<oml:upload_time>2015-01-01 00:00:00</oml:upload_time>"
            f"<oml:error_message>{err if k == ERROR else ''}</oml:error_message>"
            f"<oml:run_details></oml:run_details></oml:run>"
            for r, t, fl, k in zip(w.run_ids[rows].tolist(), w.run_task[rows].tolist(), w.run_flow[rows].tolist(),
                                   w.run_kind[rows].tolist(), strict=True))
        return f"<oml:runs {NS}>{items}</oml:runs>"


def sha256_bytes(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def main(argv: list[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(description="Serve a paper-scale loopback OpenML on 127.0.0.1.")
    p.add_argument("--port", type=int, default=8080)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--latency", type=float, default=0.0, help="seconds added to every answer")
    p.add_argument("--bandwidth", type=float, default=0.0, help="bytes/s per connection (0 = unlimited)")
    p.add_argument("--fail-rate", type=float, default=0.0)
    p.add_argument("--fail-kind", default="mixed", choices=["refuse", "drop", "mixed"])
    a = p.parse_args(argv)
    srv = LoopbackOpenML(make_world(seed=a.seed), latency=a.latency, bandwidth=a.bandwidth,
                         fail_rate=a.fail_rate, fail_kind=a.fail_kind, port=a.port)
    with srv:
        print(f"loopback OpenML at {srv.url}: {srv.world.n_tasks} tasks, {len(srv.world.run_ids)} runs", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
