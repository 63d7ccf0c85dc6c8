"""The seven games of RULES.md as declarations: fixed rule values plus named switches."""

from __future__ import annotations

from .schema import Game, Switch

ON_OFF_RETURN = Switch("foundation_return", False, source="off in the sources; on in Solvitaire's Easthaven")


def _run_moves(default="partial"):
    return Switch("run_moves", default, ("partial", "whole", "single"),
                  "partial: MMS; whole (top card or whole run): some rule sheets, PySolFC; single: one card")


WESTCLIFF_BASE = dict(
    layout="westcliff", ncards=52, rows_down=2, reserve_fans=0, foundations="suit-up",
    build="alt-colour-down", build_suit="same", wrap=False, stock="turn", waste_playable=True,
    aces_out_first=False, foundation_transfer=False, first_deal_restriction=False,
    redeals=0, redeal_order="top_first", run_moves="partial", space_fill="any",
)

ST_HELENA_BASE = dict(
    layout="st-helena", ncards=104, piles=12, rows_down=0, reserve_fans=0,
    foundations="kings-and-aces", build="up-or-down", run_moves="single", stock="none",
    waste_playable=True, aces_out_first=False, foundation_return=False,
)


def _st_helena_switches(redeals: int) -> tuple[Switch, ...]:
    return (
        Switch("space_fill", "none", ("none", "any"), "none: PySolFC, Goodsol; any: other sources"),
        Switch("build_suit", "same", ("same", "any"), "any: PySolFC and Goodsol"),
        Switch("redeals", redeals),
        Switch("redeal_order", "top_first", ("top_first", "bottom_first"), "top_first: PySolFC"),
        Switch("foundation_transfer", False),
        Switch("wrap", False, source="on: PySolFC lets King and Ace meet"),
    )


GAMES: dict[str, Game] = {}


def _declare(game: Game) -> None:
    GAMES[game.name] = game


_declare(Game(
    "westcliff-classic", "Classic Westcliff", "Whitmore Jones 1911, Parlett 1979",
    {**WESTCLIFF_BASE, "piles": 7},
    (
        Switch("waste_playable", True, source="the sources only imply it"),
        Switch("aces_out_first", False, source="on: some programs"),
        ON_OFF_RETURN,
    ),
    claim="about 1 in 4",
))
_declare(Game(
    "westcliff", "American Westcliff", "Morehead & Mott-Smith 1949",
    {**WESTCLIFF_BASE, "piles": 10},
    (
        _run_moves(),
        Switch("space_fill", "any", ("any", "king", "none")),
        ON_OFF_RETURN,
    ),
    claim="9 in 10",
))
_declare(Game(
    "easthaven", "Easthaven", "Morehead & Mott-Smith 1949",
    {**WESTCLIFF_BASE, "piles": 7, "stock": "deal-row"},
    (
        Switch("space_fill", "king", ("king", "any"), "any (with foundation_return=on): Solvitaire"),
        ON_OFF_RETURN,
    ),
))
_declare(Game(
    "st-helena", "St. Helena", "Arnold 2010, Morehead & Mott-Smith",
    {**ST_HELENA_BASE, "first_deal_restriction": True},
    _st_helena_switches(2),
))
_declare(Game(
    "louis", "Louis", "variant of St. Helena",
    {**ST_HELENA_BASE, "layout": "louis", "first_deal_restriction": False},
    _st_helena_switches(2),
))
_declare(Game(
    "box-kite", "Box Kite", "variant of St. Helena",
    {**ST_HELENA_BASE, "first_deal_restriction": False},
    _st_helena_switches(0),
))
_declare(Game(
    "duchess", "Duchess (Glenwood)", "Morehead & Mott-Smith 1950, Arnold 2011",
    dict(
        layout="duchess", ncards=52, piles=4, rows_down=0, reserve_fans=4, foundations="chosen-base",
        build="alt-colour-down", build_suit="same", wrap=True, space_fill="reserve-then-waste",
        stock="turn", waste_playable=True, aces_out_first=False, foundation_return=False,
        foundation_transfer=False, first_deal_restriction=False, redeal_order="top_first",
    ),
    (_run_moves(), Switch("redeals", 1)),
    claim="1 in 8",
))
