"""A result's engine: every manifest, chunk and verdict file records the digest of the sources
that decide verdicts; a resume or merge across engines is refused with one line unless
``--allow-other-engine``, and then ``summary`` and ``table`` show the mix. Work recorded before
engines were ("unrecorded") is read as it always was."""

import ast
import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from solitaire_odds.cli import main
from solitaire_odds.rules import resolve
from solitaire_odds.runs import catalog, deepen, engine_identity, store, verdicts
from solitaire_odds.runs.engine_identity import (
    UNRECORDED,
    digest_of,
    engine_digest,
    source_files,
)
from solitaire_odds.runs.records import run_record

OTHER = "0123456789ab"
"""The digest of an engine that is not this one."""
ODDS = ("odds", "westcliff", "--budget", "1e3", "--chunk-size", 10, "--workers", 1, "--quiet")
REPOSITORY = Path(__file__).resolve().parent.parent


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_error(result, *phrases):
    assert result.exit_code == 2, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("solitaire-odds: error: "), result.output
    for phrase in phrases:
        assert phrase in lines[0], lines[0]


def solved_by(chunk: Path, engine: str | None) -> None:
    """Rewrite ``chunk``'s identity as if ``engine`` had solved it (None: as chunks were
    written before engines were recorded)."""
    table = pq.read_table(chunk)
    metadata = dict(table.schema.metadata)
    identity = json.loads(metadata[store.IDENTITY_KEY])
    identity.pop("engine")
    if engine:
        identity["engine"] = engine
    metadata[store.IDENTITY_KEY] = json.dumps(identity).encode()
    pq.write_table(table.replace_schema_metadata(metadata), chunk)


@pytest.fixture(scope="module")
def twenty(tmp_path_factory):
    """Deals 0..19 at the default rules, in chunks of 10, by this engine."""
    out = tmp_path_factory.mktemp("engine") / "run"
    result = cli(*ODDS, "--deals", 20, "--out", out)
    assert result.exit_code == 0, result.output
    return out


def test_the_digest_reads_the_verdict_sources_the_same_on_every_checkout(tmp_path):
    package = REPOSITORY / "solitaire_odds"
    copy = tmp_path / "solitaire_odds"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert digest_of(copy) == digest_of(package) == engine_digest()
    search = copy / "engine" / "search.py"
    search.write_bytes(search.read_bytes().replace(b"\n", b"\r\n"))  # a Windows checkout
    (copy / "engine" / "notes.txt").write_text("not a source")
    (copy / "cli.py").write_text("# the command line decides no verdict\n")
    assert digest_of(copy) == engine_digest()
    search.write_bytes(search.read_bytes() + b"# any change\r\n")
    assert digest_of(copy) != engine_digest()
    moved = copy / "players" / "greedy.py"
    moved.rename(copy / "players" / "greedy_player.py")  # the same text under another path
    assert len({digest_of(copy), engine_digest()}) == 2


def _imports(path: Path, package: Path) -> set[Path]:
    """The package's modules that ``path`` imports (relative and absolute imports)."""
    found = set()
    module = path.relative_to(package.parent).with_suffix("").parts
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = module[:len(module) - node.level] if path.name != "__init__.py" else module[:len(module) - node.level + 1]
                parts = (*base, *(node.module.split(".") if node.module else ()))
            elif node.module and node.module.startswith("solitaire_odds"):
                parts = tuple(node.module.split("."))
            else:
                continue
            names = [(*parts, alias.name) for alias in node.names] + [parts]
        elif isinstance(node, ast.Import):
            names = [tuple(alias.name.split(".")) for alias in node.names if alias.name.startswith("solitaire_odds")]
        else:
            continue
        for name in names:
            target = package.parent.joinpath(*name)
            for candidate in (target.with_suffix(".py"), target / "__init__.py"):
                if candidate.is_file():
                    found.add(candidate)
    return found


def test_the_digest_covers_every_module_a_verdict_goes_through():
    """From the players and the solver, every module of the package they import, and those
    modules' imports, is one the digest reads (a verdict cannot change unseen)."""
    package = REPOSITORY / "solitaire_odds"
    covered = set(source_files(package))
    todo = [package / "solver.py", *sorted((package / "players").glob("*.py"))]
    seen = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo.extend(_imports(path, package))
    outside = sorted(str(path.relative_to(package)) for path in seen - covered)
    # the package's and game's __init__ (a docstring and a lazy import) and the parsing of
    # counts from text decide no verdict
    assert outside == ["__init__.py", "counts.py", "game/__init__.py"], outside


def test_manifests_chunks_and_verdict_files_record_the_engine(tmp_path, twenty):
    assert store.read_manifest(twenty)["engine"] == engine_digest()
    assert store.folder_engines(twenty) == {engine_digest(): 20}
    exported = catalog.export_verdicts(twenty, tmp_path)
    manifest, _ = verdicts.read(exported)
    assert manifest["engines"] == [engine_digest()] and "engine" not in manifest
    assert catalog.engines(exported) == [engine_digest()]


