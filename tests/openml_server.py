"""A loopback OpenML server for the tests, and the fixtures it serves.

:class:`FakeOpenML` answers the parts of the OpenML REST API (XML flavour) that
``prspace.openml`` and the real ``openml`` client use, in OpenML's own
formats: ``estimationprocedure/list``, ``task/list/...`` (412/482 when empty),
``task/{id}``, ``data/{id}``, ``data/features/{id}``, ``data/qualities/{id}``,
``run/list/...`` (412/512 when empty), ``run/{id}`` (with the server's
``area_under_roc_curve``, overall and per fold), ``study/{id}`` and
``/data/download/{file_id}/{name}`` files.  XML bodies are gzip-encoded as on openml.org.

Listings follow the live server's rules since the PHP API 1.2.6 (openml/OpenML PR #1294):
at most ``page_limit`` (1,000) rows a call; a larger ``limit`` is HTTP 412 code 516, a
query without ``limit`` matching more than 1,000 rows code 513, an offset without a
limit code 515.

The evaluations are computed here, independently of prspace, as OpenML's evaluation
engine does (``EvaluateBatchPredictions.java``: one evaluation of all predictions pooled
over every repeat and fold, one per (repeat, fold)), with the Mann-Whitney rank formula
(scipy's ``rankdata``, ties averaged), printed with 6 decimals.

It counts requests and injects faults on request paths matching a regular
expression: ``"500"`` (HTTP 500 with an HTML body), ``"stall"`` (no answer for
``stall_seconds``), ``"truncate"`` (full ``Content-Length`` header, half the body),
``"gone"`` (HTTP 412 with OpenML error 220, unknown run).

:func:`make_task` generates a binary task with a dataset and runs of many flows,
with predictions written the ways Weka, mlr and scikit-learn runs write them.
Nothing here is copied from OpenML; it is generated from a seed.
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import http.server
import re
import sys
import threading
import time
from typing import Any
from xml.sax.saxutils import escape

import numpy as np

NS = 'xmlns:oml="http://openml.org/openml"'
PROCEDURES = {1: ("10-fold Crossvalidation", 10, 1), 2: ("5 times 2-fold Crossvalidation", 2, 5),
              3: ("10 times 10-fold Crossvalidation", 10, 10), 9: ("2 times 10-fold Crossvalidation", 10, 2)}


def _q(name: str) -> str:
    """ARFF-quote a name (single quotes, backslash escapes) when it needs it."""
    if re.fullmatch(r"[A-Za-z0-9_.\-]+", name):
        return name
    return "'" + name.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _dq(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclasses.dataclass
class Run:
    run_id: int
    task_id: int
    flow_id: int
    flow_name: str
    arff: bytes | None  # None: no predictions file (openml-python #309)
    error_message: str = ""
    file_id: int = 0
    auroc: float | None = None  # the server's overall area_under_roc_curve
    fold_auroc: dict[tuple[int, int], float] = dataclasses.field(default_factory=dict)  # (repeat, fold) ->


def rank_auroc(y: np.ndarray, score: np.ndarray) -> float:
    """AUROC by the Mann-Whitney U statistic with average ranks for ties (scipy)."""
    from scipy.stats import rankdata

    y = np.asarray(y, bool)
    n1, n0 = int(y.sum()), int((~y).sum())
    if n1 == 0 or n0 == 0:
        return float("nan")  # one class: the engine reports no AUROC
    r = rankdata(score)
    return float((r[y].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def server_evaluations(t: Task, scores: dict[int, np.ndarray]) -> tuple[float, dict[tuple[int, int], float]]:
    """What OpenML's engine reports for a run whose P(class 1) per repeat is ``scores``."""
    ys, ss, folds = [], [], {}
    for rep, p1 in scores.items():
        y = t.y == 1
        ys.append(y)
        ss.append(p1)
        for f in range(t.n_folds):
            m = t.folds[rep] == f
            if 0 < y[m].sum() < m.sum():
                folds[(rep, f)] = rank_auroc(y[m], p1[m])
    return rank_auroc(np.concatenate(ys), np.concatenate(ss)), folds


