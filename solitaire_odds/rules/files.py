"""Rules files: a variant of a declared game, or a whole game, written in TOML.

Wherever a game's name is taken (the command line's GAME, :func:`solitaire_odds.rules.resolve`,
:func:`solitaire_odds.odds`), a path ending in ``.toml`` may stand instead::

    base = "westcliff"          # optional: the declared game the file changes
    title = "Westcliff, 8 x 4"  # optional: for display only
    [tableau]
    piles = 8
    [deal]
    rows_down = 3               # or, without the tables: deal.rows_down = 3

Keys are the parts' fields (``[tableau] piles``, ``tableau.piles``, or bare ``piles`` at the top)
and the base game's switches (``space_fill = "king"``), typed as TOML types them: a whole number,
``true``/``false``, a string, a list of strings. A file is read here into settings, exactly the
ones ``--set`` would give, so a file and the same ``--set`` are the same :class:`Rules` and name
the same run folder; a title never enters a result's identity.

A file without ``base`` is a whole game. It must give ``name`` (the game's name in run folders
and tables, so it must not follow the file's name, which changes when the file is renamed) and
the fields :data:`REQUIRED`, which no default could guess: how many piles, how the cards are laid
out, what the stock does. Every other field takes the part's default, a one-deck game built
down in alternate colours onto any card in a space, to foundations from Ace up, without redeals.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path

from .schema import PARTS, QUALIFIED, RulesError

SUFFIX = ".toml"
META = ("base", "name", "title")
"""The keys of a file that are not rules."""
REQUIRED = ("tableau.piles", "deal.pattern", "stock.stock")
"""The fields a whole game (a file without ``base``) must give."""
MAX_BYTES = 1 << 20
"""A rules file is a few lines; anything over a megabyte is not one."""
NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
"""A whole game's name: it names run folders and verdict files."""

_PART_FIELDS = {part.__name__.lower(): {f.name: f.default for f in fields(part)} for part in PARTS}
_DEFAULTS = {key: default for part in _PART_FIELDS.values() for key, default in part.items()}


@dataclass(frozen=True)
class RulesFile:
    """What a rules file says: its ``base`` game (None for a whole game), display ``name`` and
    ``title``, and its rules as ``{qualified key: value}`` in the file's order."""

    path: Path
    base: str | None
    name: str | None
    title: str | None
    settings: dict


def is_rules_file(game) -> bool:
    """Whether ``game`` names a rules file rather than a declared game."""
    return isinstance(game, os.PathLike) or str(game).lower().endswith(SUFFIX)


def kind_words(default) -> str:
    """What a field of this default takes, in words."""
    if isinstance(default, bool):
        return "true or false"
    if isinstance(default, int):
        return "a whole number"
    if isinstance(default, tuple):
        return "a list of strings"
    return "a string"


def _fits(value, default) -> bool:
    """Whether the TOML ``value`` has the type of a field whose default is ``default``."""
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, tuple):
        return isinstance(value, list) and all(isinstance(item, str) for item in value)
    return isinstance(value, str)


def _shown(value) -> str:
    kind = {bool: "true/false", int: "the number", float: "the number", str: "the string",
            list: "the list", dict: "a table"}.get(type(value), "the value")
    return f"{kind} {value!r}" if not isinstance(value, (bool, dict)) else kind


def read(path: str | os.PathLike) -> RulesFile:
    """The rules file at ``path``, or RulesError with one line per problem found (every one
    of them, not only the first): unreadable or not TOML, an unknown part or field, a value
    of the wrong type, a whole game without its name or required fields."""
    path = Path(path)
    where = str(path)
    try:
        if path.stat().st_size > MAX_BYTES:
            raise RulesError(f"{where}: over a megabyte, not a rules file")
        with path.open("rb") as file:
            data = tomllib.load(file)
    except FileNotFoundError:
        raise RulesError(f"no rules file {where}; check the path") from None
    except IsADirectoryError:
        raise RulesError(f"{where} is a folder, not a rules file") from None
    except OSError as err:
        raise RulesError(f"cannot read the rules file {where}: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise RulesError(f"{where}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as err:
        raise RulesError(f"{where}: not valid TOML ({err})") from None

    problems, settings = [], {}

    def take(key: str, value) -> None:
        default = _DEFAULTS[key]
        if not _fits(value, default):
            problems.append(f"{where}: {QUALIFIED[key]} takes {kind_words(default)}, not {_shown(value)}")
        elif QUALIFIED[key] in settings:
            problems.append(f"{where}: {QUALIFIED[key]} is given twice")
        else:
            settings[QUALIFIED[key]] = tuple(value) if isinstance(value, list) else value

    meta = {}
    for key, value in data.items():
        if key in META:
            if isinstance(value, str) and value.strip():
                meta[key] = value.strip()
            else:
                problems.append(f"{where}: {key} takes a string, not {_shown(value)}")
        elif key in _PART_FIELDS:
            if not isinstance(value, dict):
                problems.append(f"{where}: {key} is a part: write [{key}] and its fields, or {key}.FIELD = ...")
                continue
            for name, item in value.items():
                if name in _PART_FIELDS[key]:
                    take(name, item)
                elif name in _DEFAULTS:
                    problems.append(f"{where}: {name} is a field of {QUALIFIED[name].partition('.')[0]}, not of {key}")
                else:
                    problems.append(f"{where}: {key} has no field {name!r}; its fields are: "
                                    f"{', '.join(_PART_FIELDS[key])}")
        elif key in _DEFAULTS:
            take(key, value)
        elif isinstance(value, dict):
            problems.append(f"{where}: no part {key!r}; parts are: {', '.join(_PART_FIELDS)}")
        else:
            problems.append(f"{where}: no rule {key!r}; keys are base, name, title and the parts' fields "
                            f"({', '.join(QUALIFIED.values())})")

    base = meta.get("base")
    if base is None and not problems:
        missing = [key for key in ("name", *REQUIRED) if key not in meta and key not in settings]
        if missing:
            problems.append(f"{where}: a file without base is a whole game and must give "
                            f"{', '.join(missing)} (or base = \"GAME\" to change a declared game)")
    if base is None and "name" in meta and not NAME.fullmatch(meta["name"]):
        problems.append(f"{where}: name {meta['name']!r} names run folders: use lower-case letters, digits and "
                        f"hyphens (at most 40)")
    if problems:
        raise RulesError("\n".join(problems))
    return RulesFile(path, base, meta.get("name"), meta.get("title"), settings)
