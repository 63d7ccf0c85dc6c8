"""The run folders and committed verdict files on disk: finding them, reading what each one
measured, and exporting a run's verdicts as the committed file.

Wherever a run folder is taken, a verdict file (:mod:`.verdicts`) may stand in for it, so the
committed tables and charts are made without the run folders.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import pandas as pd

from . import store, verdicts
from .engine_identity import UNRECORDED
from ..players import player_label
from ..rules import recorded as rules_of
from ..rules import RulesError


def find_runs(root: str | os.PathLike = "results") -> list[Path]:
    """Every run folder (one holding a manifest) under ``root``, in a stable order."""
    return sorted(path.parent for path in Path(root).rglob(store.MANIFEST))


def find_verdicts(root: str | os.PathLike = "results") -> list[Path]:
    """Every committed verdict file under ``root``/verdicts, in a stable order."""
    return sorted((Path(root) / verdicts.FOLDER).rglob("*.parquet"))


def manifest_and_rows(source: str | os.PathLike, first: int | None = None, last: int | None = None,
                       columns: list[str] | None = None) -> tuple[dict, pd.DataFrame]:
    """(manifest, per-deal rows of deals first..last) of a run folder or a verdict file."""
    if not verdicts.is_verdict_file(source):
        return store.read_manifest(source), store.load_rows([source], first, last, columns)
    manifest, rows = verdicts.read(source)
    wanted = rows["deal"].between(0 if first is None else first, math.inf if last is None else last)
    return manifest, rows[wanted].reset_index(drop=True)


def engines(source: str | os.PathLike) -> list[str]:
    """The engines whose verdicts a run folder (its chunks) or a verdict file (its manifest's
    ``engines``) holds; :data:`UNRECORDED` for work recorded before engines were."""
    if verdicts.is_verdict_file(source):
        return verdict_engines(verdicts.read(source)[0])
    return list(store.folder_engines(source))


def verdict_engines(manifest: dict) -> list[str]:
    """The engines a verdict file's manifest records (files exported before engines were
    recorded: :data:`UNRECORDED`)."""
    recorded = manifest.get("engines")
    return sorted(map(str, recorded)) if isinstance(recorded, list) and recorded else [UNRECORDED]


def recorded(engines) -> set[str]:
    """``engines`` less :data:`UNRECORDED`: the ones a mix can be told by."""
    return set(engines) - {UNRECORDED}


def describe_run(run_dir: str | os.PathLike) -> dict:
    """What a run measured, from its manifest: game, rules label, the switches that differ
    from the defaults, player, and ``who`` (player plus its budget or samples). ``run_dir``
    may be a verdict file."""
    manifest = verdicts.read(run_dir)[0] if verdicts.is_verdict_file(run_dir) else store.read_manifest(run_dir)
    return describe_manifest(manifest, run_dir)


def describe_manifest(manifest: dict, run_dir: str | os.PathLike) -> dict:
    """:func:`describe_run` of a manifest read from ``run_dir`` (named in errors)."""
    where = run_dir if verdicts.is_verdict_file(run_dir) else Path(run_dir) / store.MANIFEST
    player = manifest["player"]
    try:
        rules = rules_of(manifest)
        label = player_label(player, manifest["player_params"])
    except (RulesError, ValueError) as err:
        raise store.StoreFailure(f"{where} does not describe a run of this version "
                                 f"({err}); restore it or start a new run") from None
    changed = rules.label()[len(rules.game):].strip()
    params = {key: tuple(value) if isinstance(value, list) else value
              for key, value in manifest["player_params"].items()}
    return {"game": rules.game, "rules": rules.label(), "changed": changed or "defaults",
            "player": player, "who": player if label == "default" else f"{player} {label}",
            "params": params, "run_dir": str(run_dir)}


def load_run(run_dir: str | os.PathLike, first: int | None = None, last: int | None = None) -> pd.DataFrame:
    """The per-deal rows of one run folder (or verdict file), with the run's description as
    extra columns."""
    manifest, rows = manifest_and_rows(run_dir, first, last)
    info = describe_manifest(manifest, run_dir)
    for key in ("game", "rules", "changed", "player", "who", "run_dir"):
        rows[key] = info[key]
    return rows


def verdict_path(root: str | os.PathLike, manifest: dict) -> Path:
    """Where the verdict file of the run that ``manifest`` describes goes (its folder need not
    exist): <root>/verdicts/<game>/<switches>--<player>.parquet, named from the rules and the
    player with its parameters (``defaults--solver-b10k+100k``)."""
    info = describe_manifest(manifest, Path(root))
    return Path(root) / verdicts.FOLDER / info["game"] / verdict_name(info)


def verdict_name(info: dict) -> str:
    """A verdict file's name from its run's :func:`describe_run`: ``<switches>--<player>.parquet``."""
    return f"{info['changed'].replace(' ', '+')}--{info['who'].replace(' ', '-')}.parquet"


def export_verdicts(run_dir: str | os.PathLike, root: str | os.PathLike = "results",
                    first: int | None = None, last: int | None = None, keep: bool = False,
                    allow_other_engine: bool = False) -> Path:
    """Write the verdicts a run folder holds for deals first..last as its verdict file under
    ``root`` and return the file's path. An older file there is replaced, or with ``keep``
    extended: its deals that the folder lacks stay (a machine without the folder's first chunks
    ran only the deals after the committed ones), if it holds verdicts of the folder's engines
    (or ``allow_other_engine``). The file records the engines of its verdicts (``engines``)."""
    manifest = store.read_manifest(run_dir)
    rows = store.load_rows([run_dir], first, last, columns=[*verdicts.COLUMNS, "seconds"])
    seconds = float(rows["seconds"].sum())
    path = verdict_path(root, manifest)
    held = set(store.folder_engines(run_dir, first, last))
    if keep and path.exists():
        older_manifest, older = verdicts.read(path)
        kept = older[~older["deal"].isin(rows["deal"])]
        if len(kept):
            theirs = set(verdict_engines(older_manifest))
            ours, others = recorded(held), recorded(theirs) - recorded(held)
            if ours and others and not allow_other_engine:
                raise store.OtherEngine(str(path), others, ours)
            held |= theirs
        seconds = shared_seconds(path, len(kept), len(older), seconds)
        rows = pd.concat([kept, rows], ignore_index=True)
    manifest = {key: value for key, value in manifest.items() if key != "engine"}
    return verdicts.write(path, {**manifest, "engines": sorted(held)}, rows, seconds)


def shared_seconds(path: Path, kept: int, held: int, added: float | None) -> float | None:
    """``added`` CPU-seconds plus the share of the verdict file ``path``'s seconds that its
    ``kept`` of ``held`` deals cost (None where the file kept no time)."""
    older = verdicts.cpu_seconds(path)
    if kept == 0:
        return added
    if older is None or added is None:
        return None
    return added + older * kept / held
