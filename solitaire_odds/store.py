"""Results on disk, never half-written.

A run lives in a folder::

    <run_dir>/manifest.json                                   what produced the rows
    <run_dir>/chunks/deals-<first:020d>-<last:020d>.parquet   one file per finished chunk

Every file appears under its final name only once complete (temp file, fsync, rename), so a
run killed at any moment, or stopped by a full disk, resumes from the chunks it finished; a
temp file a kill leaves behind is never read as a chunk, and the next run removes it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import pandas as pd
import pyarrow.parquet as pq

MANIFEST = "manifest.json"
CHUNKS = "chunks"
TEMP_PREFIX = ".tmp-"
STALE_TEMP_SECONDS = 60.0
"""A temp file untouched this long belongs to no live writer (a chunk is written in well under
a second): a kill left it."""
MERGE_KEYS = ("game", "switches", "player", "player_params", "version")
"""Manifest keys that must agree for runs made on different machines to merge."""

_CHUNK_NAME = re.compile(r"deals-(\d{20})-(\d{20})\.parquet")


class StoreError(Exception):
    """A run folder cannot be used as asked; the message says what to do."""


def _normalised(manifest: dict) -> dict:
    """The manifest as it reads back from JSON, so tuples and lists compare equal."""
    return json.loads(json.dumps(manifest))


def _atomic_write(path: Path, write: Callable[[BinaryIO], None]) -> None:
    """Write through a temp file in the same folder so that `path` is whole or absent."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix="-" + path.name, dir=path.parent)
        with os.fdopen(fd, "wb") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        if tmp is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        if isinstance(exc, OSError):
            reason = exc.strerror or str(exc)
            raise StoreError(
                f"cannot write results to {path}: {reason}; free some disk space or choose another --out"
            ) from exc
        raise


def write_manifest(run_dir: str | os.PathLike, manifest: dict) -> None:
    """Record what produces the rows; refuse to mix rows of other settings into one folder."""
    run_dir = Path(run_dir)
    path = run_dir / MANIFEST
    if path.exists():
        old = read_manifest(run_dir)
        new = _normalised(manifest)
        keys = (old.keys() | new.keys()) - {"created"}
        differing = sorted(key for key in keys if old.get(key) != new.get(key))
        if differing:
            raise StoreError(
                f"{run_dir} holds a run with other settings (differing: {', '.join(differing)}); "
                "choose another --out or the matching settings"
            )
        return
    text = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    _atomic_write(path, lambda file: file.write(text.encode("utf-8")))


def read_manifest(run_dir: str | os.PathLike) -> dict:
    """The manifest of a run folder."""
    path = Path(run_dir) / MANIFEST
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise StoreError(f"no {MANIFEST} in {run_dir}; point at a run folder made by this tool") from None
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StoreError(f"{path} is not valid JSON ({exc}); restore it or start a new run") from None
    if not isinstance(manifest, dict):
        raise StoreError(f"{path} does not hold a JSON object; restore it or start a new run")
    return manifest


def chunk_path(run_dir: str | os.PathLike, first: int, last: int) -> Path:
    """Where the chunk of deals first..last lives."""
    return Path(run_dir) / CHUNKS / f"deals-{first:020d}-{last:020d}.parquet"


def write_chunk(run_dir: str | os.PathLike, first: int, last: int, table: pd.DataFrame) -> Path:
    """Store the rows of deals first..last; a chunk is whole, so resuming can trust its name."""
    if not 0 <= first <= last:
        raise ValueError(f"need 0 <= first <= last, got {first}..{last}")
    if "deal" not in table.columns or not pd.api.types.is_integer_dtype(table["deal"]):
        raise ValueError("the table needs an integer 'deal' column")
    deals = table["deal"]
    expected = last - first + 1
    whole = (
        len(deals) == expected
        and deals.nunique() == expected
        and int(deals.min()) == first
        and int(deals.max()) == last
    )
    if not whole:
        raise ValueError(f"a chunk must hold deals {first}..{last} each exactly once")
    path = chunk_path(run_dir, first, last)
    _atomic_write(path, lambda file: table.to_parquet(file, index=False))
    return path


