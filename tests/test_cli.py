"""The command line for campaign files."""

import subprocess
import sys

from campaign1813 import __version__
from campaign1813.campaign.cli import main


def test_version_is_printed(capsys):
    try:
        main(["--version"])
    except SystemExit as exc:
        assert exc.code == 0
    assert capsys.readouterr().out.strip() == f"campaign1813 {__version__}"


def test_console_script_runs():
    out = subprocess.run([sys.executable, "-m", "campaign1813.campaign.cli", "--version"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"campaign1813 {__version__}"


def test_new_and_info(tmp_path, capsys):
    path = tmp_path / "c.c1813"
    assert main(["new", str(path), "--name", "Elbe 1813"]) == 0
    assert main(["info", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Elbe 1813" in out and "today   1 May 1813" in out


def test_bad_file_is_one_line_error(tmp_path, capsys):
    path = tmp_path / "junk.c1813"
    path.write_bytes(b"\x00" * 400)
    assert main(["info", str(path)]) == 1
    err = capsys.readouterr().err
    assert err == (f"campaign1813: error: {path}: is not a campaign file "
                   "(it is not an SQLite database)\n")


def test_an_unexpected_fault_is_one_line_not_a_traceback(capsys, monkeypatch):
    import campaign1813.campaign.cli.document as doc_cli

    def boom(_args):
        raise RuntimeError("the dog ate the orders")

    monkeypatch.setattr(doc_cli, "_info", boom)
    monkeypatch.delenv("CAMPAIGN1813_DEBUG", raising=False)
    assert main(["info", "x.c1813"]) == 3
    assert capsys.readouterr().err == (
        "campaign1813: internal error: RuntimeError: the dog ate the orders "
        "(set CAMPAIGN1813_DEBUG=1 to see where)\n")
