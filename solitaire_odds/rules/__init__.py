"""Games as data: declarations, switches, and resolving them into exact :class:`Rules`."""

from __future__ import annotations

from . import checks
from .games import GAMES
from .schema import (
    QUALIFIED,
    RULE_KEYS,
    Game,
    Rules,
    RulesError,
    Switch,
    field_switch,
    format_value,
    rule_key,
)

__all__ = [
    "GAMES",
    "QUALIFIED",
    "RULE_KEYS",
    "Game",
    "Rules",
    "RulesError",
    "Switch",
    "auto_ladder",
    "format_value",
    "parse_settings",
    "recorded",
    "resolve",
    "rule_key",
]


def get_game(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        raise RulesError(f"unknown game {name!r}; choose one of: {', '.join(GAMES)}") from None


def resolve(game: str, **settings) -> Rules:
    """The rules of ``game`` with the given settings (strings as on the command line, or
    Python values) and every other switch at its default. A setting names a switch
    (``space_fill``) or any part field (``piles`` or ``tableau.piles``,
    ``resolve("westcliff", **{"tableau.piles": 8})``): a variant no declaration names."""
    decl = get_game(game)
    switch_names = {s.name for s in decl.switches}
    switches, changes = {}, {}
    for name, value in settings.items():
        try:
            key = rule_key(name)
        except RulesError:
            decl.switch(name)  # raises, naming the game's switches
            raise
        if key in switch_names:
            switches[key] = decl.switch(key).parse(value, game)
        else:
            changes[key] = field_switch(key).parse(value, game)
    rules = decl.resolve(switches, changes)
    problems = checks.problems(rules)
    if problems:
        raise RulesError("\n".join(problems))
    return rules


def recorded(record: dict) -> Rules:
    """The rules a run's manifest (or a verdict file's) records: its game, switches and
    changed part fields."""
    return resolve(record["game"], **record["switches"], **record.get("changes", {}))


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
