#!/usr/bin/env bash
# Install the Debian packages the live SLURM test (tests/test_slurm.py) needs: munge, slurmctld,
# slurmd, slurm-client (slurm-wlm 22.05 on Debian 12). Idempotent: does nothing when every binary
# is already there. Does not start or enable any daemon (the test starts its own, under a tmp dir,
# and stops them by pid); Debian's policy-rc.d in containers keeps the packages' services down.
# Needs root (or sudo) and access to the Debian mirrors; on a machine without either it prints
# why and exits 0, and the SLURM test then skips with that reason.
set -euo pipefail

need=()
for bin in munged munge unmunge slurmctld slurmd sbatch squeue srun scontrol sinfo; do
  if ! PATH="$PATH:/usr/sbin:/sbin" command -v "$bin" >/dev/null 2>&1; then
    need+=("$bin")
  fi
done
if [ "${#need[@]}" -eq 0 ]; then
  echo "install-slurm: munge and SLURM already installed ($(PATH="$PATH:/usr/sbin" slurmctld -V))"
  exit 0
fi
echo "install-slurm: missing ${need[*]}; installing munge slurmctld slurmd slurm-client"

if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO=(sudo -n)
else
  echo "install-slurm: not root and no password-less sudo; not installing (the SLURM test will skip)" >&2
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-slurm: no apt-get (not Debian/Ubuntu); install munge and slurm-wlm by hand" >&2
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive
# Retry: a mirror hiccup should not fail CI.
for attempt in 1 2 3; do
  if "${SUDO[@]}" apt-get update -q && \
     "${SUDO[@]}" apt-get install -y -q --no-install-recommends munge slurmctld slurmd slurm-client; then
    break
  fi
  if [ "$attempt" -eq 3 ]; then
    echo "install-slurm: apt-get failed 3 times" >&2
    exit 1
  fi
  sleep $((attempt * 10))
done
PATH="$PATH:/usr/sbin" slurmctld -V
