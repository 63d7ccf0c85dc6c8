"""Games as data: declarations, switches, rules files, and resolving them into exact :class:`Rules`."""

from __future__ import annotations

import ast

from . import checks, files
from .files import is_rules_file
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
    "is_rules_file",
    "parse_settings",
    "recorded",
    "resolve",
    "rule_key",
    "whole_game",
]


def get_game(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        raise RulesError(f"unknown game {name!r}; choose one of: {', '.join(GAMES)} "
                         f"(or a rules file, FILE.toml)") from None


def resolve(game, **settings) -> Rules:
    """The rules of ``game`` with the given settings (strings as on the command line, or
    Python values) and every other switch at its default. A setting names a switch
    (``space_fill``) or any part field (``piles`` or ``tableau.piles``,
    ``resolve("westcliff", **{"tableau.piles": 8})``): a variant no declaration names.

    ``game`` may be a rules file (a path ending in ``.toml``, see :mod:`.files`): its
    settings, then ``settings`` over them. RulesError lists every problem, one a line."""
    if is_rules_file(game):
        return _from_file(files.read(game), settings)
    return _resolved(get_game(str(game)), settings, str(game))


def _resolved(decl: Game, settings: dict, where: str, title: str = "") -> Rules:
    """``decl`` with ``settings`` (by switch, field or qualified field name), checked; every
    problem found is one line of the RulesError, each led by ``where``."""
    switch_names = {s.name for s in decl.switches}
    switches, changes, problems = {}, {}, []
    for name, value in settings.items():
        try:
            key = rule_key(name)
            if key in switch_names and not _beyond_switch(decl, key, name, value, where):
                switches[key] = decl.switch(key).parse(value, where)
            else:
                changes[key] = field_switch(key).parse(value, where)
        except RulesError as err:
            problems.append(_no_such_switch(decl, name) or str(err))
    if problems:
        raise RulesError("\n".join(problems))
    rules = decl.resolve(switches, changes, title)
    problems = checks.problems(rules)
    if problems:
        lead = "" if where == decl.name else f"{where}: "
        raise RulesError("\n".join(lead + line for line in problems))
    return rules


def _beyond_switch(decl: Game, key: str, name: str, value, where: str) -> bool:
    """Is ``name=value`` a part change although ``key`` is a switch? Only when the field is
    named with its part (``tableau.space_fill``) and the value is one the field takes but the
    switch does not offer (King spaces in St. Helena): the switch lists the readings of the
    game's sources, the qualified name speaks of the part itself, a variant."""
    if "." not in name:
        return False
    try:
        decl.switch(key).parse(value, where)
        return False
    except RulesError:
        try:
            field_switch(key).parse(value, where)
            return True
        except RulesError:
            return False


def _no_such_switch(decl: Game, name: str) -> str | None:
    """For a bare name that is no rule at all, the error naming the game's switches."""
    if not decl.switches or "." in name or name.strip() in RULE_KEYS:
        return None
    try:
        decl.switch(name)
    except RulesError as err:
        return str(err)
    return None


def whole_game(name: str, title: str = "") -> Game:
    """The declaration a game of no built-in name stands on: every part at its defaults, no
    switches, so that its rules are all changes (which its run folder's name then holds)."""
    return Game(name, title or name, "rules file")


def _from_file(file: files.RulesFile, settings: dict) -> Rules:
    """The rules a rules file gives, with ``settings`` (``--set``) over its own."""
    where = str(file.path)
    merged = dict(file.settings)
    for name, value in settings.items():
        try:
            merged.pop(QUALIFIED[rule_key(name)], None)
        except RulesError:
            pass  # _resolved names it
        merged[name] = value
    title = file.title or file.name or ""
    if file.base is not None:
        if file.base not in GAMES:
            raise RulesError(f"{where}: base {file.base!r} is no game; choose one of: {', '.join(GAMES)}")
        return _resolved(GAMES[file.base], merged, where, title)
    if file.name in GAMES:
        raise RulesError(f"{where}: name {file.name!r} is a declared game: write base = {file.name!r} to "
                         f"change it, or give the file's game another name")
    return _resolved(whole_game(file.name, file.title or ""), merged, where, file.title or "")


def recorded(record: dict) -> Rules:
    """The rules a run's manifest (or a verdict file's) records: its game, switches and
    changed part fields; for a game of no built-in name (a rules file's whole game), its
    recorded rule values. A declared game whose recorded values differ from what its
    declaration gives today is rebuilt from the values: a result describes what it measured."""
    game, values = record["game"], record.get("rules") or {}
    parsed = {key: parse_recorded(key, value) for key, value in values.items()}
    if game not in GAMES:
        if not parsed:
            raise RulesError(f"unknown game {game!r}, and no rule values are recorded")
        return _resolved(whole_game(game), parsed, game)
    rules = resolve(game, **record["switches"], **record.get("changes", {}))
    if any(rules[key] != value for key, value in parsed.items()):
        rules = _resolved(GAMES[game], {**parsed, **record["switches"]}, game)
    return rules


def parse_recorded(key: str, value):
    """A rule value as a manifest records it (JSON; a list of strings as its Python text,
    ``"('upper', 'lower')"``) back as the value."""
    if isinstance(field_switch(rule_key(key)).default, tuple) and isinstance(value, str) and value.startswith("("):
        try:
            value = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            raise RulesError(f"{key}: a recorded list {value!r} that cannot be read") from None
    return field_switch(rule_key(key)).parse(value, "recorded rules")


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
    return GAMES.get(rules.game, whole_game(rules.game)).ladder_for(rules)
