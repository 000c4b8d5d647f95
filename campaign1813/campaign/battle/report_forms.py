"""A battle report's lines as Markdown and as a small HTML page, for every ruleset.

A report is its title, three header lines, then the steps' lines; turns and numbered moves head
its blocks.
"""

from __future__ import annotations

import html
import re

__all__ = ["markdown_of", "html_of"]

# Turns and numbered moves head the report's blocks; "Move (17 Brigade)", an action paid for in
# pips, and "Move to Burg change orders …", a CinC's order, are lines within a move.
_HEADING = re.compile(r"Turn \d|Move \d+ – |Night falls|Result:|At nightfall|The umpire decides")


def _blocks(lines: list[str]) -> list[tuple[str, list[str]]]:
    """The report's lines grouped under their headings (turns and moves)."""
    blocks: list[tuple[str, list[str]]] = []
    for line in lines:
        if _HEADING.match(line):
            blocks.append((line, []))
        elif blocks:
            blocks[-1][1].append(line)
        else:
            blocks.append(("", [line]))
    return blocks


def markdown_of(lines: list[str]) -> str:
    """A report (title, three header lines, then the steps) as Markdown: the battle a heading,
    each turn a section, each move bold."""
    out = [f"# {lines[0]}", ""] + [f"- {x}" for x in lines[1:4]] + [""]
    for head, body in _blocks(lines[4:]):
        if head.startswith("Turn "):
            out += [f"## {head}", ""]
        elif head:
            out += [f"**{head}**", ""]
        out += [f"- {x.strip()}" for x in body]
        if body:
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def html_of(lines: list[str]) -> str:
    """A report as a small HTML document."""
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{e(lines[0])}</title>",
           "<style>body{font-family:Georgia,serif;max-width:42em;margin:2em auto;}"
           "h2{border-bottom:1px solid #999}p.move{font-weight:bold;margin-bottom:0}"
           "ul{margin-top:.2em}</style></head><body>", f"<h1>{e(lines[0])}</h1>",
           "<ul>" + "".join(f"<li>{e(x)}</li>" for x in lines[1:4]) + "</ul>"]
    for head, body in _blocks(lines[4:]):
        if head.startswith("Turn "):
            out.append(f"<h2>{e(head)}</h2>")
        elif head:
            out.append(f'<p class="move">{e(head)}</p>')
        if body:
            out.append("<ul>" + "".join(f"<li>{e(x.strip())}</li>" for x in body) + "</ul>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
