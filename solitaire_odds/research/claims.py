"""Published win odds, each with its source, what it measures, and the rule readings that
could explain it.

A figure such as "9 in 10" rarely says under which rules or for which kind of player it holds.
Each :class:`Claim` therefore carries the readings to test: the game's defaults first, then
switch settings (docs/rules.md) that a source might have meant. :mod:`.reproduce` measures them all.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Rules, parse_settings, resolve

SOLVABLE = "solvable"
"""The claim is the share of deals winnable with every card known."""
PLAY = "play"
"""The claim is the share a person wins, not seeing face-down cards or the stock order."""
NO_FIGURE = "no published figure"
"""The text of an entry whose game has no published odds: it names the readings to measure."""


@dataclass(frozen=True)
class Claim:
    key: str                      # short name, e.g. westcliff-mms
    game: str
    text: str                     # the figure as published, or NO_FIGURE
    value: float | None           # the figure as a share (None: no published figure)
    interval: tuple[float, float] | None  # the published interval, when there is one
    measures: str                 # SOLVABLE or PLAY
    source: str
    note: str                     # what the source leaves open
    readings: tuple[str, ...]     # switch settings "key=value ..." ("" = the game's defaults)

    def rules(self, reading: str) -> Rules:
        """The exact rules of one reading."""
        return resolve(self.game, **parse_settings(reading.split()))

    def reading_label(self, reading: str) -> str:
        return reading or "defaults"


CLAIMS: tuple[Claim, ...] = (
    Claim(
        key="westcliff-classic",
        game="westcliff-classic",
        text="about 1 in 4",
        value=0.25,
        interval=None,
        measures=PLAY,
        source="Wikipedia, 'Westcliff (card game)' (infobox and lead, citing Morehead & Mott-Smith "
               "1949 pp. 43-44)",
        note="no player or method stated; Whitmore Jones and Parlett only imply that the waste's "
             "top card is playable, and some programs put the Aces out first",
        readings=("", "waste_playable=off", "aces_out_first=on",
                  "waste_playable=off aces_out_first=on"),
    ),
    Claim(
        key="westcliff",
        game="westcliff",
        text="9 in 10",
        value=0.9,
        interval=None,
        measures=PLAY,
        source="Morehead & Mott-Smith 1949 pp. 43-44, as quoted by Wikipedia, 'Westcliff (card "
               "game)'",
        note="no player or method stated; rule sheets differ on moving part of a run and on what "
             "fills a space",
        readings=("", "run_moves=whole", "run_moves=single", "space_fill=king"),
    ),
    Claim(
        key="duchess",
        game="duchess",
        text="1 in 8",
        value=0.125,
        interval=None,
        measures=PLAY,
        source="Wikipedia, 'Duchess (card game)' (infobox, after Arnold 2011 pp. 41-42)",
        note="no player or method stated; PySolFC and Aisleriot move a single card or the whole "
             "pile; a redeal is not in every rule sheet",
        readings=("", "run_moves=whole", "run_moves=single", "redeals=0"),
    ),
    Claim(
        key="easthaven-solvitaire",
        game="easthaven",
        text="82.844% +/- 0.100% (2,000,000 deals)",
        value=0.82844,
        interval=(0.82744, 0.82944),
        measures=SOLVABLE,
        source="Solvitaire's results (Blake & Gent, 'The Winnability of Klondike Solitaire and "
               "Many Other Patience Games', arXiv:1906.12314): Easthaven with every card known",
        note="Solvitaire's Easthaven lets any card fill a space and foundation cards come back; "
             "the book rules (King into a space, no return) are the defaults here",
        readings=("space_fill=any foundation_return=on", "", "space_fill=any",
                  "foundation_return=on"),
    ),
    Claim(
        key="st-helena",
        game="st-helena",
        text=NO_FIGURE,
        value=None,
        interval=None,
        measures=SOLVABLE,
        source="none found (Solvitaire cannot express a fixed number of gathering redeals)",
        note="all cards face up, so the solvable share is a perfect player's odds; the book builds "
             "by suit, PySolFC and Goodsol regardless of suit; some sources let any card fill a space",
        readings=("", "build_suit=any", "space_fill=any"),
    ),
    Claim(
        key="louis",
        game="louis",
        text=NO_FIGURE,
        value=None,
        interval=None,
        measures=SOLVABLE,
        source="none found",
        note="all cards face up; the readings are St. Helena's (suit or any suit, spaces filled or not)",
        readings=("", "build_suit=any", "space_fill=any"),
    ),
    Claim(
        key="box-kite",
        game="box-kite",
        text=NO_FIGURE,
        value=None,
        interval=None,
        measures=SOLVABLE,
        source="none found",
        note="all cards face up; PySolFC builds regardless of suit, with wrap and transfers between "
             "the two foundations of a suit",
        readings=("", "build_suit=any wrap=on foundation_transfer=on", "build_suit=any", "space_fill=any"),
    ),
)


def claims_for(keys=None) -> list[Claim]:
    """The claims named by ``keys`` (all when None), or ValueError naming the valid keys."""
    if keys is None:
        return list(CLAIMS)
    known = {claim.key: claim for claim in CLAIMS}
    unknown = [key for key in keys if key not in known]
    if unknown:
        raise ValueError(f"unknown claim {unknown[0]!r}; choose from {', '.join(known)}")
    return [known[key] for key in keys]