@dataclasses.dataclass
class Task:
    task_id: int
    dataset_id: int
    dataset_name: str
    target: str
    classes: tuple[str, str]
    y: np.ndarray  # class index per row
    X: np.ndarray
    procedure: int = 1
    task_type: int = 1
    tags: tuple[str, ...] = ()
    runs: list[Run] = dataclasses.field(default_factory=list)
    folds: dict[int, np.ndarray] = dataclasses.field(default_factory=dict)  # repeat -> fold per row

    @property
    def n_folds(self) -> int:
        return PROCEDURES[self.procedure][1]

    @property
    def n_repeats(self) -> int:
        return PROCEDURES[self.procedure][2]


def dataset_arff(t: Task) -> bytes:
    lines = [f"% generated test dataset {t.dataset_name}", f"@RELATION {_q(t.dataset_name)}", ""]
    for j in range(t.X.shape[1]):
        lines.append(f"@ATTRIBUTE x{j} NUMERIC")
    lines.append(f"@ATTRIBUTE {_q(t.target)} {{{', '.join(_q(c) for c in t.classes)}}}")
    lines += ["", "@DATA"]
    for xi, yi in zip(t.X, t.y, strict=True):
        lines.append(",".join(f"{v:.6g}" for v in xi) + "," + _q(t.classes[yi]))
    return ("\n".join(lines) + "\n").encode()


def predictions_arff(t: Task, scores: dict[int, np.ndarray], style: str, *, rng: np.random.Generator) -> bytes:
    """A predictions file for task ``t``; ``scores[repeat]`` = P(class 1) per row.

    Styles: ``weka`` (single quotes, 1.0E-4 numbers, correct last), ``sklearn``
    (confidence columns in reverse order, double quotes, '%' comment lines after the
    data), ``mlr`` (no ``correct`` column, integers for 0/1, spaces after commas).
    """
    c0, c1 = t.classes[:2]  # multi-class fixtures are never fetched, only judged
    conf_order = [c0, c1] if style != "sklearn" else [c1, c0]
    quote = _dq if style == "sklearn" else _q
    head = ["% generated predictions", f"@RELATION openml_task_{t.task_id}_predictions", "",
            "@ATTRIBUTE repeat NUMERIC", "@ATTRIBUTE fold NUMERIC", "@ATTRIBUTE row_id NUMERIC"]
    for c in conf_order:
        head.append(f"@ATTRIBUTE {quote('confidence.' + c)} NUMERIC")
    nominal = "{" + ",".join(quote(c) for c in t.classes) + "}"
    head.append(f"@ATTRIBUTE prediction {nominal}")
    if style != "mlr":
        head.append(f"@ATTRIBUTE correct {nominal}")
    head += ["", "@DATA"]
    out = ["\n".join(head)]
    sep = ", " if style == "mlr" else ","

    def num(v: float) -> str:
        if style == "weka":
            return f"{v:.4E}".replace("E-0", "E-").replace("E+00", "") if 0 < v < 1e-3 else f"{v:.6g}"
        if style == "mlr" and v in (0.0, 1.0):
            return str(int(v))
        return repr(float(v))

    for rep, p1 in scores.items():
        folds = t.folds[rep]
        order = np.lexsort((rng.random(len(p1)), folds))
        for i in order:
            p = {c1: float(p1[i]), c0: float(1 - p1[i])}
            pred = c1 if p1[i] >= 0.5 else c0
            vals = [str(rep), str(int(folds[i])), str(int(i))] + [num(p[c]) for c in conf_order]
            vals.append(quote(pred))
            if style != "mlr":
                vals.append(quote(t.classes[t.y[i]]))
            out.append(sep.join(vals))
    if style == "sklearn":
        out += ["% ", "% end"]
    return ("\n".join(out) + "\n").encode()


