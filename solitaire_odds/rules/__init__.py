"""Games as data: declarations, switches, and resolving them into exact :class:`Rules`."""

from __future__ import annotations

from .games import GAMES
from .schema import RULE_KEYS, Game, Rules, RulesError, Switch, format_value

__all__ = ["GAMES", "RULE_KEYS", "Game", "Rules", "RulesError", "Switch", "resolve", "parse_settings", "format_value", "auto_ladder"]


def get_game(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        raise RulesError(f"unknown game {name!r}; choose one of: {', '.join(GAMES)}") from None


def resolve(game: str, **switches) -> Rules:
    """The rules of ``game`` with the given switches (strings as on the command line, or
    Python values) and every other switch at its default."""
    decl = get_game(game)
    return decl.resolve({key: decl.switch(key).parse(value, game) for key, value in switches.items()})


def parse_settings(pairs) -> dict:
    """``["key=value", ...]`` from ``--set`` into a dict, with a clear error for bad syntax."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise RulesError(f"--set takes key=value, not {pair!r}")
        out[key.strip()] = value.strip()
    return out


def auto_ladder(rules: Rules) -> tuple[int, ...]:
    """The solver's escalation for ``--budget auto``, as the game's declaration names it."""
    return get_game(rules.game).ladder_for(rules)
