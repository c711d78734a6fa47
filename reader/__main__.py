"""`python -m reader` is the `paper-reader` command."""

import sys

from reader.cli import main

sys.exit(main())
