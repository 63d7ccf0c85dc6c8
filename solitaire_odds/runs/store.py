"""Results on disk, never half-written.

A run lives in a folder::

    <run_dir>/manifest.json                                   what produced the rows
    <run_dir>/chunks/deals-<first:020d>-<last:020d>.parquet   one file per finished chunk

Every file appears under its final name only once complete (temp file, fsync, rename), so a
run killed at any moment, or stopped by a full disk, resumes from the chunks it finished; a
temp file a kill leaves behind is never read as a chunk, and the next run removes it. Files are
created with the permissions the umask allows, so colleagues can read and merge them.

A chunk carries its identity in its Parquet key-value metadata: the digest of the settings it
measured (:func:`settings_digest` of the manifest), its deal range and the engine that solved it
(:mod:`.engine_identity`; a folder may hold chunks of two engines only when a resume was told
to allow it, and :func:`folder_engines` says so). Loading checks the rows
against that range, the range against the file's name and the digest against the folder's
manifest, so a chunk copied under another name or into a run of other settings is refused, as
is a folder of chunks without its manifest; a damaged file is named with what to do about it.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .engine_identity import FLAG, UNRECORDED, engine_digest

MANIFEST = "manifest.json"
CHUNKS = "chunks"
TEMP_PREFIX = ".tmp-"
STALE_TEMP_SECONDS = 60.0
"""A temp file untouched this long belongs to no live writer (a chunk is written in well under
a second): a kill left it."""
MERGE_KEYS = ("game", "switches", "player", "player_params", "version")
"""Manifest keys that must agree for runs made on different machines to merge."""
_MANIFEST_TYPES = {"game": str, "switches": dict, "player": str, "player_params": dict, "version": str}
ROW_COLUMNS = ("deal", "verdict", "budget", "nodes", "seconds", "moves", "line")
"""The columns of every chunk (a run may add more)."""
VERDICTS = frozenset({"won", "lost", "unknown"})
IDENTITY_KEY = b"solitaire_odds.chunk"
"""The Parquet key-value metadata entry holding a chunk's settings digest, deal range and engine."""
UNCOMPARED = ("created", "engine")
"""Manifest keys a resume need not match: when it was made, and by which engine (the engines
are checked chunk by chunk, see :class:`OtherEngine`)."""

_CHUNK_NAME = re.compile(r"deals-(\d{20})-(\d{20})\.parquet")


class StoreError(Exception):
    """A run folder cannot be used as asked (exit status 2: the command must change); the
    message says what to do."""

    exit_code = 2


class StoreFailure(StoreError):
    """A run folder's files are damaged, or cannot be read or written (exit status 1: the
    command was right); the message names the file and what to do."""

    exit_code = 1


RUN_FOLDER = "run folder"
"""What :func:`atomic_write` writes for a run: its manifest and chunks (the ``target`` of a
:class:`WriteFailure`)."""


class WriteFailure(StoreFailure):
    """``path`` cannot be written: the system's ``reason``, whether the disk is ``full``, and
    ``target``, what the file is part of (:data:`RUN_FOLDER`, a verdict file, a page), so that a
    front end can name its own option for another place."""

    def __init__(self, path: Path, reason: str, full: bool, target: str):
        self.path, self.reason, self.full, self.target = path, reason, full, target
        self.problem = f"cannot write {path}: {reason}"
        space = "free some disk space or " if full else ""
        super().__init__(f"{self.problem}; {space}put the {target} elsewhere")


class UnknownChunks(StoreError):
    """``run_dir`` holds chunks but no manifest: what they measured is unknown."""

    def __init__(self, run_dir: Path):
        self.run_dir = run_dir
        self.problem = f"{run_dir} holds chunks but no {MANIFEST}, so what they measured is unknown"
        super().__init__(f"{self.problem}; restore its {MANIFEST} or use another run folder")


class OtherSettings(StoreError):
    """``run_dir`` holds a run whose manifest differs in the keys ``differing``."""

    def __init__(self, run_dir: Path, differing: list[str]):
        self.run_dir, self.differing = run_dir, differing
        self.problem = f"{run_dir} holds a run with other settings (differing: {', '.join(differing)})"
        super().__init__(f"{self.problem}; use another run folder or the matching settings")