def finished_chunks(run_dir: str | os.PathLike) -> list[tuple[int, int, Path]]:
    """(first, last, path) of every finished chunk, by first deal; temp files are not chunks."""
    folder = Path(run_dir) / CHUNKS
    if not folder.is_dir():
        return []
    chunks = []
    for path in folder.iterdir():
        match = _CHUNK_NAME.fullmatch(path.name)
        if match:
            chunks.append((int(match[1]), int(match[2]), path))
    return sorted(chunks, key=lambda chunk: chunk[:2])


def remove_stale_temp_files(run_dir: str | os.PathLike, older_than: float = STALE_TEMP_SECONDS) -> int:
    """Remove the temp files a killed run left in ``run_dir``; return how many. Younger ones
    may belong to another run writing into the same folder right now, so they stay."""
    removed = 0
    cutoff = time.time() - older_than
    for folder in (Path(run_dir), Path(run_dir) / CHUNKS):
        for path in folder.glob(TEMP_PREFIX + "*") if folder.is_dir() else ():
            with contextlib.suppress(FileNotFoundError):
                if path.stat().st_mtime < cutoff:
                    path.unlink()
                    removed += 1
    return removed


def missing_ranges(
    run_dir: str | os.PathLike, first: int, last: int, chunk_size: int
) -> list[tuple[int, int]]:
    """Deal ranges of first..last that no finished chunk covers yet, cut at multiples of
    chunk_size, so that runs over overlapping ranges of one folder share chunk boundaries
    and a resumed run asks for exactly what is missing."""
    if chunk_size < 1 or first > last:
        raise ValueError(f"need chunk_size >= 1 and first <= last, got {chunk_size}, {first}..{last}")
    gaps, cursor = [], first
    for a, b, _ in finished_chunks(run_dir):
        if b < cursor or a > last:
            continue
        if a > cursor:
            gaps.append((cursor, a - 1))
        cursor = b + 1
    if cursor <= last:
        gaps.append((cursor, last))
    ranges = []
    for a, b in gaps:
        while a <= b:
            end = min(b, (a // chunk_size + 1) * chunk_size - 1)
            ranges.append((a, end))
            a = end + 1
    return ranges


def load_rows(
    run_dirs: list[str | os.PathLike], first: int | None = None, last: int | None = None,
    columns: list[str] | None = None,
) -> pd.DataFrame:
    """Rows of one or more run folders of the same settings, one per deal, sorted by deal.

    Folders filled on different machines may overlap; a deal played twice must get the
    same verdict, or the runs do not measure the same thing. ``columns`` reads only those
    (deal and verdict always), so that counting millions of deals stays small.
    """
    if columns is not None:
        columns = list(dict.fromkeys(["deal", "verdict", *columns]))
    reference = None
    frames = []
    any_chunk = None
    for run_dir in run_dirs:
        manifest = read_manifest(run_dir)
        settings = {key: manifest[key] for key in MERGE_KEYS if key in manifest}
        if reference is None:
            reference = (run_dir, settings)
        elif settings != reference[1]:
            differing = sorted(key for key in MERGE_KEYS if settings.get(key) != reference[1].get(key))
            raise StoreError(
                f"{run_dir} and {reference[0]} hold runs with other settings (differing: "
                f"{', '.join(differing)}); merge only runs of the same {', '.join(MERGE_KEYS)}"
            )
        for a, b, path in finished_chunks(run_dir):
            any_chunk = path
            if (first is None or b >= first) and (last is None or a <= last):
                frames.append(pd.read_parquet(path, columns=columns))
    if not frames:
        if any_chunk is not None:  # keep the chunks' columns and types
            empty = pq.read_schema(any_chunk).empty_table().to_pandas()
            return empty if columns is None else empty[columns]
        return pd.DataFrame({"deal": pd.Series(dtype="uint64"), "verdict": pd.Series(dtype=str)})
    rows = pd.concat(frames, ignore_index=True)
    if first is not None:
        rows = rows[rows["deal"] >= first]
    if last is not None:
        rows = rows[rows["deal"] <= last]
    verdicts = rows[["deal", "verdict"]].drop_duplicates()
    conflicts = verdicts["deal"][verdicts["deal"].duplicated()]
    if len(conflicts):
        shown = ", ".join(str(deal) for deal in sorted(conflicts.unique())[:5])
        raise StoreError(
            f"{len(conflicts.unique())} deal(s) have different verdicts in different folders "
            f"(e.g. {shown}); merge only runs of the same settings"
        )
    rows = rows.sort_values("deal", kind="stable").drop_duplicates("deal")
    return rows.reset_index(drop=True)
