"""What the command line's quick commands import, in a fresh interpreter: ``--help`` no group
of commands, ``status`` neither the database libraries, pydantic, the services nor the battle
engine (``tests/export/test_console.py`` checks that neither imports Qt for a plain export)."""

import subprocess
import sys

from campaign1813.campaign.cli import GROUPS

PROBE = """
import sys
from campaign1813.ui.console import main
try:
    code = main(sys.argv[2:])
except SystemExit as done:  # --help
    code = done.code
print(code, sorted(m for m in sys.argv[1].split(',') if m in sys.modules))
"""
HEAVY = ("sqlalchemy", "sqlmodel", "alembic", "pydantic", "PySide6")


def _imported(watched: tuple[str, ...], *argv: str) -> str:
    out = subprocess.run([sys.executable, "-c", PROBE, ",".join(watched), *argv],
                         capture_output=True, text=True, check=True)
    return out.stdout.splitlines()[-1]


def test_help_imports_no_group_of_commands_and_no_heavy_library():
    groups = tuple(f"campaign1813.campaign.cli.{g}" for g in GROUPS)
    assert _imported((*HEAVY, *groups), "--help") == "0 []"


def test_status_reads_a_campaign_without_the_database_libraries_or_the_battle_engine(
        fresh_campaign):
    camp = fresh_campaign()
    watched = (*HEAVY, "campaign1813.campaign.store.migrate", "campaign1813.campaign.services",
               "campaign1813.campaign.battle.engines", "campaign1813.campaign.battle.fight",
               "campaign1813.campaign.store.document")  # the last one it does import
    assert _imported(watched, "status", str(camp)) == \
        "0 ['campaign1813.campaign.store.document']"
