import sys

from prspace.cli import main

sys.exit(main())
