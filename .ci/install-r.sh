#!/usr/bin/env bash
# Install the Debian packages the audit's oracle and browser tests need:
#   r-cran-proc (R's pROC, with r-base-core): tests/test_audit_stats.py compares DeLong intervals and
#     paired tests with pROC's;
#   chromium: tests/test_audit_report.py opens the audit's HTML report in headless Chromium.
# Idempotent: does nothing when Rscript can load pROC and chromium is there. --no-install-recommends
# keeps R to its core. Needs root (or sudo) and the Debian mirrors; without either it prints why and
# exits 0, and those tests then skip with that reason.
set -euo pipefail

need=()
if ! command -v Rscript >/dev/null 2>&1 || ! Rscript -e 'library(pROC)' >/dev/null 2>&1; then
  need+=(r-cran-proc)
fi
if ! command -v chromium >/dev/null 2>&1; then
  need+=(chromium)
fi
if [ "${#need[@]}" -eq 0 ]; then
  echo "install-r: pROC and chromium already installed"
  exit 0
fi
echo "install-r: installing ${need[*]}"

if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO=(sudo -n)
else
  echo "install-r: not root and no password-less sudo; not installing (the pROC and browser tests will skip)" >&2
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-r: no apt-get (not Debian/Ubuntu); install R with pROC and chromium by hand" >&2
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive
for attempt in 1 2 3; do
  if "${SUDO[@]}" apt-get update -q && \
     "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${need[@]}"; then
    break
  fi
  if [ "$attempt" -eq 3 ]; then
    echo "install-r: apt-get failed 3 times" >&2
    exit 1
  fi
  sleep $((attempt * 10))
done
Rscript -e 'cat("install-r: pROC", as.character(packageVersion("pROC")), "\n")'
