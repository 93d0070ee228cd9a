"""The network layer under :mod:`prspace.openml`.

* :func:`configure` points the real ``openml`` client at a server and a cache
  directory, turns off its own retries (they sleep up to a minute and do not cover
  HTTP 5xx with an HTML body, which raises ``KeyError: 'oml:error'``) and gives
  every request it makes a timeout (the client sets none, so a stalled server
  would hang it forever).  Requests are counted.
* :func:`call` runs one client call with retries and exponential backoff on 5xx,
  timeouts, dropped connections and truncated or malformed bodies.
* :func:`download` streams a file to disk with the same retries, checks the body
  against ``Content-Length`` and writes atomically (temp file + rename).
* Every request holds one of ``workers`` slots shared by all processes on the cache (the cap).
"""

from __future__ import annotations

import dataclasses
import fcntl
import logging
import os
import threading
import time
import types
import urllib.parse
import xml.parsers.expat
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import requests
from urllib3.exceptions import ProtocolError, ReadTimeoutError

from prspace.core._io import atomic_path
from prspace.core.errors import InputError
from prspace.openml import connections

log = logging.getLogger("prspace.openml")
T = TypeVar("T")


class OpenMLNetworkError(RuntimeError):
    """The server could not be reached or kept failing after all retries."""


class OpenMLServerRefused(OpenMLNetworkError):
    """The server answered a request with an OpenML error code we cannot work around."""


#: What to do about the OpenML error codes a listing can answer with (PHP API 1.2.6).
_ADVICE = {
    513: "the query matched more rows than the server returns without a limit; prspace always pages "
         "with a limit, so this is a bug: report it",
    515: "the server wants a limit with an offset; prspace always sends both, so this is a bug: report it",
    516: "lower the page size (config openml.page_size, option --page-size) to the server's maximum",
    107: "the server's database is down; try again later",
}


class ServerFileMissing(RuntimeError):
    """The server answered 4xx for a file: it is not there (a broken run, not a network fault)."""


class _Truncated(IOError):
    pass


class _RetryableStatus(IOError):
    pass


@dataclasses.dataclass(frozen=True)
class ClientSettings:
    """Where and how to talk to OpenML."""

    server: str  # e.g. https://www.openml.org/api/v1/xml
    cache_dir: Path
    workers: int = 4  # requests in flight to the server at once, over every job sharing cache_dir
    max_retries: int = 5  # retries after the first attempt
    timeout: float = 60.0  # seconds, connect and per read
    backoff: float = 1.0  # first retry delay in seconds; doubles each time, at most 60 s
    page_size: int = 1000  # rows per listing call; the live server allows at most 1,000 (PHP API 1.2.6)

    def __post_init__(self) -> None:
        check_server_url(self.server)
        if self.workers < 1:
            raise InputError(f"workers={self.workers}: use at least 1 download worker")
        if self.max_retries < 0:
            raise InputError(f"max_retries={self.max_retries}: use 0 or more")
        if not self.timeout > 0:
            raise InputError(f"timeout={self.timeout}: use a positive number of seconds")
        if not 1 <= self.page_size <= 1000:
            raise InputError(f"page_size={self.page_size}: use 1 to 1000 rows per listing call "
                             "(OpenML answers code 516 above 1,000)")
        if self.backoff < 0:
            raise InputError(f"backoff={self.backoff}: use 0 or more seconds")
        object.__setattr__(self, "cache_dir", Path(self.cache_dir))

    def delay(self, attempt: int) -> float:
        return min(self.backoff * 2 ** (attempt - 1), 60.0)


def check_server_url(server: str) -> None:
    """Raise :class:`InputError` unless ``server`` looks like an OpenML API URL."""
    u = urllib.parse.urlparse(str(server))
    if u.scheme not in ("http", "https") or not u.netloc:
        raise InputError(
            f"server {server!r} is not an http(s) URL; use e.g. "
            "https://www.openml.org/api/v1/xml (config key openml.server, option --server)"
        )
    if "/api/" not in u.path + "/":
        raise InputError(
            f"server {server!r} has no /api/ path; OpenML servers answer under .../api/v1/xml, "
            "e.g. https://www.openml.org/api/v1/xml"
        )


