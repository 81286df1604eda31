"""Product functions and methods no product code names: those only tests (or benchmarks) call,
and those nothing calls. By name (a Name or an attribute anywhere in app, backends, skills, or a
string such as a "module:function" target), so a name shared with a used one hides it; what is
called by a framework (Qt's event handlers, library hooks, migrations collected by a decorator)
is listed with its decorators for a person to judge.

    python bench/only_tests_call.py [TREE]        # TREE: a checkout (default: this one)
"""

from __future__ import annotations

import ast
import re
import sys
from collections import Counter
from pathlib import Path

PRODUCT = ("app", "backends", "skills")
OTHERS = ("bench", "packaging", "resources")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def files(root: Path, packages: tuple[str, ...]) -> list[Path]:
    return [p for package in packages for p in sorted((root / package).rglob("*.py"))]


def uses(paths: list[Path]) -> Counter[str]:
    """How often each name is read (not defined or imported) in these files."""
    found: Counter[str] = Counter()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Name):
                found[node.id] += 1
            elif isinstance(node, ast.Attribute):
                found[node.attr] += 1
            elif isinstance(node, ast.alias) and node.asname:  # imported under another name
                found[node.name] += 1
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.update(_WORD.findall(node.value))  # getattr, "module:function" targets
    return found


def main(root: Path) -> None:
    product = files(root, PRODUCT)
    in_product, in_others = uses(product), uses(files(root, OTHERS))
    in_tests = uses(files(root, ("tests",)))
    entry_points = (root / "pyproject.toml").read_text(encoding="utf-8")
    for path in product:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            name = node.name
            if name.startswith("__") or in_product[name] or name in entry_points:
                continue
            decorators = ", ".join(ast.unparse(d) for d in node.decorator_list)
            print(f"{path.relative_to(root)}:{node.lineno} {name}: tests {in_tests[name]}, "
                  f"bench {in_others[name]}" + (f"  @{decorators}" if decorators else ""))


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve())
