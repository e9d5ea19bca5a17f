import sys

from .edge.cli import main

sys.exit(main())
