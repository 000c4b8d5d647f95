"""CLI subcommands of club campaigns on a PostgreSQL server: ``server init``, ``server
add-player``/``add-umpire``/``add-observer``, ``server remove-member``, ``server members``,
``push``, ``pull``.

A server campaign is named by its address, ``postgresql://user@host:port/club?campaign=NAME``
(libpq's ``host=`` and ``port=`` in the query name a socket folder); every other command takes
such an address where it takes a file.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from campaign1813.campaign.calendar import format_date
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.store.club import ClubRefused
from campaign1813.campaign.store.document import SUFFIX
from campaign1813.campaign.store.server import (
    REGISTRY,
    ServerAddress,
    add_member,
    init_server,
    list_members,
    open_server_campaign,
    pull_campaign,
    push_campaign,
    remove_member,
)


def _database(text: str) -> ServerAddress:
    """A database's address for ``server init``: no campaign needed in it."""
    return ServerAddress(text if "campaign=" in text else
                         text + ("&" if "?" in text else "?") + "campaign=none")


def register(sub: Any, argv: list[str] | None = None) -> None:
    """Add the server subcommands."""
    p = sub.add_parser("server", help="make a PostgreSQL database ready for club campaigns")
    which = p.add_subparsers(dest="server_command", metavar="ACTION", required=True)
    q = which.add_parser("init", help="make the database ready for campaigns (again harmless)")
    q.add_argument("url", help="postgresql://user@host:port/DATABASE")
    q.set_defaults(func=_init)
    for action, what in (("add-player", "a side's player"), ("add-umpire", "a co-umpire"),
                         ("add-observer", "an observer")):
        q = which.add_parser(action, help=f"let a login into one campaign as {what} (made if "
                                          "new)")
        q.add_argument("url", help="postgresql://admin@host:port/DATABASE?campaign=NAME")
        if action == "add-player":
            q.add_argument("--side", required=True, help="french or allied")
        q.add_argument("--login", required=True, help="the member's login on the server")
        q.add_argument("--password", help="his password (asked for if a new login and left out)")
        q.set_defaults(func=_add_member, role=action.removeprefix("add-"))
    q = which.add_parser("remove-member", help="take a login out of one campaign (his login "
                                               "dropped if no other campaign has him)")
    q.add_argument("url", help="postgresql://umpire@host:port/DATABASE?campaign=NAME")
    q.add_argument("login", help="the member's login on the server")
    q.set_defaults(func=_remove_member)
    q = which.add_parser("members", help="who is let into one campaign, and as what")
    q.add_argument("url", help="postgresql://umpire@host:port/DATABASE?campaign=NAME")
    q.add_argument("--changes", action="store_true",
                   help="also the campaign's audit of members let in and taken out")
    q.set_defaults(func=_members)

    p = sub.add_parser("push", help="copy a campaign file whole to a server as a campaign")
    p.add_argument("file", help="the campaign file (suffix .c1813)")
    p.add_argument("url", help="postgresql://user@host:port/DATABASE?campaign=NAME")
    p.add_argument("--replace", action="store_true",
                   help="replace the server's campaign of that name")
    p.set_defaults(func=_push)

    p = sub.add_parser("pull", help="copy a server campaign whole into a campaign file")
    p.add_argument("url", help="postgresql://user@host:port/DATABASE?campaign=NAME")
    p.add_argument("file", help="the campaign file to write (suffix .c1813)")
    p.add_argument("--overwrite", action="store_true", help="replace FILE if it exists")
    p.set_defaults(func=_pull)


def _init(args: argparse.Namespace) -> int:
    address = init_server(_database(args.url))
    print(f"{address.conninfo.split('?')[0].rsplit('/', 1)[-1]}: ready for campaigns "
          f"(registry {REGISTRY}.campaigns)")
    return 0


def _push(args: argparse.Namespace) -> int:
    pushed = push_campaign(args.file, args.url, replace=args.replace)
    with open_server_campaign(pushed.address) as store:
        s = store.summary()
    print(f"pushed {args.file} to {pushed.address}: {s.name}, {format_date(s.current_date)}")
    if args.replace:
        print(kept_forms_line(pushed.kept_forms))
    return 0


def kept_forms_line(kept: tuple[int, ...]) -> str:
    """What a push in place of a server campaign kept of the forms waiting there."""
    if not kept:
        return "kept 0 order forms of the server's: none was waiting that the file lacks"
    numbers = ", ".join(str(n) for n in kept)
    s, them = ("s", "them") if len(kept) > 1 else ("", "it")
    return (f"kept {len(kept)} order form{s} of the server's, waiting and not in the file "
            f"(form{s} {numbers}): take {them} with import-orders URL --submitted")


def _pull(args: argparse.Namespace) -> int:
    if not args.file.endswith(SUFFIX):
        raise CampaignError(f"{args.file}: a campaign file's name must end in {SUFFIX}")
    out = pull_campaign(args.url, args.file, overwrite=args.overwrite)
    print(f"pulled {ServerAddress(args.url)} to {out}")
    return 0


def _add_member(args: argparse.Namespace) -> int:
    role = args.role
    if role == "player":
        side = args.side.strip().casefold()
        if side not in ("french", "allied"):
            raise CampaignError(f"--side {args.side!r}: give french or allied")
        role = side.capitalize()
    password = args.password
    try:
        made = add_member(args.url, args.login, role, password)
    except ClubRefused as exc:
        if password is not None or "needs a password" not in str(exc) or \
                not sys.stdin.isatty():
            raise
        made = add_member(args.url, args.login, role, getpass.getpass(f"{args.login}'s "
                                                                      "password: "))
    shown = _shown(role, "a co-umpire")
    print(f"{args.login}: {'made, and ' if made else ''}let in as {shown} of "
          f"{ServerAddress(args.url)}")
    return 0


def _shown(role: str, umpire: str = "an umpire") -> str:
    return {"umpire": umpire, "observer": "an observer"}.get(role, f"the {role}' player")


def _remove_member(args: argparse.Namespace) -> int:
    gone = remove_member(args.url, args.login)
    login = "his login dropped from the server" if gone.dropped else \
        f"his login kept ({gone.kept_because})"
    print(f"{gone.login}: taken out of {ServerAddress(args.url)} (was {_shown(gone.role)}); "
          f"{login}")
    return 0


def _members(args: argparse.Namespace) -> int:
    address = ServerAddress(args.url)
    found, changes = list_members(address)
    print(f"members of {address.campaign}:")
    for m in found:
        print(f"  {m.login:<24} {_shown(m.role)}")
    if not found:
        print("  none let in yet (server add-umpire, add-player, add-observer)")
    if args.changes:
        print("changes:")
        for c in changes:
            print(f"  {c.made}  {c.login}: {c.change} (by {c.made_by})")
        if not changes:
            print("  none recorded")
    return 0