def make_task(
    task_id: int,
    *,
    n_flows: int,
    n_rows: int = 80,
    seed: int = 0,
    classes: tuple[str, str] = ("neg 'x'", "pos.y z"),
    minority: int = 1,
    procedure: int = 1,
    runs_per_flow: int = 1,
    first_flow: int = 1000,
    first_run: int | None = None,
    tags: tuple[str, ...] = (),
    n_classes: int = 2,
) -> Task:
    """A binary task whose dataset has ``n_rows`` rows and runs from ``n_flows`` flows."""
    rng = np.random.default_rng([seed, task_id])
    n_min = n_rows // 3
    y = np.zeros(n_rows, dtype=int) + (1 - minority)
    y[rng.choice(n_rows, n_min, replace=False)] = minority
    X = np.column_stack([y + rng.normal(0, 1, n_rows), rng.normal(0, 1, n_rows)])
    t = Task(task_id, dataset_id=task_id + 50_000, dataset_name=f"data-{task_id}", target="the class",
             classes=classes, y=y, X=X, procedure=procedure, tags=tags)
    if n_classes != 2:
        t.classes = tuple(f"c{k}" for k in range(n_classes))  # type: ignore[assignment]
    for rep in range(t.n_repeats):
        folds = np.empty(n_rows, dtype=int)
        for cls in (0, 1):
            idx = np.flatnonzero(y == cls)
            rng.shuffle(idx)
            folds[idx] = np.arange(len(idx)) % t.n_folds
        t.folds[rep] = folds
    rid = first_run if first_run is not None else task_id * 1000
    t.runs += make_runs(t, n_flows=n_flows, runs_per_flow=runs_per_flow, first_flow=first_flow,
                        first_run=rid + 1, rng=rng, minority=minority)
    return t


def make_runs(t: Task, *, n_flows: int, runs_per_flow: int = 1, first_flow: int, first_run: int,
              rng: np.random.Generator, minority: int = 1) -> list[Run]:
    """Runs of ``n_flows`` new flows on task ``t`` (not yet added to it or to a server)."""
    X, n_rows = t.X, len(t.y)
    styles = ["weka", "sklearn", "mlr"]
    out = []
    rid = first_run - 1
    for k in range(n_flows):
        fid = first_flow + k
        for _j in range(runs_per_flow):
            rid += 1
            noise = 0.3 + 0.1 * (k % 7)
            scores = {}
            for rep in range(t.n_repeats):
                z = (X[:, 0] - 0.5) / noise + rng.normal(0, 1, n_rows)
                p = 1 / (1 + np.exp(-z))
                if minority == 0:
                    p = 1 - p
                p = np.round(p, 6)
                p[rng.random(n_rows) < 0.05] = 0.0  # exact zeros and ones, as Weka writes them
                p[rng.random(n_rows) < 0.05] = 1.0
                p[rng.random(n_rows) < 0.03] = 5e-5  # written as 5.0000E-5 by the weka style
                scores[rep] = p
            arff = predictions_arff(t, scores, styles[k % 3], rng=rng)
            run = Run(rid, t.task_id, fid, f"flow.number_{fid}(1)", arff)
            if len(t.classes) == 2:
                run.auroc, run.fold_auroc = server_evaluations(t, scores)
            out.append(run)
    return out


