"""``python -m campaign1813.campaign.cli``: the command line."""

import sys

from campaign1813.campaign.cli import main

sys.exit(main())
