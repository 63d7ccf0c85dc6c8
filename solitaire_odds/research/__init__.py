"""Research on the committed results: tidy tables (:mod:`.results`), the published claims and
their readings (:mod:`.claims`), reproducing them end to end (:mod:`.reproduce`) and charts
(:mod:`.plots`)."""
