"""Rule settings the cross-checking tests sweep: every game at its defaults, and every other
value of every switch with the rest at their defaults."""

from solitaire_odds.rules import GAMES, format_value


def switch_settings(extra_counts=(0, 3)):
    """(game, {switch: value}) pairs, one switch changed at a time."""
    out = []
    for game in GAMES.values():
        out.append((game.name, {}))
        for switch in game.switches:
            if isinstance(switch.default, bool):
                values = [not switch.default]
            elif isinstance(switch.default, int):
                values = [v for v in extra_counts if v != switch.default]
            else:
                values = [c for c in switch.choices if c != switch.default]
            out.extend((game.name, {switch.name: v}) for v in values)
    return out


def setting_id(item):
    game, switches = item
    return " ".join([game] + [f"{k}={format_value(v)}" for k, v in switches.items()])
