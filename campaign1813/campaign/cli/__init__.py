"""The headless command line, ``campaign1813``.

Every subcommand calls the same services the window uses. Subcommands come in groups, a module
each in this package (``document``, ``day``, ``battle``, ``odds``, ``scenario``, ``export``);
``COMMANDS`` says which group owns which command, so only the group of the command being run
is imported and registered (``campaign1813 --help`` imports none of them). Each group module has
``register(subparsers, argv)``, which adds its parsers and sets ``func`` to a handler taking the
parsed arguments and returning an exit status; a group module imports at its top what its
commands need, since it is imported only when one of them runs.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from campaign1813 import __version__
from campaign1813.errors import CampaignError

# command → (group module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "new": ("document", "create a new campaign file from the 1813 scenario"),
    "info": ("document", "check a campaign file and print its name and dates"),
    "verify": ("document", "rebuild every day from the log and compare each day's snapshot"),
    "backup": ("document", "copy a campaign, whole and consistent, even while it is open"),
    "restore": ("document", "put a backup in the place of a campaign, safely after a crash"),
    "status": ("day", "where every command stands, its orders and state"),
    "order": ("day", "give a command an order: Move, Halt, Hold, Attack, Recce, Rest"),
    "cancel": ("day", "withdraw a command's orders"),
    "end-day": ("day", "march the day, find contacts and battles; end the day"),
    "battles": ("day", "the battles scheduled and fought"),
    "objectives": ("day", "each objective: who holds its towns, since when"),
    "settings": ("day", "the campaign's settings; with NAME VALUE, change one"),
    "supply": ("day", "the supply rule: stocks and ledger; give supply orders"),
    "result": ("day", "record a battle's result"),
    "postpone": ("day", "put a battle off to a later day"),
    "merge": ("day", "fight two battles of the day as one"),
    "split": ("day", "fight some commands of a battle separately"),
    "cut-off": ("day", "the umpire's choice for a command with no retreat"),
    "undo": ("day", "take back the last action"),
    "redo": ("day", "apply again the last action taken back"),
    "diary": ("day", "the campaign diary, one dated line each"),
    "battle": ("battle", "fight a scheduled battle at the table, step by step"),
    "autoresolve": ("battle", "fight a battle abstractly and record its result"),
    "odds": ("odds", "exact odds of any test of the rules (artillery, morale, combat, …)"),
    "oob": ("scenario", "print the orders of battle of the scenario's army groups"),
    "scenario": ("scenario", "work with scenario folders"),
    "export": ("export", "write orders of battle and other papers to PDF, CSV or JSON files"),
    "server": ("server", "make a PostgreSQL database ready for club campaigns"),
    "push": ("server", "copy a campaign file whole to a server as a campaign"),
    "pull": ("server", "copy a server campaign whole into a campaign file"),
    "packet": ("packet", "write a side's turn packet: situation report and order form"),
    "side-key": ("packet", "write the key issued to a side, to sign its order forms"),
    "sign-orders": ("packet", "sign a filled order form with the side's key"),
    "import-orders": ("packet", "take a side's signed order form, refusing a bad one"),
    "reports": ("packet", "the reports of the enemy made for each side"),
    "release": ("packet", "release held reports of the enemy to their sides"),
    "hold": ("packet", "hold a report of the enemy back from its side"),
}
GROUPS = tuple(dict.fromkeys(group for group, _help in COMMANDS.values()))


def _command_in(argv: Sequence[str]) -> str | None:
    """The subcommand named on the command line, if any (the first word that is one)."""
    for word in argv:
        if word in COMMANDS:
            return word
        if not word.startswith("-"):
            return None
    return None


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser: every subcommand listed, and the group of the one named in
    ``argv`` registered in full (every group when ``argv`` is None)."""
    parser = argparse.ArgumentParser(
        prog="campaign1813",
        description="The 1813 Campaign Umpire: campaign files, the road map, orders and battles.",
    )
    parser.add_argument("--version", action="version", version=f"campaign1813 {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    named = None if argv is None else _command_in(argv)
    wanted = GROUPS if argv is None else ((COMMANDS[named][0],) if named else ())
    for group in wanted:
        importlib.import_module(f"{__name__}.{group}").register(
            sub, None if argv is None else list(argv))
    if named is None:  # the list of commands is shown only when none is named
        for name, (group, text) in COMMANDS.items():
            if group not in wanted:
                sub.add_parser(name, help=text)
    return parser


def battle_number(text: str) -> int:
    """A battle's number as typed: a whole number the file can hold (an argparse type)."""
    try:
        number = int(text)
    except ValueError:
        number = 0
    if not 1 <= number < 2**63:
        raise argparse.ArgumentTypeError(f"'{text}' is not a battle number (campaign1813 "
                                         "battles FILE lists them)")
    return number


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""
    def read(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if not low <= number <= high:
            raise argparse.ArgumentTypeError(f"{number} is not between {low:,} and {high:,}")
        return number
    return read


_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(0x20), 0x7F, *range(0x80, 0xA0))
             if chr(c) not in "\n\t"} | {
    # the marks that turn text around or hide in it (U+202E makes "gpj.exe" read "exe.jpg")
    c: f"\\u{c:04x}" for c in (0x200B, 0x200E, 0x200F, *range(0x202A, 0x202F),
                                *range(0x2066, 0x206A), 0x2028, 0x2029, 0xFEFF)}


def escape(text: str) -> str:
    """Text safe for a terminal: control characters (a name holding escape codes) and bytes
    that were not UTF-8 on the command line are shown as ``\\x1b``-style escapes."""
    text = text.translate(_CONTROLS)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class _Escaping:
    """A text stream that escapes what it is given before writing it."""

    def __init__(self, stream: TextIO):
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(escape(text))

    def flush(self) -> None:
        self._stream.flush()

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; errors are one line on stderr and a non-zero status. Whatever it
    prints is escaped, so a name holding terminal codes cannot act on the terminal."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Escaping(out), _Escaping(err)
    try:
        return _run(list(sys.argv[1:] if argv is None else argv))
    finally:
        broken = sys.stdout is None  # a reader that stopped reading: nothing more to flush
        sys.stdout, sys.stderr = (None if broken else out), err
        if not broken:
            out.flush()


def _run(argv: list[str]) -> int:
    try:
        parser = build_parser(argv)
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 0
        return int(args.func(args) or 0)
    except CampaignError as exc:
        print(f"campaign1813: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl+C: what was committed stays, what was under way is not
        print("campaign1813: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into a command that stopped reading, e.g. `head`
        sys.stdout = None
        return 0
    except OSError as exc:  # the file system's refusal (a name too long, a folder not there)
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"campaign1813: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # a fault of ours: one line; transactions leave the file whole
        if os.environ.get("CAMPAIGN1813_DEBUG"):
            raise
        print(f"campaign1813: internal error: {type(exc).__name__}: {exc} "
              "(set CAMPAIGN1813_DEBUG=1 to see where)", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
