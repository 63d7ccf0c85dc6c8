"""The seven games as declarations: the parts where they differ from the defaults, and switches."""

from __future__ import annotations

from .schema import Deal, Foundations, Game, Pack, Redeal, Stock, Switch, Tableau

ON_OFF_RETURN = Switch("foundation_return", False, source="off in the sources; on in Solvitaire's Easthaven")


def _run_moves(default="partial"):
    return Switch("run_moves", default, ("partial", "whole", "single"),
                  "partial: MMS; whole (top card or whole run): some rule sheets, PySolFC; single: one card")


# --budget auto escalations (Game.ladder), from the measured deciding table (experiments/decide.py
# --escalate, deals 0..1,999): mean CPU-s a deal on one core of this project's machine.
TO_1E6 = (100_000, 1_000_000)
TO_1E7 = (100_000, 1_000_000, 10_000_000)
TO_1E8 = (100_000, 1_000_000, 10_000_000, 100_000_000)

# Two face-down rows under a face-up row; the rest is the stock.
WESTCLIFF_DEAL = Deal(pattern="rows", rows_down=2)

# St. Helena family: two decks, a King and an Ace of each suit out first, all 96 others dealt
# round the 12 piles; piles build up or down one card at a time; redeals gather the piles.
TWO_DECKS = Pack(ncards=104)
ST_HELENA_TABLEAU = Tableau(piles=12, build="up-or-down", run_moves="single", space_fill="none")
ROUND_ROBIN = Deal(pattern="round-robin")
NO_STOCK = Stock(stock="none")
GATHER = Redeal(redeals=2, redeal_kind="gather-piles")
# First deal only: piles 1-4 play to the King foundations, 7-10 to the Ace foundations.
ST_HELENA_FIRST_DEAL = ("upper",) * 4 + ("either",) * 2 + ("lower",) * 4 + ("either",) * 2


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
    tableau=Tableau(piles=7), deal=WESTCLIFF_DEAL,
    switches=(
        Switch("waste_playable", True, source="the sources only imply it"),
        Switch("aces_out_first", False, source="on: some programs"),
        ON_OFF_RETURN,
    ),
    claim="about 1 in 4",
    ladder=TO_1E7,  # 0.93 CPU-s a deal, 2.4% unknown
))
_declare(Game(
    "westcliff", "American Westcliff", "Morehead & Mott-Smith 1949",
    tableau=Tableau(piles=10), deal=WESTCLIFF_DEAL,
    switches=(
        _run_moves(),
        Switch("space_fill", "any", ("any", "king", "none")),
        ON_OFF_RETURN,
    ),
    claim="9 in 10",
    ladder=TO_1E7,  # 1e5 then 1e6: under 0.001 CPU-s a deal, 1 of 100,000 unknown
))
_declare(Game(
    "easthaven", "Easthaven", "Morehead & Mott-Smith 1949",
    tableau=Tableau(piles=7), deal=WESTCLIFF_DEAL, stock=Stock(stock="deal-row"),
    switches=(
        Switch("space_fill", "king", ("king", "any"), "any (with foundation_return=on): Solvitaire"),
        ON_OFF_RETURN,
    ),
    ladder=TO_1E7,  # 0.74 CPU-s a deal, 0.85% unknown (1e8: 1.5 CPU-s, 0.15%)
    reading_ladders=(((("space_fill", "any"), ("foundation_return", True)), TO_1E8),),  # 0.69 CPU-s, 0.45%
))
_declare(Game(
    "st-helena", "St. Helena", "Arnold 2010, Morehead & Mott-Smith",
    pack=TWO_DECKS, tableau=ST_HELENA_TABLEAU, deal=ROUND_ROBIN, stock=NO_STOCK, redeal=GATHER,
    foundations=Foundations("kings-and-aces", first_deal_foundations=ST_HELENA_FIRST_DEAL),
    switches=_st_helena_switches(2),
    ladder=TO_1E6,  # 1.82 CPU-s a deal, 16.5% unknown (1e7: 2.9 CPU-s, 11.6%)
))
_declare(Game(
    "louis", "Louis", "variant of St. Helena",
    pack=TWO_DECKS, tableau=ST_HELENA_TABLEAU, stock=NO_STOCK, redeal=GATHER,
    deal=Deal(pattern="one-each", opening="foundation-plays-then-deal"),
    foundations=Foundations("kings-and-aces"),
    switches=_st_helena_switches(2),
    ladder=TO_1E6,  # 1.09 CPU-s a deal, 7.2% unknown
))
_declare(Game(
    "box-kite", "Box Kite", "variant of St. Helena",
    pack=TWO_DECKS, tableau=ST_HELENA_TABLEAU, deal=ROUND_ROBIN, stock=NO_STOCK, redeal=GATHER,
    foundations=Foundations("kings-and-aces"),
    switches=_st_helena_switches(0),
    ladder=TO_1E6,  # 0.57 CPU-s a deal, 13.5% unknown (1e7: 5.4 CPU-s, 10%)
))
_declare(Game(
    "duchess", "Duchess (Glenwood)", "Morehead & Mott-Smith 1950, Arnold 2011",
    tableau=Tableau(piles=4, wrap=True, space_fill="reserve-then-waste"),
    deal=Deal(pattern="one-each", reserve_fans=4, fan_size=3),
    foundations=Foundations("chosen-base"),
    redeal=Redeal(redeals=1, redeal_kind="turn-waste"),
    switches=(_run_moves(), Switch("redeals", 1)),
    claim="1 in 8",
    ladder=TO_1E7,  # 0.026 CPU-s a deal, 0.03% unknown
))
