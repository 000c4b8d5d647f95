"""A document rendered as HTML and as Markdown: every block, in order, its text escaped."""

from html.parser import HTMLParser

from campaign1813.campaign.export.document import (
    Align,
    Column,
    Document,
    Fields,
    Heading,
    Paragraph,
    Table,
    Unit,
)
from campaign1813.campaign.export.render import document_html, document_markdown

DOC = Document("Orders of Battle", "Spring <1813>", "1 May 1813", (
    Unit((Heading("Second French Army"), Fields((("CinC", "Marshal Davout, Average +2"),)))),
    Unit((Heading("4 Corps", 2, note="French"),
          Table((Column("No.", Align.RIGHT), Column("Name")),
                (("13", "Brigade *Dufour*"), ("14", "A|B")))), new_page=True),
    Unit((Paragraph("Grades: Gifted +3, Average +2, Poor +1", small=True),)),
))


class _Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.text: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        if data.strip():
            self.text.append(data.strip())


def test_html_holds_every_block_in_order_with_its_text_escaped():
    page = document_html(DOC)
    parser = _Text()
    parser.feed(page)
    body = parser.text[parser.text.index("Spring <1813> — 1 May 1813"):]
    assert body == ["Spring <1813> — 1 May 1813", "Orders of Battle", "Second French Army",
                    "CinC", "Marshal Davout, Average +2", "4 Corps", "French", "No.", "Name",
                    "13", "Brigade *Dufour*", "14", "A|B",
                    "Grades: Gifted +3, Average +2, Poor +1"]
    assert "Spring &lt;1813&gt;" in page
    assert parser.tags.count("section") == 3
    assert '<section class="unit new-page">' in page
    assert '<td class="right">13</td>' in page


def test_markdown_holds_every_block_with_its_marks_escaped():
    assert document_markdown(DOC).splitlines() == [
        "# Orders of Battle", "", "*Spring \\<1813\\> — 1 May 1813*", "",
        "## Second French Army", "",
        "- **CinC**: Marshal Davout, Average +2", "",
        "### 4 Corps — French", "",
        "| No. | Name |", "| ---: | --- |", "| 13 | Brigade *Dufour* |", "| 14 | A\\|B |", "",
        "*Grades: Gifted +3, Average +2, Poor +1*",
    ]