class _State:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.requests = 0
        self.timeout = 60.0
        self.local = threading.local()

    def count(self) -> None:
        with self.lock:
            self.requests += 1


STATE = _State()


def request_count() -> int:
    """HTTP requests made so far in this process (by the client and by :func:`download`)."""
    with STATE.lock:
        return STATE.requests


class _Session(requests.Session):
    """A session that counts requests, adds a timeout and remembers the last status."""

    def request(self, method, url, *args, **kwargs):  # type: ignore[override]
        if kwargs.get("timeout") is None:
            kwargs["timeout"] = STATE.timeout
        STATE.count()
        STATE.local.last = (url, None, "")
        with connections.slot():
            resp = super().request(method, url, *args, **kwargs)
        STATE.local.last = (url, resp.status_code, resp.headers.get("Content-Type", ""))
        return resp


_requests_proxy = types.ModuleType("requests")
_requests_proxy.__getattr__ = lambda name: getattr(requests, name)  # type: ignore[attr-defined]
_requests_proxy.Session = _Session  # type: ignore[attr-defined]


def configure(settings: ClientSettings) -> None:
    """Point the ``openml`` client at ``settings.server`` with its cache under ``settings.cache_dir``."""
    import openml
    import openml._api_calls

    os.environ["OPENML_SKIP_PARQUET"] = "true"  # ARFF over HTTP (retried) instead of MinIO
    openml.config.server = settings.server.rstrip("/")
    openml.config.apikey = ""  # reading needs no key; never send the user's key elsewhere
    openml.config.set_root_cache_directory(str(Path(settings.cache_dir) / "openml-client"))
    openml.config.connection_n_retries = 1  # our own retry layer does it
    openml.config.show_progress = False
    STATE.timeout = settings.timeout
    connections.cap(Path(settings.cache_dir) / "connections" / connections.server_key(settings.server), settings.workers)
    openml._api_calls.requests = _requests_proxy  # type: ignore[attr-defined]


def _describe(exc: BaseException) -> str:
    from openml.exceptions import OpenMLServerError

    last = getattr(STATE.local, "last", None)
    status = f"HTTP {last[1]}" if last and last[1] is not None else ""
    if isinstance(exc, KeyError | xml.parsers.expat.ExpatError) or (
        isinstance(exc, OpenMLServerError) and "Unexpected server error" in str(exc)
    ):
        kind = "html" if last and "html" in str(last[2]).lower() else "non-OpenML"
        return f"{status or 'server error'} with a {kind} body".strip()
    if isinstance(exc, _RetryableStatus):
        html = last and "html" in str(last[2]).lower()
        return f"{exc}" + (" with a html body" if html else "")
    if isinstance(exc, _Truncated):
        return str(exc)
    if isinstance(exc, requests.exceptions.Timeout):
        return "timed out"
    if isinstance(exc, requests.exceptions.ConnectionError):
        return f"connection failed ({type(exc).__name__})"
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return f"{status}: {text}" if status else text


def _retryable(exc: BaseException) -> bool:
    from openml.exceptions import (
        OpenMLHashException,
        OpenMLServerError,
        OpenMLServerException,
    )

    if isinstance(exc, OpenMLServerException):
        return exc.code == 107  # database connection error: transient
    return isinstance(
        exc,
        OpenMLServerError  # includes "Unexpected server error" (non-XML 5xx body)
        | OpenMLHashException
        | KeyError  # 5xx with a well-formed HTML body: client looks up 'oml:error'
        | xml.parsers.expat.ExpatError
        | requests.exceptions.RequestException
        | ConnectionError
        | TimeoutError
        | _Truncated
        | _RetryableStatus,
    )


def last_request() -> str:
    """The URL of this thread's last request (for messages), or ''."""
    last = getattr(STATE.local, "last", None)
    return str(last[0]) if last else ""


