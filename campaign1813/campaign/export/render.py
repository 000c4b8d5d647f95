"""A :class:`~campaign1813.campaign.export.document.Document` as HTML or Markdown text.

Both keep the document's order and its units; HTML marks a unit ``page-break-inside: avoid``
so that a browser's own printing keeps a corps together as the PDF does.

>>> from campaign1813.campaign.export.document import Column, Document, Table, Unit
>>> doc = Document("Orders", "Spring 1813", "1 May 1813",
...                (Unit((Table((Column("No."), Column("Class")), (("13", "A|B"),)),)),))
>>> print(document_markdown(doc))
# Orders
<BLANKLINE>
*Spring 1813 — 1 May 1813*
<BLANKLINE>
| No. | Class |
| --- | --- |
| 13 | A\\|B |
<BLANKLINE>
"""

from __future__ import annotations

import html

from campaign1813.campaign.export.document import (
    Align,
    Block,
    Document,
    Fields,
    Heading,
    Paragraph,
    Table,
)

_CSS = """
body { font-family: "DejaVu Serif", Georgia, serif; margin: 2em auto; max-width: 48em;
       color: #222; }
header.page { color: #555; font-size: 0.9em; border-bottom: 1px solid #999; margin-bottom: 1em; }
h1 { font-size: 1.5em; border-bottom: 2px solid #333; padding-bottom: 0.15em; }
h2 { font-size: 1.2em; margin-bottom: 0.3em; }
h3 { font-size: 1.05em; margin-bottom: 0.2em; }
.note { font-weight: normal; color: #555; font-size: 0.85em; margin-left: 0.6em; }
p.small { font-size: 0.85em; color: #444; }
table { border-collapse: collapse; margin: 0.3em 0 0.8em 0; }
th { text-align: left; border-bottom: 1px solid #333; padding: 0.15em 0.8em 0.15em 0; }
td { padding: 0.1em 0.8em 0.1em 0; vertical-align: top; }
td.centre, th.centre { text-align: center; }
td.right, th.right { text-align: right; }
dl.fields { display: grid; grid-template-columns: max-content auto; gap: 0.1em 1em; }
dl.fields dt { font-weight: bold; } dl.fields dd { margin: 0; }
section.unit { page-break-inside: avoid; break-inside: avoid; }
section.new-page { page-break-before: always; break-before: page; }
"""


# A control character in a name (an escape code, a bell) is written as its visible picture
# (ESC as ␛): a document opened in a terminal or an editor shows it and does not act on it.
_PICTURES = {c: 0x2400 + c for c in range(0x20) if chr(c) not in "\n\t"} | {0x7F: 0x2421}


def visible(text: str) -> str:
    """Text with its control characters written as their pictures.

    >>> visible("Elbe\x1b[31m")
    'Elbe␛[31m'
    """
    return text.translate(_PICTURES)


def _e(text: str) -> str:
    return html.escape(visible(text), quote=True)


def _html_block(block: Block) -> str:
    if isinstance(block, Heading):
        level = min(max(block.level + 1, 2), 6)  # h1 is the document's title
        note = f' <span class="note">{_e(block.note)}</span>' if block.note else ""
        return f"<h{level}>{_e(block.text)}{note}</h{level}>"
    if isinstance(block, Paragraph):
        cls = ' class="small"' if block.small else ""
        return f"<p{cls}>{_e(block.text)}</p>"
    if isinstance(block, Fields):
        items = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in block.pairs)
        return f'<dl class="fields">{items}</dl>'
    head = "".join(f'<th class="{c.align.value}">{_e(c.title)}</th>' for c in block.columns)
    body = "".join(
        "<tr>" + "".join(f'<td class="{c.align.value}">{_e(cell)}</td>'
                         for c, cell in zip(block.columns, row, strict=True)) + "</tr>"
        for row in block.rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def document_html(document: Document) -> str:
    """The document as one self-contained HTML page (its own styles, no scripts)."""
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             f"<title>{_e(document.title)} — {_e(document.campaign)}</title>",
             f"<style>{_CSS}</style>", "</head>", "<body>",
             f'<header class="page">{_e(document.header)}</header>',
             f"<h1>{_e(document.title)}</h1>"]
    for unit in document.units:
        cls = "unit new-page" if unit.new_page else "unit"
        parts.append(f'<section class="{cls}">')
        parts += [_html_block(b) for b in unit.blocks]
        parts.append("</section>")
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)


def _md(text: str) -> str:
    """Text with Markdown's own marks escaped, so a name is printed as it is spelt."""
    text = visible(text)
    for mark in "\\`*_[]#|<>":
        text = text.replace(mark, "\\" + mark)
    return text


def _cell(text: str) -> str:
    return visible(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


_RULE = {Align.LEFT: "---", Align.CENTRE: ":---:", Align.RIGHT: "---:"}


def _markdown_block(block: Block) -> list[str]:
    if isinstance(block, Heading):
        note = f" — {_md(block.note)}" if block.note else ""
        return ["#" * min(block.level + 1, 6) + " " + _md(block.text) + note, ""]
    if isinstance(block, Paragraph):
        return [f"*{_md(block.text)}*" if block.small else _md(block.text), ""]
    if isinstance(block, Fields):
        return [f"- **{_md(k)}**: {_md(v)}" for k, v in block.pairs] + [""]
    if not isinstance(block, Table):  # pragma: no cover - the union is closed
        raise TypeError(block)
    lines = ["| " + " | ".join(_cell(c.title) for c in block.columns) + " |",
             "| " + " | ".join(_RULE[c.align] for c in block.columns) + " |"]
    lines += ["| " + " | ".join(_cell(cell) for cell in row) + " |" for row in block.rows]
    return lines + [""]


def document_markdown(document: Document) -> str:
    """The document as Markdown: its title, the campaign and date, then every block."""
    lines = [f"# {_md(document.title)}", "", f"*{_md(document.header)}*", ""]
    for unit in document.units:
        for block in unit.blocks:
            lines += _markdown_block(block)
    return "\n".join(lines)