class _Handler(http.server.BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def do_GET(self) -> None:  # noqa: N802
        """Answer the request, counted in flight from its request line until just before its last byte is
        written (:meth:`_write_body`): within the time the client waits for it, so that the most requests
        the server counts at once is never more than the client had open (a later end, after the client
        has its answer and has sent its next request, would count one request twice)."""
        self._span: tuple[float, str] | None = (self.server.fake._begin(), self.path.split("?", 1)[0])
        try:
            self._get()
        finally:
            self._served()

    def _served(self) -> None:
        """This request leaves the in-flight count (once)."""
        if self._span is not None:
            self.server.fake._end(*self._span)
            self._span = None

    def _write_body(self, body: bytes) -> None:
        """The headers and ``body``, the request leaving the in-flight count before the last byte."""
        if not body:
            self._served()
        self.end_headers()
        if body:
            self.wfile.write(body[:-1])
            self._served()
            self.wfile.write(body[-1:])

    def _get(self) -> None:
        fake = self.server.fake
        path = self.path.split("?", 1)[0]
        fake._record(path)
        fault = fake._take_fault(path)
        if fault == "stall":
            time.sleep(fake.stall_seconds)
            try:
                self._send(500, b"<html><body>stalled</body></html>", "text/html")
            except OSError:
                pass
            return
        if fault == "500":
            self._send(500, b"<html><head><title>500 Internal Server Error</title></head>"
                            b"<body><h1>Internal Server Error</h1></body></html>", "text/html")
            return
        if fault == "gone":
            self._send(*fake._error(220, "Unknown run"))
            return
        status, body, ctype = fake.route(path)
        if fault == "truncate":
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self._send(status, body, ctype)

    def _ranged(self, status: int, body: bytes) -> tuple[int, bytes, dict[str, str]]:
        """A ``Range: bytes=N-`` request of a whole file (status 200) answered as the live file servers do:
        ``206`` with the bytes from N and ``Content-Range: bytes N-(L-1)/L``; ``416`` for N >= L; recorded
        in ``fake.ranges`` as (path, N)."""
        m = re.fullmatch(r"bytes=(\d+)-", self.headers.get("Range", "").strip())
        if status != 200 or m is None:
            return status, body, {}
        start = int(m[1])
        self.server.fake.ranges.append((self.path.split("?", 1)[0], start))
        if start >= len(body):
            return 416, b"", {"Content-Range": f"bytes */{len(body)}"}
        return 206, body[start:], {"Content-Range": f"bytes {start}-{len(body) - 1}/{len(body)}"}

    def _send(self, status: int, body: bytes, ctype: str) -> None:
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
        self._write_body(body)


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeOpenML

    def handle_error(self, request: Any, client_address: Any) -> None:
        # socketserver prints a traceback framed by dashes to sys.stderr, which is the
        # stream the tests read the CLI's one-line error from.  A client that hangs up
        # on a kept-alive connection is normal traffic; anything else is kept for the test.
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            return
        self.fake.handler_errors.append(repr(exc))


class FakeOpenML:
    """The fake server.  ``url`` is the API base (``http://127.0.0.1:PORT/api/v1/xml``)."""

    def __init__(self, tasks: list[Task] | None = None, *, page_limit: int = 1000) -> None:
        self.tasks: dict[int, Task] = {}
        self.runs: dict[int, Run] = {}
        self.files: dict[int, tuple[str, bytes]] = {}
        self.studies: dict[str, tuple[str, list[int]]] = {}  # id or alias -> (entity type, task ids)
        self.paths: list[str] = []
        self.ranges: list[tuple[str, int]] = []  # (path, first byte) of every ``Range`` request of a file
        self.handler_errors: list[str] = []  # unexpected exceptions in the handler threads
        self.faults: list[list[Any]] = []  # [regex, kind, remaining]
        self.stall_seconds = 3.0
        self.page_limit = page_limit  # the server's maximum rows per listing call (live: 1,000)
        self._lock = threading.Lock()
        self.in_flight = 0  # requests being answered now
        self.max_in_flight = 0  # the most at once since the last reset_count()
        self.spans: list[tuple[float, float, str]] = []  # (start, end, path) of every answer, monotonic clock
        self._next_file = 1
        for t in tasks or []:
            self.add_task(t)
        self._srv = _Server(("127.0.0.1", 0), _Handler)
        self._srv.fake = self
        self._thread = threading.Thread(target=self._srv.serve_forever, daemon=True)

    # --------------------------------------------------------------- control
    def __enter__(self) -> FakeOpenML:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._srv.shutdown()
        self._srv.server_close()
        if exc[0] is None and self.handler_errors:
            raise AssertionError(f"the fake OpenML server's handler raised: {self.handler_errors}")

    @property
    def base(self) -> str:
        host, port = self._srv.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def url(self) -> str:
        return self.base + "/api/v1/xml"

    @property
    def count(self) -> int:
        with self._lock:
            return len(self.paths)

    def reset_count(self) -> None:
        with self._lock:
            self.paths.clear()
            self.spans.clear()
            self.max_in_flight = self.in_flight

    def _begin(self) -> float:
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        return time.monotonic()

    def _end(self, t0: float, path: str) -> None:
        t1 = time.monotonic()
        with self._lock:
            self.in_flight -= 1
            self.spans.append((t0, t1, path))

    def fault(self, pattern: str, kind: str, times: int = 1) -> None:
        """The next ``times`` requests whose path matches ``pattern`` get fault ``kind``."""
        with self._lock:
            self.faults.append([re.compile(pattern), kind, times])

    def _record(self, path: str) -> None:
        with self._lock:
            self.paths.append(path)

    def _take_fault(self, path: str) -> str | None:
        with self._lock:
            for f in self.faults:
                if f[2] > 0 and f[0].search(path):
                    f[2] -= 1
                    return f[1]
        return None

    def add_task(self, t: Task) -> None:
        self.tasks[t.task_id] = t
        t.data_file = self._add_file(f"dataset_{t.dataset_id}.arff", dataset_arff(t))  # type: ignore[attr-defined]
        for r in t.runs:
            self.add_run(r)

    def add_run(self, r: Run) -> None:
        self.runs[r.run_id] = r
        if r.arff is not None:
            r.file_id = self._add_file(f"predictions_run_{r.run_id}.arff", r.arff)

    def _add_file(self, name: str, body: bytes) -> int:
        fid = self._next_file
        self._next_file += 1
        self.files[fid] = (name, body)
        return fid

    # --------------------------------------------------------------- routing
    def route(self, path: str) -> tuple[int, bytes, str]:
        m = re.fullmatch(r"/data/download/(\d+)/[^/]*", path)
        if m:
            f = self.files.get(int(m.group(1)))
            if f is None:
                return 404, b"<html><body>404 Not Found</body></html>", "text/html"
            return 200, f[1], "text/plain; charset=utf-8"
        if not path.startswith("/api/v1/xml/"):
            return 404, b"<html><body>404 Not Found</body></html>", "text/html"
        call = path[len("/api/v1/xml/"):].strip("/")
        xml = self._api(call)
        if isinstance(xml, tuple):
            return xml
        return 200, xml.encode(), "text/xml; charset=utf-8"

    @staticmethod
    def _error(code: int, message: str, status: int = 412) -> tuple[int, bytes, str]:
        body = (f'<oml:error {NS}>\n  <oml:code>{code}</oml:code>\n'
                f'  <oml:message>{escape(message)}</oml:message>\n</oml:error>\n')
        return status, body.encode(), "text/xml; charset=utf-8"

    def _api(self, call: str) -> str | tuple[int, bytes, str]:
        parts = call.split("/")
        if call == "estimationprocedure/list":
            items = "".join(
                f"<oml:estimationprocedure><oml:id>{i}</oml:id><oml:ttid>1</oml:ttid>"
                f"<oml:name>{n}</oml:name><oml:type>crossvalidation</oml:type><oml:repeats>{r}</oml:repeats>"
                f"<oml:folds>{f}</oml:folds><oml:stratified_sampling>true</oml:stratified_sampling>"
                f"</oml:estimationprocedure>" for i, (n, f, r) in PROCEDURES.items())
            return f"<oml:estimationprocedures {NS}>{items}</oml:estimationprocedures>"
        if parts[:2] == ["task", "list"]:
            return self._task_list(dict(zip(parts[2::2], parts[3::2], strict=False)))
        if parts[:2] == ["run", "list"]:
            return self._run_list(dict(zip(parts[2::2], parts[3::2], strict=False)))
        if len(parts) == 2 and parts[0] == "task" and parts[1].isdigit():
            t = self.tasks.get(int(parts[1]))
            return self._task_xml(t) if t else self._error(151, "Unknown task")
        if len(parts) == 2 and parts[0] == "run" and parts[1].isdigit():
            r = self.runs.get(int(parts[1]))
            return self._run_xml(r) if r else self._error(220, "Unknown run")
        if len(parts) == 2 and parts[0] == "study":
            s = self.studies.get(parts[1])
            if s is None:
                return self._error(601, "Unknown study")
            return self._study_xml(parts[1], *s)
        if parts[0] == "data" and len(parts) in (2, 3):
            did = int(parts[-1]) if parts[-1].isdigit() else -1
            t = next((t for t in self.tasks.values() if t.dataset_id == did), None)
            if t is None:
                return self._error(111, "Unknown dataset")
            if len(parts) == 2:
                return self._data_xml(t)
            if parts[1] == "features":
                return self._features_xml(t)
            if parts[1] == "qualities":
                return self._qualities_xml(t)
        return self._error(100, f"Unknown call {call}", 404)

    def _page(self, f: dict[str, str], n_matches: int) -> slice | tuple[int, bytes, str]:
        """The live paging rules (PHP API 1.2.6): a slice of the matches, or an error answer."""
        if "limit" not in f:
            if "offset" in f:
                return self._error(515, "Offset specified without limit")
            if n_matches > self.page_limit:
                return self._error(513, "Too many results",)
            return slice(0, n_matches)
        lim, off = int(f["limit"]), int(f.get("offset", 0))
        if lim > self.page_limit:
            return self._error(516, "Requested result limit too high")
        return slice(off, off + lim)

    def _task_xml(self, t: Task) -> str:
        name, folds, reps = PROCEDURES[t.procedure]
        tags = "".join(f"<oml:tag>{escape(x)}</oml:tag>" for x in t.tags)
        return f"""<oml:task {NS}>
  <oml:task_id>{t.task_id}</oml:task_id>
  <oml:task_type_id>{t.task_type}</oml:task_type_id>
  <oml:task_type>Supervised Classification</oml:task_type>
  <oml:input name="source_data"><oml:data_set>
    <oml:data_set_id>{t.dataset_id}</oml:data_set_id>
    <oml:target_feature>{escape(t.target)}</oml:target_feature>
  </oml:data_set></oml:input>
  <oml:input name="estimation_procedure"><oml:estimation_procedure>
    <oml:id>{t.procedure}</oml:id>
    <oml:type>crossvalidation</oml:type>
    <oml:data_splits_url>{self.base}/api_splits/get/{t.task_id}/Task_{t.task_id}_splits.arff</oml:data_splits_url>
    <oml:parameter name="number_repeats">{reps}</oml:parameter>
    <oml:parameter name="number_folds">{folds}</oml:parameter>
    <oml:parameter name="percentage"></oml:parameter>
    <oml:parameter name="stratified_sampling">true</oml:parameter>
  </oml:estimation_procedure></oml:input>
  <oml:input name="cost_matrix"><oml:cost_matrix></oml:cost_matrix></oml:input>
  <oml:input name="evaluation_measures"><oml:evaluation_measures>
    <oml:evaluation_measure>predictive_accuracy</oml:evaluation_measure>
  </oml:evaluation_measures></oml:input>
  <oml:output name="predictions"><oml:predictions>
    <oml:format>ARFF</oml:format>
    <oml:feature name="repeat" type="integer"/>
    <oml:feature name="fold" type="integer"/>
    <oml:feature name="row_id" type="integer"/>
    <oml:feature name="confidence.classname" type="numeric"/>
    <oml:feature name="prediction" type="string"/>
  </oml:predictions></oml:output>
  {tags}
</oml:task>
"""

    def _task_list(self, f: dict[str, str]) -> str | tuple[int, bytes, str]:
        known = {"type", "tag", "number_classes", "limit", "offset", "status", "data_id"}
        if set(f) - known:
            return self._error(480, "Illegal filter specified")
        ts = sorted(self.tasks.values(), key=lambda t: t.task_id)
        if "type" in f:
            ts = [t for t in ts if t.task_type == int(f["type"])]
        if "tag" in f:
            ts = [t for t in ts if f["tag"] in t.tags]
        if "number_classes" in f:
            ts = [t for t in ts if len(t.classes) == int(f["number_classes"])]
        page = self._page(f, len(ts))
        if isinstance(page, tuple):
            return page
        ts = ts[page]
        if not ts:
            return self._error(482, "No results")
        items = []
        for t in ts:
            n0 = int((t.y == 0).sum())
            q = {"NumberOfClasses": len(t.classes), "NumberOfInstances": len(t.y),
                 "MajorityClassSize": max(n0, len(t.y) - n0), "MinorityClassSize": min(n0, len(t.y) - n0),
                 "NumberOfFeatures": t.X.shape[1] + 1, "NumberOfMissingValues": 0}
            items.append(
                f"<oml:task><oml:task_id>{t.task_id}</oml:task_id><oml:task_type_id>{t.task_type}</oml:task_type_id>"
                f"<oml:task_type>Supervised Classification</oml:task_type><oml:did>{t.dataset_id}</oml:did>"
                f"<oml:name>{escape(t.dataset_name)}</oml:name><oml:status>active</oml:status><oml:format>ARFF</oml:format>"
                f'<oml:input name="estimation_procedure">{t.procedure}</oml:input>'
                f'<oml:input name="target_feature">{escape(t.target)}</oml:input>'
                + "".join(f'<oml:quality name="{k}">{v}.0</oml:quality>' for k, v in q.items())
                + "".join(f"<oml:tag>{escape(x)}</oml:tag>" for x in t.tags)
                + "</oml:task>")
        return f"<oml:tasks {NS}>{''.join(items)}</oml:tasks>"

    def _run_list(self, f: dict[str, str]) -> str | tuple[int, bytes, str]:
        known = {"task", "flow", "limit", "offset", "show_errors", "run", "setup", "uploader"}
        if set(f) - known:
            return self._error(510, "Illegal filter specified")
        rs = sorted(self.runs.values(), key=lambda r: r.run_id)
        if "task" in f:
            tids = {int(x) for x in f["task"].split(",")}
            rs = [r for r in rs if r.task_id in tids]
        if "flow" in f:
            fids = {int(x) for x in f["flow"].split(",")}
            rs = [r for r in rs if r.flow_id in fids]
        if f.get("show_errors") != "true":
            rs = [r for r in rs if not r.error_message]
        page = self._page(f, len(rs))
        if isinstance(page, tuple):
            return page
        rs = rs[page]
        if not rs:
            return self._error(512, "No results")
        items = "".join(
            f"<oml:run><oml:run_id>{r.run_id}</oml:run_id><oml:task_id>{r.task_id}</oml:task_id>"
            f"<oml:task_type_id>1</oml:task_type_id><oml:setup_id>{r.run_id}</oml:setup_id>"
            f"<oml:flow_id>{r.flow_id}</oml:flow_id><oml:uploader>1</oml:uploader>"
            f"<oml:upload_time>2015-01-01 00:00:00</oml:upload_time>"
            f"<oml:error_message>{escape(r.error_message)}</oml:error_message>"
            f"<oml:run_details></oml:run_details></oml:run>" for r in rs)
        return f"<oml:runs {NS}>{items}</oml:runs>"

    def _run_xml(self, r: Run) -> str:
        t = self.tasks[r.task_id]
        files = (f"<oml:file><oml:did>-1</oml:did><oml:file_id>{r.file_id + 100000}</oml:file_id>"
                 f"<oml:name>description</oml:name><oml:url>{self.base}/data/download/{r.file_id + 100000}/description.xml</oml:url></oml:file>")
        if r.arff is not None:
            files += (f"<oml:file><oml:did>-1</oml:did><oml:file_id>{r.file_id}</oml:file_id>"
                      f"<oml:name>predictions</oml:name>"
                      f"<oml:url>{self.base}/data/download/{r.file_id}/predictions_run_{r.run_id}.arff</oml:url></oml:file>")
        evals = ""
        if r.auroc is not None:
            evals += (f"\n    <oml:evaluation><oml:name>area_under_roc_curve</oml:name><oml:value>{r.auroc:.6f}</oml:value>"
                      f"<oml:array_data>[{r.auroc:.6f},{r.auroc:.6f}]</oml:array_data></oml:evaluation>")
        for (rep, fold), v in sorted(r.fold_auroc.items()):
            evals += (f'\n    <oml:evaluation repeat="{rep}" fold="{fold}"><oml:name>area_under_roc_curve</oml:name>'
                      f"<oml:value>{v:.6f}</oml:value></oml:evaluation>")
        return f"""<oml:run {NS}>
  <oml:run_id>{r.run_id}</oml:run_id>
  <oml:uploader>1</oml:uploader>
  <oml:uploader_name>Test Uploader</oml:uploader_name>
  <oml:task_id>{r.task_id}</oml:task_id>
  <oml:task_type>Supervised Classification</oml:task_type>
  <oml:flow_id>{r.flow_id}</oml:flow_id>
  <oml:flow_name>{escape(r.flow_name)}</oml:flow_name>
  <oml:setup_id>{r.run_id}</oml:setup_id>
  <oml:error>{escape(r.error_message)}</oml:error>
  <oml:setup_string>generated</oml:setup_string>
  <oml:input_data><oml:dataset><oml:did>{t.dataset_id}</oml:did><oml:name>{escape(t.dataset_name)}</oml:name>
    <oml:url>{self.base}/data/download/{t.data_file}/dataset.arff</oml:url></oml:dataset></oml:input_data>
  <oml:output_data>{files}
    <oml:evaluation><oml:name>predictive_accuracy</oml:name><oml:value>0.8</oml:value></oml:evaluation>{evals}
  </oml:output_data>
</oml:run>
"""

    def _data_xml(self, t: Task) -> str:
        body = self.files[t.data_file][1]
        md5 = hashlib.md5(body).hexdigest()  # noqa: S324 - OpenML's checksum
        return f"""<oml:data_set_description {NS}>
  <oml:id>{t.dataset_id}</oml:id>
  <oml:name>{escape(t.dataset_name)}</oml:name>
  <oml:version>1</oml:version>
  <oml:description>Generated test dataset.</oml:description>
  <oml:format>ARFF</oml:format>
  <oml:upload_date>2015-01-01T00:00:00</oml:upload_date>
  <oml:licence>Public</oml:licence>
  <oml:url>{self.base}/data/download/{t.data_file}/dataset_{t.dataset_id}.arff</oml:url>
  <oml:file_id>{t.data_file}</oml:file_id>
  <oml:default_target_attribute>{escape(t.target)}</oml:default_target_attribute>
  <oml:visibility>public</oml:visibility>
  <oml:status>active</oml:status>
  <oml:md5_checksum>{md5}</oml:md5_checksum>
</oml:data_set_description>
"""

    def _features_xml(self, t: Task) -> str:
        feats = [f"<oml:feature><oml:index>{j}</oml:index><oml:name>x{j}</oml:name><oml:data_type>numeric</oml:data_type>"
                 f"<oml:is_target>false</oml:is_target><oml:is_ignore>false</oml:is_ignore><oml:is_row_identifier>false</oml:is_row_identifier>"
                 f"<oml:number_of_missing_values>0</oml:number_of_missing_values></oml:feature>" for j in range(t.X.shape[1])]
        nominal = "".join(f"<oml:nominal_value>{escape(c)}</oml:nominal_value>" for c in t.classes)
        feats.append(f"<oml:feature><oml:index>{t.X.shape[1]}</oml:index><oml:name>{escape(t.target)}</oml:name>"
                     f"<oml:data_type>nominal</oml:data_type>{nominal}<oml:is_target>true</oml:is_target>"
                     f"<oml:is_ignore>false</oml:is_ignore><oml:is_row_identifier>false</oml:is_row_identifier>"
                     f"<oml:number_of_missing_values>0</oml:number_of_missing_values></oml:feature>")
        return f"<oml:data_features {NS}>{''.join(feats)}</oml:data_features>"

    def _qualities_xml(self, t: Task) -> str:
        n0 = int((t.y == 0).sum())
        q = {"NumberOfClasses": len(t.classes), "NumberOfInstances": len(t.y),
             "MinorityClassSize": min(n0, len(t.y) - n0), "MajorityClassSize": max(n0, len(t.y) - n0)}
        items = "".join(f"<oml:quality><oml:name>{k}</oml:name><oml:value>{v}.0</oml:value></oml:quality>" for k, v in q.items())
        return f"<oml:data_qualities {NS}>{items}</oml:data_qualities>"

    def _study_xml(self, ident: str, kind: str, tids: list[int]) -> str:
        sid = int(ident) if ident.isdigit() else 99
        tasks = "".join(f"<oml:task_id>{t}</oml:task_id>" for t in tids)
        return f"""<oml:study {NS}>
  <oml:id>{sid}</oml:id>
  <oml:alias>{escape(ident)}</oml:alias>
  <oml:main_entity_type>{kind}</oml:main_entity_type>
  <oml:name>study {escape(ident)}</oml:name>
  <oml:description>generated</oml:description>
  <oml:status>active</oml:status>
  <oml:creation_date>2015-01-01 00:00:00</oml:creation_date>
  <oml:creator>1</oml:creator>
  <oml:tasks>{tasks}</oml:tasks>
</oml:study>
"""


def guard_loopback(monkeypatch: Any) -> None:
    """Make any attempt to resolve a host other than 127.0.0.1 fail loudly (e.g. www.openml.org)."""
    import socket

    real = socket.getaddrinfo

    def guarded(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host not in ("127.0.0.1", "localhost"):
            raise AssertionError(f"the tests tried to reach {host}")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", guarded)