def test_a_resume_after_an_engine_change_is_refused_and_with_the_flag_reported_as_mixed(tmp_path, twenty):
    out = tmp_path / "run"
    shutil.copytree(twenty, out)
    solved_by(out / "chunks" / "deals-00000000000000000000-00000000000000000009.parquet", OTHER)
    refused = cli(*ODDS, "--deals", 30, "--out", out, "--resume")
    one_line_error(refused, f"{out} holds verdicts of engine {OTHER}, not of engine {engine_digest()}",
                   "--allow-other-engine")
    assert store.folder_engines(out) == {OTHER: 10, engine_digest(): 10}  # nothing was added
    # reading a folder is never refused: only adding to it, or merging it with another
    assert cli("summary", out).exit_code == 0

    allowed = cli(*ODDS, "--deals", 30, "--out", out, "--resume", "--allow-other-engine")
    assert allowed.exit_code == 0, allowed.output
    mixed = f"mixed: {', '.join(sorted([OTHER, engine_digest()]))}"
    assert f"engines: {mixed}; these verdicts come from more than one engine" in allowed.output
    assert store.folder_engines(out) == {OTHER: 10, engine_digest(): 20}
    summary = cli("summary", out)
    assert summary.exit_code == 0 and f"engines: {mixed}" in summary.output, summary.output
    table = cli("table", out, "--format", "json")
    assert json.loads(table.output)[0]["engine"] == mixed
    assert json.loads(cli("table", twenty, "--format", "json").output)[0]["engine"] == engine_digest()
    assert "engines:" not in cli("summary", twenty).output


def test_a_merge_of_two_engines_is_refused_unless_allowed(tmp_path, twenty):
    other = tmp_path / "other"
    result = cli(*ODDS, "--deals", 10, "--first", 20, "--out", other)
    assert result.exit_code == 0, result.output
    solved_by(other / "chunks" / "deals-00000000000000000020-00000000000000000029.parquet", OTHER)
    one_line_error(cli("summary", twenty, other), f"holds verdicts of engine {OTHER}", engine_digest(),
                   "--allow-other-engine")
    merged = cli("summary", twenty, other, "--allow-other-engine")
    assert merged.exit_code == 0 and "deals 30:" in merged.output and "engines: mixed" in merged.output, merged.output


def test_work_that_recorded_no_engine_is_read_and_resumed_with_a_note(tmp_path, twenty):
    """Run folders and verdict files from before engines were recorded hold no digest: they
    read as before, and adding to them is allowed (nothing says their engine differs), the
    result then shown as a mix with "unrecorded"."""
    out = tmp_path / "run"
    shutil.copytree(twenty, out)
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["engine"]
    (out / "manifest.json").write_text(json.dumps(manifest))
    for chunk in (out / "chunks").iterdir():
        solved_by(chunk, None)
    assert json.loads(cli("table", out, "--format", "json").output)[0]["engine"] == UNRECORDED
    resumed = cli(*ODDS, "--deals", 30, "--out", out, "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert f"engines: mixed: {engine_digest()}, {UNRECORDED}" in resumed.output
    assert "made before engines were recorded" in resumed.output
    committed = min((REPOSITORY / "results" / "verdicts" / "westcliff").glob("*.parquet"))
    assert catalog.engines(committed) == [UNRECORDED]
    assert run_record([committed], verdicts.read(committed)[1])["engine"] == UNRECORDED


def test_extending_or_deepening_a_verdict_file_of_another_engine_is_refused_unless_allowed(tmp_path, twenty):
    path = catalog.export_verdicts(twenty, tmp_path, first=0, last=9)
    manifest, rows = verdicts.read(path)
    verdicts.write(path, {**manifest, "engines": [OTHER]}, rows)
    with pytest.raises(store.OtherEngine, match=f"{path} holds verdicts of engine {OTHER}"):
        catalog.export_verdicts(twenty, tmp_path, first=10, last=19, keep=True)
    extended = catalog.export_verdicts(twenty, tmp_path, first=10, last=19, keep=True, allow_other_engine=True)
    assert verdicts.read(extended)[0]["engines"] == sorted([OTHER, engine_digest()])
    assert len(verdicts.read(extended)[1]) == 20

    rules = resolve("westcliff")
    assert rules == catalog.rules_of(manifest)
    unknown = verdicts.read(extended)[1].assign(verdict="unknown")
    verdicts.write(extended, {**verdicts.read(extended)[0], "engines": [OTHER]}, unknown)
    with pytest.raises(store.OtherEngine, match=f"holds verdicts of engine {OTHER}"):
        deepen.deepen(extended, (2_000,))
    deeper = deepen.deepen(extended, (2_000,), allow_other_engine=True)
    assert verdicts.read(deeper)[0]["engines"] == sorted([OTHER, engine_digest()])


def test_the_flag_is_named_as_the_cli_spells_it():
    assert engine_identity.FLAG == "--allow-other-engine"
    assert "--allow-other-engine" in cli("odds", "--help").output and "--allow-other-engine" in cli("summary", "--help").output
