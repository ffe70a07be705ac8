"""Print the largest import cycle among the project's own modules.

Usage::

    python -m tools.import_cycles [--max N] [--root DIR] [paths ...]

``paths`` are package folders relative to ``--root`` (default: the current directory); the default is
``bot engine render``. Every ``import``/``from ... import`` counts, wherever it stands: at module level, inside a
function or class, under ``if TYPE_CHECKING:`` or in a ``try``. Only imports of modules inside the scanned paths
are edges; ``from pkg import name`` is an edge to ``pkg.name`` when that is a module, else to ``pkg``. Relative
imports are resolved against the importing module.

The cycles are the strongly connected components (Tarjan's algorithm) of that graph. The command prints the
largest component's size and modules, then every component larger than ``--max`` (default 1: any cycle), and
exits 1 when one is larger than ``--max``, else 0.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

DEFAULT_PATHS = ("bot", "engine", "render")


def module_name(root: Path, path: Path) -> str:
    """The dotted module name of ``path`` (a ``.py`` file under ``root``); a package's ``__init__`` is the package.

    >>> module_name(Path("/r"), Path("/r/engine/conex/game.py"))
    'engine.conex.game'
    >>> module_name(Path("/r"), Path("/r/engine/__init__.py"))
    'engine'
    """
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(module: str, is_package: bool, level: int, target: str | None) -> str:
    """The absolute module named by ``from <'.' * level><target> import ...`` inside ``module``."""
    if level == 0:
        return target or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join([*base, target] if target else base)


def imported_modules(tree: ast.AST, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``tree`` (the source of ``module``) imports anywhere in its body.

    An import names one module: ``import a.b.c`` is an edge to ``a.b.c`` (or its nearest known parent when
    ``a.b.c`` is not scanned), not to the packages ``a`` and ``a.b`` whose ``__init__`` runs on the way: a
    package is part of a cycle only when a module imports it by name (``from a.b import X`` with ``X`` not a module).
    """
    found: set[str] = set()

    def add(name: str) -> None:
        parts = name.split(".")
        for i in range(len(parts), 0, -1):
            prefix = ".".join(parts[:i])
            if prefix in known:
                found.add(prefix)
                return

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, is_package, node.level, node.module)
            for alias in node.names:
                sub = f"{base}.{alias.name}" if base else alias.name
                if sub in known:
                    found.add(sub)
                else:
                    add(base)
    found.discard(module)
    return found


def build_graph(root: Path, paths: Iterable[str]) -> dict[str, set[str]]:
    """Module name -> the scanned modules it imports, over every ``*.py`` under ``root/<path>`` for each path."""
    files: dict[str, Path] = {}
    for rel in paths:
        base = root / rel
        candidates = [base] if base.is_file() else sorted(base.rglob("*.py"))
        for path in candidates:
            if ".venv" in path.parts or "__pycache__" in path.parts:
                continue
            files[module_name(root, path)] = path
    known = set(files)
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        graph[name] = imported_modules(tree, name, path.name == "__init__.py", known)
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` (Tarjan, iterative), each sorted, largest first.

    >>> strongly_connected({"a": {"b"}, "b": {"a"}, "c": {"a"}})
    [['a', 'b'], ['c']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(graph.get(start, ())))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                comp: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    comp.append(member)
                    if member == node:
                        break
                out.append(sorted(comp))
    return sorted(out, key=lambda c: (-len(c), c))


def main(argv: Sequence[str] | None = None) -> int:
    """Print the largest cycle and every cycle above ``--max``; return 1 when there is one, else 0."""
    parser = argparse.ArgumentParser(prog="python -m tools.import_cycles", description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", default=list(DEFAULT_PATHS), help="package folders (default: %(default)s)")
    parser.add_argument("--max", type=int, default=1, help="largest allowed component, in modules (default 1)")
    parser.add_argument("--root", type=Path, default=Path("."), help="project root the paths are relative to")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    graph = build_graph(root, args.paths)
    comps = strongly_connected(graph)
    largest = comps[0] if comps else []
    print(f"largest import cycle over {' '.join(args.paths)}: {len(largest)} module(s) of {len(graph)}")
    if len(largest) > 1:
        print("  " + ", ".join(largest))
    over = [c for c in comps if len(c) > args.max]
    for comp in over:
        print(f"cycle of {len(comp)} > --max {args.max}: {', '.join(comp)}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
