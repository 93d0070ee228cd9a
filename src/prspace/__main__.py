"""``python -m prspace``: the command line (:func:`prspace.cli.main`)."""

import sys

try:
    from prspace.cli import main
except KeyboardInterrupt:  # Ctrl-C while the libraries load: no traceback either
    print("prspace: interrupted", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
