"""The ``campaign1813`` console entry: Qt's painter installed, yet Qt imported only for a PDF."""

import subprocess
import sys

from campaign1813.campaign.cli import main as bare_main

PROBE = """
import sys
from campaign1813.ui.console import main
code = main(sys.argv[1:])
print("PySide6" in sys.modules, code)
"""


def _run(*argv):
    out = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True,
                         check=True)
    return out.stdout.splitlines()[-1]


def test_status_starts_without_importing_qt(tmp_path):
    camp = tmp_path / "war.c1813"
    assert bare_main(["new", str(camp)]) == 0
    assert _run("status", str(camp)) == "False 0"
    assert _run("export", "oob", str(camp), "--json", str(tmp_path / "o.json")) == "False 0"


def test_a_pdf_export_imports_qt_and_writes_the_pdf(tmp_path):
    camp = tmp_path / "war.c1813"
    assert bare_main(["new", str(camp)]) == 0
    out = tmp_path / "o.pdf"
    assert _run("export", "oob", str(camp), "--army", "Prussian Army", "--pdf", str(out)) \
        == "True 0"
    assert out.read_bytes().startswith(b"%PDF-")
