"""File ▸ Restore From Backup…: the backup put back, the campaign as it was kept aside."""

from campaign1813.campaign import queries, services
from campaign1813.campaign.store.document import open_campaign


def test_file_restore_from_backup_puts_the_backup_back_and_keeps_the_campaign_aside(window,
                                                                                    tmp_path):
    backup = tmp_path / "before-orders.c1813"
    assert window.back_up(backup)
    services.issue_order(window.document, "4 Corps", "Move", "Lüneburg")
    assert "4 Corps" in queries.day_state(window.document).orders
    path = window.document.path
    assert window.menus.restore_action.text() == "Restore From Bac&kup…"
    assert window.restore_from_backup(backup, confirm=True)
    assert window.document.path == path
    assert "4 Corps" not in queries.day_state(window.document).orders  # the backup's day
    assert "kept as" in window.statusBar().currentMessage()
    aside = path.with_name(path.name + ".before-restore")
    with open_campaign(aside) as kept:  # the campaign as it was, order and all
        assert "4 Corps" in queries.day_state(kept).orders


def test_a_restore_that_cannot_be_made_leaves_the_campaign_open_as_it_was(window, tmp_path):
    junk = tmp_path / "junk.c1813"
    junk.write_bytes(b"not a campaign")
    path = window.document.path
    assert not window.restore_from_backup(junk, confirm=True)
    assert window.document is not None and window.document.path == path
    assert not path.with_name(path.name + ".before-restore").exists()
