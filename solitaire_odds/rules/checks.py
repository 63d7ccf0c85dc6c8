"""Whether a set of rules is a game that can be dealt and played: one line per problem.

A declaration is checked by its tests; a variant (a changed part field, a rules file) is
checked here when it is resolved, so that a layout the pack cannot fill or a combination the
engine has no meaning for is refused with a clear line instead of a crash or a quiet wrong
answer deep in a run.
"""

from __future__ import annotations

MAX_PLACES = 60
"""Tableau piles plus reserve fans: the engine's state has room for this many places."""
MAX_MOVES = 1024
"""The engine lists a position's moves in a buffer of this many rows (engine.constants)."""


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
    if not out:
        out += [f"{name}: the engine cannot play {what}" for what in unplayable(rules)]
    return out


def unplayable(rules) -> list[str]:
    """The combinations of parts whose play the rules leave undefined (or the engine's state
    cannot hold), each as "X with Y"."""
    out = []
    found = rules["foundations"]
    if rules["aces_out_first"] and found != "suit-up":
        out.append(f"foundations.aces_out_first with {found} foundations (only Ace-based ones start from the Aces)")
    if rules["foundation_transfer"] and found != "kings-and-aces":
        out.append(f"foundations.foundation_transfer with {found} foundations (a transfer crosses between a "
                   "suit's King and Ace foundations)")
    if rules["foundation_return"] and found == "kings-and-aces":
        out.append("foundations.foundation_return with kings-and-aces foundations (whether the base King or "
                   "Ace may come back is not defined)")
    if rules["first_deal_foundations"] and found != "kings-and-aces":
        out.append(f"foundations.first_deal_foundations with {found} foundations (it names King (upper) and "
                   "Ace (lower) foundations)")
    if rules["first_deal_foundations"] and rules["opening"] != "none":
        out.append(f"foundations.first_deal_foundations with deal.opening={rules['opening']} (the opening's "
                   "foundation plays take no pile limits)")
    if found == "chosen-base" and rules["reserve_fans"] == 0:
        out.append("chosen-base foundations with deal.reserve_fans=0 (the base is the first card played "
                   "from the reserve)")
    if (rules["redeal_kind"] == "gather-piles" and rules["redeals"] > 0 and rules["pattern"] == "rows"
            and rules["rows_down"] > 0):
        out.append("redeal.redeal_kind=gather-piles with deal.rows_down > 0 (whether gathered cards are "
                   "dealt face down again is not defined)")
    left = cards_to_deal(rules) - dealt_before_play(rules)
    if rules["stock"] == "none" and left > 0 and rules["opening"] == "none":
        out.append(f"stock.stock=none with {left} cards left after the deal (they could never be played)")
    if most_moves(rules) > MAX_MOVES:
        out.append(f"{rules['piles']} tableau piles with these rules (a position may have more than "
                   f"{MAX_MOVES} moves); use fewer piles")
    return out


def most_moves(rules) -> int:
    """An upper bound on the legal moves of any position of ``rules``, over every number e of
    empty piles: each source card or run has at most ``b`` piles whose top card takes it (b
    card values it builds on, times the copies of each) and e spaces; a pile's runs tried are
    at most its cards (partial runs; 13 without wrap building down in alternating colours),
    two (whole runs) or one (single)."""
    n, fans, two_decks = rules["piles"], rules["reserve_fans"], rules["ncards"] == 104
    nfound = 8 if rules["foundations"] == "kings-and-aces" else 4
    values = 8 if rules["build"] == "up-or-down" and rules["build_suit"] == "any" else 2
    values *= 2 if two_decks else 1
    longest = 13 if rules["build"] == "alt-colour-down" and not rules["wrap"] else rules["ncards"]
    most = 0
    for e in range(n + 1):
        full = n - e
        b = min(full, values)
        runs = {"single": full, "whole": 2 * full}.get(rules["run_moves"], min(rules["ncards"], longest * full))
        singles = fans + 1 + nfound  # reserve tops, the waste's top, foundation returns
        most = max(most, 2 * n + runs * (b + e) + singles * (2 + b + e) + e + nfound + 2)
    return most
