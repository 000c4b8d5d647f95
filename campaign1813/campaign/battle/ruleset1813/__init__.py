"""The 1813 rules (seed 000, Rules 1–18) and their revision (seed 003, "1813-revised"): their
tables as data (:mod:`.rules`), a battle in progress (:mod:`.fight`, :mod:`.fight_tests`,
:mod:`.session`), auto-resolve (:mod:`.autoresolve`) and the engine class (:mod:`.engine`)."""