def server_error_line(exc: BaseException, what: str) -> str:
    """One line for an OpenML error answer: the request, HTTP status, code, message and the fix."""
    last = getattr(STATE.local, "last", None)
    status = f"HTTP {last[1]}, " if last and last[1] is not None else ""
    code = getattr(exc, "code", None)
    message = str(getattr(exc, "message", exc)).removesuffix(" - None").strip().splitlines()[0]
    url = getattr(exc, "url", None) or last_request()
    advice = _ADVICE.get(code, "check the request and the server's status; rerun to resume")
    return f"{what} ({url}): the server answered {status}code {code}: {message!r}; {advice}"


def call(
    fn: Callable[[], T], what: str, settings: ClientSettings, *, handled: tuple[int, ...] | bool = ()
) -> T:
    """Run ``fn`` (one ``openml`` client call), retrying transient failures with backoff.

    OpenML error answers (``OpenMLServerException``) whose code is in ``handled`` (or any code,
    with ``handled=True``) and "no results" answers are raised as they are for the caller to
    interpret; any other code becomes one :class:`OpenMLServerRefused` line.
    """
    from openml.exceptions import OpenMLServerException, OpenMLServerNoResult

    for attempt in range(1, settings.max_retries + 2):
        try:
            return fn()
        except Exception as exc:  # noqa: BLE001 - classified below
            if not _retryable(exc):
                if isinstance(exc, OpenMLServerException) and not isinstance(exc, OpenMLServerNoResult):
                    if not (handled is True or (handled and exc.code in handled)):
                        raise OpenMLServerRefused(server_error_line(exc, what)) from None
                raise
            reason = _describe(exc)
            if attempt > settings.max_retries:
                url = last_request()
                hint = (" Check the network and config key openml.server." if "connection failed" in reason
                        or "timed out" in reason else "")
                raise OpenMLNetworkError(
                    f"{what}{f' ({url})' if url else ''}: {reason}; gave up after {attempt} attempt{'s' if attempt > 1 else ''} against "
                    f"{settings.server}.{hint} Everything downloaded so far is kept in "
                    f"{settings.cache_dir}; rerun to resume"
                ) from None
            wait = settings.delay(attempt)
            log.warning(
                "%s: %s; attempt %d/%d, retrying in %.1fs",
                what, reason, attempt, settings.max_retries + 1, wait,
            )
            time.sleep(wait)
    raise AssertionError("unreachable")  # pragma: no cover


def partial_path(dest: Path) -> Path:
    """Where an unfinished download of ``dest`` is kept between attempts and runs (:func:`download`)."""
    return dest.with_name(f".{dest.name}.partial")