class PartlyDone(StoreError):
    """``run_dir`` already holds results for part of deals ``first``..``last``, and the run was
    not asked to resume."""

    def __init__(self, run_dir: Path, first: int, last: int):
        self.run_dir, self.first, self.last = run_dir, first, last
        self.problem = f"{run_dir} already holds results for part of deals {first}..{last}"
        super().__init__(f"{self.problem}; resume that run, or use another run folder")


class OtherEngine(StoreError):
    """Work of another engine would be mixed in: a resume of a folder whose chunks another
    engine solved, or a merge of results of different engines, without ``--allow-other-engine``."""

    def __init__(self, where: str, theirs, ours):
        theirs = ", ".join(sorted(set(theirs)))
        ours = ", ".join(sorted(set(ours))) if not isinstance(ours, str) else ours
        self.problem = (f"{where} holds verdicts of engine {theirs}, not of engine {ours}: they would be "
                        f"mixed; add {FLAG} to do it anyway (summary and table then show the mix)")
        super().__init__(self.problem)


def other_engines(engines, ours: str) -> list[str]:
    """The recorded engines of ``engines`` that are not ``ours`` (work recorded before engines
    were, :data:`UNRECORDED`, is not refused: nothing says it differs)."""
    return sorted(set(engines) - {ours, UNRECORDED})


class DamagedChunk(StoreFailure):
    """The chunk file ``path`` cannot be trusted (``problem``, given without the path, says
    why); solving its deals again replaces it."""

    def __init__(self, path: Path, problem: str):
        self.path, self.problem = path, f"{path} {problem}"
        super().__init__(f"{self.problem}; delete it and resume the run to solve its deals again")


def _normalised(manifest: dict) -> dict:
    """The manifest as it reads back from JSON, so tuples and lists compare equal."""
    return json.loads(json.dumps(manifest))


