"""Entry point for the packaged app."""

import sys

from campaign1813.ui.app import main

sys.exit(main())
