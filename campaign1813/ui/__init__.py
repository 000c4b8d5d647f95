"""The PySide6 desktop application.

The main window, map view, order entry, battle window and dialogs. Views present the state that the
``campaign`` services return and call those services for every change; no rule lives here.
"""

APP_TITLE = "1813 Campaign Umpire"
