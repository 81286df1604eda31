"""Entry point of the frozen app: the same `hearth` command the console script runs."""

import sys

from app.main import main

if __name__ == "__main__":
    sys.exit(main())