def settings_digest(manifest: dict) -> str:
    """What a chunk's rows measured: a digest of the manifest's :data:`MERGE_KEYS`, equal for
    every folder whose runs merge."""
    key = json.dumps({k: manifest.get(k) for k in MERGE_KEYS}, sort_keys=True)
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def atomic_write(path: Path, write: Callable[[BinaryIO], None], target: str = RUN_FOLDER) -> None:
    """Write through a temp file in the same folder so that ``path`` is whole or absent. The
    temp file is created like any other file (the umask decides who may read it), never with
    a private mode. A failure is a :class:`WriteFailure` naming the file and ``target``, what
    it is part of."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.parent / f"{TEMP_PREFIX}{secrets.token_hex(8)}-{path.name}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with os.fdopen(fd, "wb") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        if isinstance(exc, OSError):
            full = exc.errno in (errno.ENOSPC, errno.EDQUOT)
            raise WriteFailure(path, exc.strerror or str(exc), full, target) from exc
        raise


def write_manifest(run_dir: str | os.PathLike, manifest: dict) -> None:
    """Record what produces the rows; refuse to mix rows of other settings into one folder,
    and to adopt chunks whose manifest is gone (what they measured is unknown)."""
    run_dir = Path(run_dir)
    path = run_dir / MANIFEST
    if not path.exists() and finished_chunks(run_dir):
        raise UnknownChunks(run_dir)
    if path.exists():
        old = read_manifest(run_dir)
        new = _normalised(manifest)
        keys = (old.keys() | new.keys()) - set(UNCOMPARED)
        differing = sorted(key for key in keys if old.get(key) != new.get(key))
        if differing:
            raise OtherSettings(run_dir, differing)
        return
    text = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    atomic_write(path, lambda file: file.write(text.encode("utf-8")))


def read_manifest(run_dir: str | os.PathLike) -> dict:
    """The manifest of a run folder, with the keys and types every reader relies on."""
    path = Path(run_dir) / MANIFEST
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        raise StoreError(f"no {MANIFEST} in {run_dir}; point at a run folder made by this tool") from None
    except OSError as exc:
        raise StoreFailure(f"cannot read {path}: {exc.strerror}; check its permissions") from None
    except UnicodeDecodeError:
        raise StoreFailure(f"{path} is not a text file; restore it or start a new run") from None
    return parse_manifest(text, path)


def parse_manifest(text: str | bytes, where: str | os.PathLike, advice: str = "restore it or start a new run") -> dict:
    """A manifest from its JSON text (a manifest.json, or a verdict file's metadata), with the
    keys and types every reader relies on; a failure names ``where`` and gives ``advice``."""
    try:
        manifest = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise StoreFailure(f"{where} is not valid JSON ({exc}); {advice}") from None
    if not isinstance(manifest, dict):
        raise StoreFailure(f"{where} does not hold a JSON object; {advice}")
    for key, kind in _MANIFEST_TYPES.items():
        if not isinstance(manifest.get(key), kind):
            problem = "lacks" if key not in manifest else "has a malformed"
            raise StoreFailure(f"{where} {problem} {key!r}; {advice}")
    return manifest


def chunk_path(run_dir: str | os.PathLike, first: int, last: int) -> Path:
    """Where the chunk of deals first..last lives."""
    return Path(run_dir) / CHUNKS / f"deals-{first:020d}-{last:020d}.parquet"


def _holds_exactly(deals: pd.Series, first: int, last: int) -> bool:
    """Whether ``deals`` are the numbers first..last, each exactly once."""
    expected = last - first + 1
    return (pd.api.types.is_integer_dtype(deals) and len(deals) == expected and deals.nunique() == expected
            and int(deals.min()) == first and int(deals.max()) == last)


def write_chunk(run_dir: str | os.PathLike, first: int, last: int, table: pd.DataFrame,
                engine: str | None = None) -> Path:
    """Store the rows of deals first..last under the folder's manifest (written first), with
    the chunk's identity inside the file: its settings, its range and the ``engine`` that
    solved it (default: this process's)."""
    if not 0 <= first <= last:
        raise ValueError(f"need 0 <= first <= last, got {first}..{last}")
    missing = [column for column in ROW_COLUMNS if column not in table.columns]
    if missing:
        raise ValueError(f"a chunk needs the columns {', '.join(ROW_COLUMNS)}; missing: {', '.join(missing)}")
    if not _holds_exactly(table["deal"], first, last):
        raise ValueError(f"a chunk must hold deals {first}..{last} each exactly once")
    identity = json.dumps({"settings": settings_digest(read_manifest(run_dir)), "first": first, "last": last,
                           "engine": engine or engine_digest()})
    rows = pa.Table.from_pandas(table, preserve_index=False)
    rows = rows.replace_schema_metadata({**rows.schema.metadata, IDENTITY_KEY: identity.encode()})
    path = chunk_path(run_dir, first, last)
    atomic_write(path, lambda file: pq.write_table(rows, file))
    return path


def _read_chunk(path: Path, first: int, last: int, digest: str, columns: list[str] | None) -> pd.DataFrame:
    """The rows of the chunk file ``path`` (named for deals first..last) after checking them
    against its identity, and its identity against its name and the folder's settings."""
    try:
        file = pq.ParquetFile(path)
        names = file.schema_arrow.names
        missing = [c for c in (*ROW_COLUMNS, *(columns or ())) if c not in names]
        if missing:
            raise DamagedChunk(path, f"lacks the column {missing[0]!r}")
        try:
            identity = json.loads((file.schema_arrow.metadata or {})[IDENTITY_KEY])
            settings, held = identity["settings"], (int(identity["first"]), int(identity["last"]))
        except (KeyError, TypeError, ValueError):
            raise DamagedChunk(path, "carries no run identity (not written by this version of solitaire-odds)") \
                from None
        if settings != digest:
            raise DamagedChunk(path, f"holds results of other settings than {path.parent.parent / MANIFEST}")
        if held != (first, last):
            raise DamagedChunk(path, f"holds deals {held[0]}..{held[1]} but its name says {first}..{last}")
        rows = file.read(columns=columns).to_pandas()
    except DamagedChunk:
        raise
    except (OSError, pa.ArrowException) as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise DamagedChunk(path, f"is damaged ({reason})") from None
    if not _holds_exactly(rows["deal"], first, last):
        raise DamagedChunk(path, f"does not hold deals {first}..{last} each exactly once")
    strange = set(rows["verdict"].unique()) - VERDICTS
    if strange:
        raise DamagedChunk(path, f"has an unknown verdict {sorted(map(str, strange))[0]!r}")
    return rows


def chunk_engine(path: Path) -> str:
    """The engine that solved the chunk file ``path`` (:data:`UNRECORDED` for chunks written
    before engines were recorded; a damaged file is left for :func:`load_rows` to name)."""
    try:
        identity = json.loads((pq.read_schema(path).metadata or {})[IDENTITY_KEY])
        return str(identity.get("engine") or UNRECORDED)
    except (KeyError, TypeError, ValueError, AttributeError, OSError, pa.ArrowException):
        return UNRECORDED


def folder_engines(run_dir: str | os.PathLike, first: int | None = None, last: int | None = None) -> dict[str, int]:
    """{engine: deals} over the finished chunks of ``run_dir`` (those reaching into deals
    first..last, if given)."""
    engines: dict[str, int] = {}
    for a, b, path in finished_chunks(run_dir):
        if (first is not None and b < first) or (last is not None and a > last):
            continue
        engine = chunk_engine(path)
        engines[engine] = engines.get(engine, 0) + b - a + 1
    return dict(sorted(engines.items()))


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


def overlaps(run_dir: str | os.PathLike) -> list[tuple[int, int]]:
    """Deal ranges held by more than one chunk of ``run_dir`` (chunk files copied in by hand:
    a run never writes them), merged and in order."""
    spans: list[tuple[int, int]] = []
    reach = -1
    for a, b, _ in finished_chunks(run_dir):
        if a <= reach:
            overlap = (a, min(b, reach))
            if spans and overlap[0] <= spans[-1][1] + 1:
                spans[-1] = (spans[-1][0], max(spans[-1][1], overlap[1]))
            else:
                spans.append(overlap)
        reach = max(reach, b)
    return spans


def not_yet_there(run_dir: str | os.PathLike) -> list[Path]:
    """The folders (outermost first) and the manifest a run into ``run_dir`` would create."""
    run_dir = Path(run_dir)
    paths = [*reversed(run_dir.parents), run_dir, run_dir / CHUNKS, run_dir / MANIFEST]
    return [path for path in paths if not path.exists()]


def discard_if_unused(run_dir: str | os.PathLike, created: list[Path]) -> None:
    """Undo a run that stopped before its first chunk: remove what it ``created``
    (:func:`not_yet_there`) unless a chunk is there (another run may share the folder)."""
    if finished_chunks(run_dir):
        return
    for path in reversed(created):
        with contextlib.suppress(OSError):
            path.rmdir() if path.is_dir() else path.unlink()


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
    columns: list[str] | None = None, allow_other_engine: bool = False,
) -> pd.DataFrame:
    """Rows of one or more run folders of the same settings, one per deal, sorted by deal.

    Folders filled on different machines may overlap; a deal played twice must get the
    same verdict, or the runs do not measure the same thing. ``columns`` reads only those
    (deal and verdict always), so that counting millions of deals stays small. Folders of
    different engines merge only with ``allow_other_engine`` (one folder is read as it is:
    a mix in it was allowed when it was made).
    """
    if len(run_dirs) > 1 and not allow_other_engine:
        seen: dict[str, str] = {}
        for run_dir in run_dirs:
            for engine in folder_engines(run_dir):
                if engine != UNRECORDED:
                    seen.setdefault(engine, str(run_dir))
        if len(seen) > 1:
            (first_engine, where), *others = sorted(seen.items(), key=lambda item: item[1])
            raise OtherEngine(f"{others[0][1]}", [others[0][0]], f"{first_engine} in {where}")
    if columns is not None:
        columns = list(dict.fromkeys(["deal", "verdict", *columns]))
    reference = None
    frames = []
    any_chunk = None
    for run_dir in run_dirs:
        manifest = read_manifest(run_dir)
        digest = settings_digest(manifest)
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
            any_chunk = (path, a, b, digest)
            if (first is None or b >= first) and (last is None or a <= last):
                frames.append(_read_chunk(path, a, b, digest, columns))
    if not frames:
        if any_chunk is not None:  # keep the chunks' columns and types
            return _read_chunk(*any_chunk, columns).iloc[:0]
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
