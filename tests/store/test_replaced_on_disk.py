"""A campaign file replaced on disk while it is open (another program's backup or export with
``--overwrite`` onto it) is noticed: an action is refused with the reason, and neither the file
now at the name nor the one replaced is changed."""

import hashlib
import os
import shutil

import pytest

from campaign1813.campaign import queries, services
from campaign1813.campaign.errors import CampaignFileError
from campaign1813.campaign.store.document import open_campaign


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_an_action_on_a_campaign_replaced_on_disk_is_refused_with_the_reason(
        tmp_path, fresh_campaign):
    path = fresh_campaign(tmp_path / "c.c1813")
    with open_campaign(path) as doc:
        assert not doc.replaced()
        shutil.copy(path, tmp_path / "copy.c1813")
        os.replace(tmp_path / "copy.c1813", path)
        assert doc.replaced()
        now = digest(path)
        with pytest.raises(CampaignFileError, match="was replaced or removed on disk by "
                                                    "another program since it was opened"):
            services.issue_order(doc, "5 Corps", "Hold", "Magdeburg")
    assert digest(path) == now
    with open_campaign(path) as doc:
        assert "5 Corps" not in queries.day_state(doc).orders


def test_an_action_on_a_campaign_removed_on_disk_is_refused(tmp_path, fresh_campaign):
    path = fresh_campaign(tmp_path / "c.c1813")
    with open_campaign(path) as doc:
        path.unlink()
        with pytest.raises(CampaignFileError, match="replaced or removed"):
            services.end_day(doc)
    assert not path.exists()


def test_a_campaign_opened_through_a_link_is_not_replaced_by_reading_it(tmp_path,
                                                                        fresh_campaign):
    path = fresh_campaign(tmp_path / "c.c1813")
    link = tmp_path / "link.c1813"
    link.symlink_to(path)
    with open_campaign(link) as doc:
        services.issue_order(doc, "5 Corps", "Hold", "Magdeburg")
        assert not doc.replaced()
