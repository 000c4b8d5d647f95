"""Ruleset 002 (seed 002): units count hits, shooting and cavalry charges are rolled on dice,
commanders and the General rally; side A and side B take each phase in turn.

Its tables as data (:mod:`.tables`, checked by :mod:`.schema`), its tests as pure functions with
exact odds (:mod:`.shooting`, :mod:`.charges`, :mod:`.rally`, :mod:`.movement`), the campaign's
corps converted to its units (:mod:`.convert`), a battle in progress (:mod:`.battle`),
auto-resolve (:mod:`.auto`) and its engine class (:mod:`.engine`).
"""

RULESET = "002"
