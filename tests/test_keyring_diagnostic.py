"""The console program's hidden keyring diagnostic, which the bundle's check runs from the
bundle and from the virtual environment to compare (``packaging/check_bundle.py``)."""

from __future__ import annotations

import json
from importlib.metadata import entry_points

import keyring
import pytest

from campaign1813.ui.console import KEYRING_DIAGNOSTIC, main


def test_the_diagnostic_names_the_backend_in_use_and_every_backend_keyring_can_find(capsys):
    """It names the backend keyring keeps passwords in, each backend its package's entry
    points name (the chainer among them, loaded), and the fail backend among those viable;
    it is not among the command line's options."""
    assert main([KEYRING_DIAGNOSTIC]) == 0
    said = json.loads(capsys.readouterr().out)
    in_use = keyring.get_keyring()
    assert said["in_use"] == f"{type(in_use).__module__}.{type(in_use).__qualname__}"
    assert set(said["entry_points"]) == {p.value for p in entry_points(group="keyring.backends")}
    assert said["entry_points"]["keyring.backends.chainer"] == "loaded"
    assert "keyring.backends.fail.Keyring" in said["viable"]
    with pytest.raises(SystemExit):
        main(["--help"])
    assert KEYRING_DIAGNOSTIC not in capsys.readouterr().out
