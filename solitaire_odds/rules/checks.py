"""Whether a set of rules is a game that can be dealt and played: one line per problem.

A declaration is checked by its tests; a variant (a changed part field, a rules file) is
checked here when it is resolved, so that a layout the pack cannot fill or a combination the
engine has no meaning for is refused with a clear line instead of a crash or a quiet wrong
answer deep in a run.
"""

from __future__ import annotations

MAX_PLACES = 60
"""Tableau piles plus reserve fans: the engine's state has room for this many places."""


def dealt_before_play(rules) -> int:
    """The cards the deal lays out (tableau and reserve) before the first move."""
    piles, fans = rules["piles"], rules["reserve_fans"] * rules["fan_size"]
    if rules["pattern"] == "rows":
        return piles * (rules["rows_down"] + 1) + fans
    if rules["pattern"] == "one-each":
        return piles + fans
    return cards_to_deal(rules)  # round-robin: every card


def cards_to_deal(rules) -> int:
    """The pack less the cards that start on the foundations."""
    if rules["foundations"] == "kings-and-aces":
        return rules["ncards"] - 8
    return rules["ncards"] - (4 if rules["aces_out_first"] else 0)


def problems(rules) -> list[str]:
    """Every reason ``rules`` cannot be played, each one line naming the rule and what to do."""
    out = []
    name = rules.label()
    if rules["ncards"] not in (52, 104):
        out.append(f"{name}: pack.ncards is 52 (one deck) or 104 (two decks), not {rules['ncards']}")
        return out
    if rules["piles"] < 1:
        out.append(f"{name}: tableau.piles must be at least 1")
    if rules["piles"] + rules["reserve_fans"] > MAX_PLACES:
        out.append(f"{name}: at most {MAX_PLACES} tableau piles and reserve fans together")
    if bool(rules["reserve_fans"]) != bool(rules["fan_size"]):
        out.append(f"{name}: deal.reserve_fans and deal.fan_size are both 0 or both at least 1")
    if rules["foundations"] == "kings-and-aces" and rules["ncards"] != 104:
        out.append(f"{name}: kings-and-aces foundations need two decks (pack.ncards = 104)")
    if rules["foundations"] != "kings-and-aces" and rules["ncards"] != 52:
        out.append(f"{name}: {rules['foundations']} foundations are played with one deck (pack.ncards = 52)")
    if len(rules["first_deal_foundations"]) > rules["piles"]:
        out.append(f"{name}: foundations.first_deal_foundations names {len(rules['first_deal_foundations'])} "
                   f"piles, but there are {rules['piles']}")
    if not out and dealt_before_play(rules) > cards_to_deal(rules):
        out.append(f"{name}: the deal lays out {dealt_before_play(rules)} cards, but only "
                   f"{cards_to_deal(rules)} are left to deal; use fewer piles or rows")
    return out
