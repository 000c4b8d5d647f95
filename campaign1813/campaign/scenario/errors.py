"""The scenario loader's error."""

from campaign1813.campaign.errors import CampaignError


class ScenarioError(CampaignError):
    """Bad scenario data. The message names the file, the entry and the reason, e.g.
    ``armies.toml: 4 Corps (Second French Army), brigade 15: firepower 'D' is not A, B or C``.
    Several problems are joined one per line.
    """
