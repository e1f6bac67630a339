# Sourced by the pending cases (before test/lib.sh, whose helpers these
# call): the assertions a case of issue 10 ("A pass that can be believed")
# makes. When a case moves to test/cases/, move what it uses of this file
# into test/lib.sh. Already moved there: expect_open, expect_answer,
# judge_answer, expect_also, evidence_of, with_origin, exempt_forge,
# stop_hook, hook_decision.
