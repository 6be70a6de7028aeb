"""``python -m grundy.cli``: the ``grundy`` command."""
import sys

from . import main

sys.exit(main())
