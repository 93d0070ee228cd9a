"""Whether R and its pROC package can run the pROC oracle tests (tests/audit, tests/stats), or why not."""

from __future__ import annotations

import shutil
import subprocess


def r_available() -> str | None:
    """None when ``Rscript`` runs ``library(pROC)``, else the reason to skip."""
    if shutil.which("Rscript") is None:
        return "Rscript not installed (bash .ci/install-r.sh installs r-base-core and r-cran-proc)"
    ok = subprocess.run(["Rscript", "-e", "library(pROC)"], capture_output=True, text=True)
    if ok.returncode != 0:
        return "R package pROC not installed (bash .ci/install-r.sh installs r-cran-proc)"
    return None
