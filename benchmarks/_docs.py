"""The one writer of a benchmark's generated block in a Markdown page: the text between
``<!-- NAME:start -->`` and ``<!-- NAME:end -->`` replaced by ``block``."""

from __future__ import annotations

import re
from pathlib import Path


def write_block(page: Path, name: str, block: str) -> None:
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    text = page.read_text()
    if start not in text:
        raise SystemExit(f"{page.name} has no {start} marker")
    page.write_text(re.sub(re.escape(start) + ".*?" + re.escape(end), lambda _: f"{start}\n{block}\n{end}", text,
                           flags=re.S))
