"""Compact per-deal verdicts to commit: one Parquet file per run, so anyone can check, merge or
extend a result without its run folder (gitignored, with winning lines and times) or a rerun.

A verdict file holds, sorted by deal and one row per deal, only

    deal     uint64    the deal number
    verdict  category  "won", "lost" or "unknown" (dictionary-encoded strings, so any Parquet
                       reader sees the words, and each row costs a few bits)
    budget   int64     the node budget that decided the deal (for an escalation, the step)
    nodes    int64     nodes searched, every attempt of the escalation included

and, in its key-value metadata under :data:`MANIFEST_KEY`, the run's manifest (game, switches,
every rule value, player and its parameters, version), so the file says what it measured, and
under :data:`CPU_KEY` the CPU-seconds its verdicts cost (absent in files exported before the
runs' times were kept), so the cost of a run is known without its folder.
Like every results file it is written whole or not at all (:func:`store.atomic_write`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from . import store
from ..stats import VERDICTS

COLUMNS = ("deal", "verdict", "budget", "nodes")
MANIFEST_KEY = b"solitaire_odds.manifest"
CPU_KEY = b"solitaire_odds.cpu_seconds"
FOLDER = "verdicts"
"""Where the verdict files live under a results root: results/verdicts/<game>/<file>."""
VERDICT_FILE = "verdict file"
"""What :func:`write` writes (the ``target`` of a :class:`store.WriteFailure`)."""

_REDO = "restore it from git or export it again from its run folder (experiments/campaign.py --export)"


def write(path: str | os.PathLike, manifest: dict, rows: pd.DataFrame, cpu_seconds: float | None = None) -> Path:
    """Write ``rows`` (a run's per-deal rows, any extra columns dropped) as the verdict file
    ``path``, with ``manifest`` and, if known, the rows' ``cpu_seconds`` in its metadata."""
    missing = [column for column in COLUMNS if column not in rows.columns]
    if missing:
        raise ValueError(f"verdict rows need the columns {', '.join(COLUMNS)}; missing: {', '.join(missing)}")
    if rows["deal"].duplicated().any():
        raise ValueError("verdict rows must hold each deal once")
    table = rows.loc[:, list(COLUMNS)].sort_values("deal", kind="stable").reset_index(drop=True)
    table = table.astype({"deal": "uint64", "budget": "int64", "nodes": "int64"})
    if not table["verdict"].isin(VERDICTS).all():
        raise ValueError(f"a verdict is not one of {', '.join(VERDICTS)}")
    table["verdict"] = pd.Categorical(table["verdict"], categories=list(VERDICTS))
    arrow = pa.Table.from_pandas(table, preserve_index=False)
    text = json.dumps(manifest, sort_keys=True)
    metadata = {**arrow.schema.metadata, MANIFEST_KEY: text.encode("utf-8")}
    if cpu_seconds is not None:
        metadata[CPU_KEY] = repr(float(cpu_seconds)).encode("ascii")
    arrow = arrow.replace_schema_metadata(metadata)
    path = Path(path)
    # deal numbers run in steps of one and budgets take a few values: delta and dictionary
    # encodings store them in almost nothing; zstd squeezes the node counts
    store.atomic_write(path, lambda file: pq.write_table(
        arrow, file, compression="zstd", use_dictionary=["verdict", "budget"],
        column_encoding={"deal": "DELTA_BINARY_PACKED", "nodes": "PLAIN"}), target=VERDICT_FILE)
    return path


def read(path: str | os.PathLike) -> tuple[dict, pd.DataFrame]:
    """(manifest, rows) of a verdict file, rows sorted by deal with ``verdict`` as plain
    strings, as :func:`store.load_rows` gives them; a damaged or foreign file is refused."""
    path = Path(path)
    try:
        file = pq.ParquetFile(path)
        metadata = file.schema_arrow.metadata or {}
        if MANIFEST_KEY not in metadata:
            raise store.StoreFailure(f"{path} carries no manifest (not a verdict file of solitaire-odds); {_REDO}")
        manifest = store.parse_manifest(metadata[MANIFEST_KEY], f"the manifest in {path}", _REDO)
        missing = [column for column in COLUMNS if column not in file.schema_arrow.names]
        if missing:
            raise store.StoreFailure(f"{path} lacks the column {missing[0]!r}; {_REDO}")
        rows = file.read(columns=list(COLUMNS)).to_pandas()
    except FileNotFoundError:
        raise store.StoreError(f"no verdict file {path}; check the path") from None
    except (OSError, pa.ArrowException) as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise store.StoreFailure(f"{path} is damaged ({reason}); {_REDO}") from None
    rows["verdict"] = rows["verdict"].astype(str)
    if rows["verdict"].isna().any() or not set(rows["verdict"]) <= set(VERDICTS):
        raise store.StoreFailure(f"{path} has a verdict other than {', '.join(VERDICTS)}; {_REDO}")
    if not rows["deal"].is_monotonic_increasing or rows["deal"].duplicated().any():
        raise store.StoreFailure(f"{path} is not sorted by deal with each deal once; {_REDO}")
    return manifest, rows


def cpu_seconds(path: str | os.PathLike) -> float | None:
    """The CPU-seconds the verdicts of the file at ``path`` cost, or None where not kept."""
    value = (pq.read_schema(path).metadata or {}).get(CPU_KEY)
    return None if value is None else float(value)


def is_verdict_file(path: str | os.PathLike) -> bool:
    """Whether ``path`` names a verdict file rather than a run folder."""
    return Path(path).suffix == ".parquet"
