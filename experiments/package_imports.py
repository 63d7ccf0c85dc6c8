"""The package's layout as its imports: every module of ``solitaire_odds`` with the project
modules it imports (at the top or inside a function), the same folded to sub-packages, and any
import circle. ``python experiments/package_imports.py`` prints it; exit status 1 on a circle.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "solitaire_odds"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, modules: set[str]) -> set[str]:
    """The project modules ``path`` imports; ``from pkg import name`` counts ``pkg.name`` where
    that is a module, else ``pkg``."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if not source.startswith("solitaire_odds"):
                continue
            for alias in node.names:
                full = f"{source}.{alias.name}"
                found.add(full if full in modules else source)
    found.discard(name)
    return {m for m in found if m in modules}


def graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    return {module_name(p): imports(p, modules) for p in paths}


def group(module: str) -> str:
    """A module's sub-package (``solitaire_odds.runs``), or the module itself at the top."""
    parts = module.split(".")
    return ".".join(parts[:2])


def folded(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for source, targets in edges.items():
        out.setdefault(group(source), set()).update(group(t) for t in targets if group(t) != group(source))
    return out


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of more than one node (Tarjan's algorithm)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                on.discard(top)
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def main() -> int:
    edges = graph()
    short = lambda m: m.removeprefix("solitaire_odds.") or "solitaire_odds"  # noqa: E731
    print("## modules and the project modules they import")
    for source in sorted(edges):
        print(f"{short(source)}: {', '.join(short(t) for t in sorted(edges[source])) or '-'}")
    print("\n## sub-packages")
    packages = folded(edges)
    for source in sorted(packages):
        print(f"{short(source)} -> {', '.join(short(t) for t in sorted(packages[source])) or '-'}")
    found = circles(edges)
    print("\n## import circles")
    for part in found:
        print(" <-> ".join(short(m) for m in part))
    if not found:
        print("none")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
