"""Loading and validating scenario data: the road map, the orders of battle, objectives, settings.

A scenario is a folder of TOML files. The loader turns it into validated, frozen values and refuses
bad data with a message naming the file, the entry and the reason.
"""
