"""The painter is installed from above; without one a PDF is a clear refusal, not a crash."""

import pytest

from campaign1813.campaign.export import paper
from campaign1813.campaign.export.paper import NoPaperError, check_paper_size, install, installed
from campaign1813.errors import CampaignError


@pytest.fixture
def no_paper():
    before = paper._installed
    install(None)
    yield
    install(before)


def test_no_painter_installed_is_a_clear_error(no_paper):
    with pytest.raises(NoPaperError, match="PDF needs the printing support"):
        installed()


def test_the_installed_painter_is_the_one_given(no_paper):
    class Fake:
        def pdf(self, document, paper_size):
            return b"%PDF"

    fake = Fake()
    install(fake)
    assert installed() is fake
    assert isinstance(fake, paper.Paper)


def test_paper_sizes_are_a4_and_letter_in_any_case():
    assert check_paper_size("A4") == "a4"
    assert check_paper_size("Letter") == "letter"
    with pytest.raises(CampaignError, match="paper size 'a5': not known; use a4 or letter"):
        check_paper_size("a5")
