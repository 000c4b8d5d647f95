"""The strategic map in the window: its scene of items, their style and colours, the picture
printed from it, and the view of the campaign on it beside the commands' table.

Kept empty of imports: the window's start imports the view and the colours, and the scene and
its style only once the map is first shown.
"""
