import sys

from .edge.cli import main
from .edge.output import show_crash

sys.excepthook = show_crash  # a bug's traceback, escaped like everything else the command prints
sys.exit(main())
