"""Which file is a campaign, and in which schema version: read on every open, so kept light."""

APPLICATION = "campaign1813"
# ``PRAGMA application_id`` of every campaign file, so that other tools recognise it: "C813".
APPLICATION_ID = 0x43383133
SCHEMA_VERSION = 11
# The alembic revision of each schema version; version 1 files carry no alembic_version table.
REVISIONS = {1: "0001", 2: "0002", 3: "0003", 4: "0004", 5: "0005", 6: "0006", 7: "0007",
             8: "0008", 9: "0009", 10: "0010", 11: "0011"}
# The tables of a file at the newest schema version.
TABLES = frozenset({"document", "campaign", "scenario_file", "scenario_form", "day_command",
                    "day_order", "day_battle", "town_control", "day_info", "event_log", "fight",
                    "fight_step", "day_report", "order_import", "side_key", "day_snapshot",
                    "submitted_orders"})
