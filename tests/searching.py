"""Plain-Python helpers the solver tests share: walking randomly through the reference, a
plain depth-first search over reference positions, the engine states along the solver's
winning lines, and constructed endgames of the St. Helena family."""

from solitaire_odds.engine import api
from solitaire_odds.game import deals as numbered, reference
from solitaire_odds.game.position import Position


def random_walk(rules, position, steps, rng):
    for _ in range(steps):
        moves = sorted(reference.legal_moves(rules, position))
        if not moves:
            break
        to_found = [m for m in moves if m[0] == "move" and m[2].startswith("f")]
        position = reference.apply_move(rules, position, rng.choice(to_found or moves))
    return position


def winning_line_states(solver, deals):
    """(deal, engine state) for every position before a move of the solver's winning line of
    each of ``deals`` it wins, in order; the deals it does not win are skipped."""
    pa = api.params(solver.rules)
    for deal in deals:
        result = solver.solve(deal)
        if result.verdict != "won":
            continue
        state = api.first_state(pa, numbered.deck(deal))
        for move in result.line:
            yield deal, state
            api.play_row(state, pa, api.move_row(move, pa))


def reference_search(rules, root, limit):
    """(exhaustive, won) by depth-first search over reference positions, at most ``limit``."""
    seen, stack = {repr(root)}, [root]
    while stack:
        position = stack.pop()
        if reference.is_won(rules, position):
            return True, True
        for move in reference.legal_moves(rules, position):
            child = reference.apply_move(rules, position, move)
            key = repr(child)
            if key not in seen:
                if len(seen) >= limit:
                    return False, False
                seen.add(key)
                stack.append(child)
    return True, False


def two_deck_endgame(rng, loose):
    """A St. Helena family position with about ``loose`` cards left in the 12 piles: each
    upper (King) foundation holds K down to some rank, each lower (Ace) one A up to some rank,
    and the cards of the two decks not on them are shuffled into the piles."""
    found, left = [], []
    heights = []
    for suit in range(4):
        while True:
            upper, lower = rng.randint(1, 13), rng.randint(1, 13)
            if 26 - upper - lower <= 2 * loose // 4 + rng.randint(0, 3):
                break
        heights.append((upper, lower))
    for suit, (upper, lower) in enumerate(heights):
        for rank in range(13):
            copies = 2 - (rank >= 13 - upper) - (rank < lower)
            left += [suit * 13 + rank] * copies
    found = [u for u, _ in heights] + [l for _, l in heights]
    rng.shuffle(left)
    piles = [[] for _ in range(12)]
    for card in left:
        piles[rng.randrange(12)].append(card)
    return Position(piles=piles, down=[0] * 12, found=found, redeals_used=rng.choice([0, 2, 2]))
