"""The OpenML session: settings, the on-disk cache of every answer (per server), and paged listings."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tqdm import tqdm

from prspace.core._io import atomic_path
from prspace.openml.client import (
    ClientSettings,
    OpenMLServerRefused,
    call,
    configure,
    request_count,
)
from prspace.openml.connections import server_key

log = logging.getLogger("prspace.openml")


SUPERVISED_CLASSIFICATION = 1
MAX_RUNS_PER_FLOW = 3  # runs of one flow tried before moving on to another flow
MIN_PAGE_SIZE = 50  # a 516 answer halves the page size down to this


# --------------------------------------------------------------------------- cache


class _Cache:
    """JSON answers and downloaded files under ``<cache_dir>/prspace/<server key>/``."""

    def __init__(self, settings: ClientSettings) -> None:
        self.root = Path(settings.cache_dir) / "prspace" / server_key(settings.server)

    def path(self, *parts: str) -> Path:
        return self.root.joinpath(*parts)

    def get(self, *parts: str) -> Any | None:
        p = self.path(*parts)
        if not p.is_file():
            return None
        try:
            return json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None  # a damaged entry is fetched again

    def put(self, value: Any, *parts: str) -> Any:
        with atomic_path(self.path(*parts)) as tmp:
            tmp.write_text(json.dumps(value, sort_keys=True), encoding="utf-8")
        return value

    def memo(self, fn: Callable[[], Any], *parts: str) -> Any:
        hit = self.get(*parts)
        return hit if hit is not None else self.put(fn(), *parts)


class _Session:
    """Settings + cache + a configured client, shared by one select or fetch."""

    def __init__(self, settings: ClientSettings) -> None:
        configure(settings)
        self.settings = settings
        self.cache = _Cache(settings)
        self.requests_at_start = request_count()

    @property
    def http_requests(self) -> int:
        return request_count() - self.requests_at_start

    def call(self, fn: Callable[[], Any], what: str, *, handled: tuple[int, ...] | bool = ()) -> Any:
        return call(fn, what, self.settings, handled=handled)


def _is_limit_too_high(exc: BaseException) -> bool:
    from openml.exceptions import OpenMLServerException

    return isinstance(exc, OpenMLServerException) and exc.code == 516


def _pages(
    s: _Session,
    what: str,
    list_page: Callable[[int, int], list[dict[str, Any]]],
    cache_dir: tuple[str, ...],
    *,
    enough: Callable[[list[dict[str, Any]]], bool] | None = None,
) -> tuple[list[dict[str, Any]], bool]:
    """Every row of a listing, one page of at most ``settings.page_size`` rows per call.

    ``list_page(limit, offset)`` makes one call; "no results" (codes 482/512/542) ends the
    listing; code 516 ("limit too high": the server's cap is lower than our page size)
    halves the page size and asks again.  Each page is cached (``cache_dir/<offset>-<limit>.json``),
    so an interrupted listing resumes and a warm cache makes no request.  ``enough(rows)``
    stops early (returns ``complete=False``).  Returns ``(rows, complete)``.
    """
    from openml.exceptions import OpenMLServerNoResult

    size = s.settings.page_size
    rows: list[dict[str, Any]] = []
    offset = 0
    while True:
        parts = (*cache_dir, f"{offset}-{size}.json")
        page = s.cache.get(*parts)
        if page is None:
            try:
                page = s.call(lambda o=offset, n=size: list_page(n, o), f"{what} (limit {size}, offset {offset})",
                              handled=(516,))
            except OpenMLServerNoResult:
                page = []
            except Exception as exc:
                if not _is_limit_too_high(exc) or size <= MIN_PAGE_SIZE:
                    if _is_limit_too_high(exc):
                        raise OpenMLServerRefused(
                            f"{what}: the server refuses even {size} rows a call (code 516); "
                            "lower config key openml.page_size") from None
                    raise
                new = max(MIN_PAGE_SIZE, size // 2)
                log.warning("%s: the server caps a listing below %d rows (code 516); paging with %d",
                            what, size, new)
                size = new
                continue
            s.cache.put(page, *parts)
        rows += page
        if len(page) < size:
            return rows, True
        if enough is not None and enough(rows):
            return rows, False
        offset += len(page)


def _bar(total: int, desc: str, enabled: bool, unit: str = "model") -> Any:
    if enabled:
        return tqdm(total=total, desc=desc, unit=unit, leave=False)

    class _Null:
        def update(self, n: int = 1) -> None: ...
        def close(self) -> None: ...

    return _Null()
