"""The 1813 Campaign Umpire.

An umpire's desktop tool for a Napoleonic map campaign fought with model soldiers: the road map of
five theatres, ten army groups, the campaign day with its orders, contacts and battles, and an
embedded battle-resolution engine. ``campaign`` holds the domain and its services, ``maps`` the road
network, ``ui`` the PySide6 application and ``data`` the shipped scenario and ruleset files.
"""

__version__ = "0.1.0"
