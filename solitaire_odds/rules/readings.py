"""Which readings of a game allow at least the moves of which others: the proven "at least as
loose" relation between two :class:`~.schema.Rules`, for carrying a verdict across readings.

If every line of play legal under a strict reading is legal under a loose one, from the same
deal, and leads to the same cards in the same places, then a win of the strict reading is a
win of the loose one (its line replays there), and a loss of the loose one (no line wins) is a
loss of the strict one. :func:`at_least_as_loose` says when that holds; the solver's transfer
step (``Solver(..., looser=..., stricter=...)``) uses it.

The inclusions, each read off the rules (docs/rules.md) and checked against the engine's move
generation (engine/core.py), where each of these fields gates one kind of move and changes
neither the deal nor what a move does:

* ``space_fill``: none < king < any. Whether a card or run may enter a space is the only thing
  it decides (``space_takes``): nothing, then a King or a run headed by one, then anything.
  Duchess' reserve-then-waste spaces are another rule, compared with none of these.
* ``run_moves``: single < whole < partial. How many cards may leave a pile's run at once: one;
  one or the whole run; any number from the top. What counts as the run is the same in all
  three (the face-up cards on top that follow the building rule).
* ``waste_playable``: off < on. Off, the waste's top card plays only right after it was turned
  (the position's ``waste_live`` flag); on, at any time. Every other move, turning and the
  redeal of the waste included, is legal alike.
* ``foundation_return``: off < on. On adds the moves of a foundation's top card back onto a
  pile or into a space, and nothing else.
* ``redeals``: fewer < more, with the same kind of redeal. A redeal is legal while fewer than
  the allowed number were made; what it does does not depend on that number.

Every other rule must be equal (``aces_out_first`` changes the deal, ``pattern`` and the
layout what is dealt where, and so on). Two readings differing in several of these fields,
each the loose one's way, are ordered too: a move legal under the strict reading passes each
field's gate under the loose one, its gates being wider, and the other gates are the same; the
move then makes the same position (only ``waste_live`` may differ, and it matters only to the
waste's gate, which is open under the loose reading). By induction along the line, every
strict line is a loose line through the same positions.
"""

from __future__ import annotations

from .schema import RULE_KEYS, Rules

ORDERS = {
    "space_fill": ("none", "king", "any"),
    "run_moves": ("single", "whole", "partial"),
    "waste_playable": (False, True),
    "foundation_return": (False, True),
}
"""Per field, its values from the strictest to the loosest (docstring above)."""
COUNTED = ("redeals",)
"""Fields where a larger number allows more."""


def at_least_as_loose(loose: Rules, strict: Rules) -> bool:
    """Is every line legal under ``strict`` legal under ``loose``, from the same deal, through
    the same positions? True when the two differ only in the fields of :data:`ORDERS` and
    :data:`COUNTED`, each ``loose`` value at least the ``strict`` one (equal rules included)."""
    for key in RULE_KEYS:
        a, b = loose[key], strict[key]
        if a == b:
            continue
        if key in ORDERS:
            order = ORDERS[key]
            if a not in order or b not in order or order.index(a) < order.index(b):
                return False
        elif key in COUNTED:
            if a < b:
                return False
        else:
            return False
    return True


def require_looser(loose: Rules, strict: Rules) -> None:
    """Raise ValueError unless ``loose`` is proven at least as loose as ``strict``."""
    if not at_least_as_loose(loose, strict):
        raise ValueError(f"{loose.label()} is not proven to allow every line of {strict.label()}: "
                         f"only {', '.join((*ORDERS, *COUNTED))} may differ, each the looser way")
