"""Code figures for the refactor report: function length (median, p90, max), the largest file and
class, plain-`Any` parameters, and import cycles (module-level and function-level imports;
TYPE_CHECKING blocks left out). McCabe > 10: `ruff check --select C901 --statistics app backends skills`.

    python bench/code_figures.py [TREE]        # TREE: a checkout (default: this one)
Duplicate blocks come from the `duplicates` tool: `duplicates --repo TREE --most 80`."""

from __future__ import annotations

import ast
import statistics
import sys
from pathlib import Path

PACKAGES = ("app", "backends", "skills")


def modules(root: Path) -> dict[str, tuple[Path, ast.Module]]:
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")) if (root / package).is_dir() else []:
            rel = path.relative_to(root).with_suffix("")
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            found[".".join(parts)] = (path, ast.parse(path.read_text(encoding="utf-8")))
    return found


def imports_of(name: str, path: Path, tree: ast.Module, known: set[str]) -> set[str]:
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
               and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                here = here[: len(here) - node.level + 1]
                base = ".".join([*here, *([node.module] if node.module else [])])
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    # A package importing its own submodules (re-exports) is not a cycle.
    return {m for m in out & known if m != name and not m.startswith(name + ".")}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for v in graph:
        if v not in index:
            visit(v)
    return found


def plain_any_parameters(tree: ast.Module) -> int:
    """Parameters annotated as bare `Any` (`*args: Any` and `**kwargs: Any` count too)."""
    count = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
            count += sum(1 for a in every if a is not None and a.annotation is not None
                         and ast.unparse(a.annotation) in ("Any", "typing.Any"))
    return count


def largest_class(found: dict[str, tuple[Path, ast.Module]]) -> tuple[int, str]:
    return max(((n.end_lineno or n.lineno) - n.lineno + 1, f"{name}.{n.name}")
               for name, (_, tree) in found.items() for n in ast.walk(tree)
               if isinstance(n, ast.ClassDef))


def main(root: Path) -> None:
    found = modules(root)
    lengths = sorted(n.end_lineno - n.lineno + 1 for _, tree in found.values()
                     for n in ast.walk(tree)
                     if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.end_lineno)
    sizes = sorted((len(p.read_text(encoding="utf-8").splitlines()), str(p.relative_to(root)))
                   for p, _ in found.values())
    graph = {name: imports_of(name, p, t, set(found)) for name, (p, t) in found.items()}
    print(f"functions {len(lengths)}: median {statistics.median(lengths):g}, "
          f"p90 {lengths[int(0.9 * (len(lengths) - 1))]}, max {lengths[-1]}")
    print(f"files {len(sizes)} ({sum(s for s, _ in sizes)} lines); "
          f"largest {sizes[-1][1]} ({sizes[-1][0]} lines)")
    print(f"import cycles: {len(cycles(graph))} {cycles(graph)}")
    anys = {name: plain_any_parameters(tree) for name, (_, tree) in found.items()}
    ui = sum(n for name, n in anys.items() if name.startswith("app.ui"))
    print(f"plain-Any parameters: {sum(anys.values())} ({ui} in app.ui)")
    print("largest class: {1} ({0} lines)".format(*largest_class(found)))


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]))