def _download_once(url: str, dest: Path, settings: ClientSettings) -> int:
    """One attempt: the bytes of ``url`` into ``dest``.  The bytes arrive in :func:`partial_path`, which
    survives a failed attempt or a killed process: the next attempt asks only for the rest (HTTP
    ``Range: bytes=N-``) and appends it when the server answers ``206`` from byte N; a server that answers
    ``200`` (no ranges) sends the whole file again.  A body with a ``Content-Encoding`` (compressed on the
    wire, so its byte ranges are not the file's) is not resumed.  The partial file is held under an
    exclusive ``flock`` while written; a second process fetching the same file (two tasks of one dataset)
    downloads into its own temporary file instead.  The file is renamed onto ``dest`` only when its
    length is the server's (``Content-Length``, or the total of ``Content-Range``)."""
    partial = partial_path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    with open(partial.with_name(partial.name + ".lock"), "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return _download_whole(url, dest, settings)  # another process resumes this file: fetch our own copy
        have = partial.stat().st_size if partial.is_file() else 0
        headers = {"User-Agent": "prspace (openml-python compatible)"}
        if have:
            headers["Range"] = f"bytes={have}-"
        STATE.count()
        with connections.slot(), requests.get(url, stream=True, timeout=settings.timeout, headers=headers) as r:
            STATE.local.last = (url, r.status_code, r.headers.get("Content-Type", ""))
            if r.status_code == 416:  # the kept part is not a prefix the server can continue: start again
                partial.unlink(missing_ok=True)
                raise _RetryableStatus("HTTP 416 (range not satisfiable): the kept partial download is dropped")
            if r.status_code >= 500 or r.status_code in (408, 429):
                raise _RetryableStatus(f"HTTP {r.status_code}")
            if r.status_code not in (200, 206):
                raise ServerFileMissing(f"HTTP {r.status_code} for {url}")
            if r.headers.get("Content-Encoding"):
                partial.unlink(missing_ok=True)
                return _write_whole(r, dest)
            resumed = r.status_code == 206 and r.headers.get("Content-Range", "").startswith(f"bytes {have}-")
            if r.status_code == 206 and not resumed:
                partial.unlink(missing_ok=True)
                raise _RetryableStatus(f"HTTP 206 from another byte than asked ({r.headers.get('Content-Range')})")
            if resumed:
                total = r.headers.get("Content-Range", "").rsplit("/", 1)[-1]
                expected = int(total) if total.isdigit() else None
            else:
                have = 0
                length = r.headers.get("Content-Length")
                expected = int(length) if length is not None else None
            n = have
            with open(partial, "ab" if resumed else "wb") as fh:
                for chunk in _arrived(r):
                    fh.write(chunk)
                    n += len(chunk)
            if expected is not None and n != expected:
                raise _Truncated(f"truncated body: {n} of {expected} bytes (the {n} are kept; the next attempt "
                                 "asks for the rest)")
        os.chmod(partial, 0o666 & ~_umask())
        os.replace(partial, dest)
        Path(lock.name).unlink(missing_ok=True)
    return n


def _arrived(r: requests.Response):
    """The body of ``r`` as it arrives (``read1``: whatever bytes are there, up to 1 MiB), so that a
    connection cut off mid-body leaves every byte received written; the cut becomes :class:`_Truncated`,
    a timeout :class:`TimeoutError` (both retried)."""
    while True:
        try:
            chunk = r.raw.read1(1 << 20)
        except ReadTimeoutError as exc:
            raise TimeoutError(f"timed out reading the body ({exc})") from None
        except ProtocolError as exc:
            raise _Truncated(f"truncated body: the connection broke ({exc})") from None
        if not chunk:
            return
        yield chunk


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _download_whole(url: str, dest: Path, settings: ClientSettings) -> int:
    STATE.count()
    headers = {"User-Agent": "prspace (openml-python compatible)"}
    with connections.slot(), requests.get(url, stream=True, timeout=settings.timeout, headers=headers) as r:
        STATE.local.last = (url, r.status_code, r.headers.get("Content-Type", ""))
        if r.status_code >= 500 or r.status_code in (408, 429):
            raise _RetryableStatus(f"HTTP {r.status_code}")
        if r.status_code != 200:
            raise ServerFileMissing(f"HTTP {r.status_code} for {url}")
        return _write_whole(r, dest)


def _write_whole(r: requests.Response, dest: Path) -> int:
    """The whole body of ``r`` into ``dest`` atomically, checked against ``Content-Length`` (on the wire)."""
    expected = r.headers.get("Content-Length")
    with atomic_path(dest) as tmp:
        n = 0
        with open(tmp, "wb") as fh:
            for chunk in r.iter_content(chunk_size=1 << 20):
                fh.write(chunk)
                n += len(chunk)
        wire = r.raw.tell() if r.headers.get("Content-Encoding") else n
        if expected is not None and wire != int(expected):
            raise _Truncated(f"truncated body: {wire} of {expected} bytes")
    return n


def download(url: str, dest: Path, what: str, settings: ClientSettings) -> Path:
    """Download ``url`` to ``dest`` (atomically) unless ``dest`` exists; retries transient failures, each
    retry (and a rerun after a killed process) resuming from the bytes already kept (:func:`_download_once`)."""
    if dest.is_file():
        return dest

    def once() -> Path:
        try:
            _download_once(url, dest, settings)
        except requests.exceptions.ChunkedEncodingError as exc:
            raise _Truncated("truncated body: the connection closed before Content-Length bytes arrived") from exc
        return dest

    return call(once, what, settings)
