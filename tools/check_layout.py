"""Layout check run by `make test`: no import circle inside src/engramdb, no module over 500 lines.

Every import counts: at module level, inside functions and under ``if TYPE_CHECKING``. A circle
is a set of modules that reach each other through imports (a strongly connected component of
more than one module, or a module importing itself). Importing a package's submodule does not
count as importing the package's ``__init__`` (Python runs it first, but it is not a dependency
the code chose).

    python tools/check_layout.py [SRC]      # exit 1 and a list of what breaks the rules
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

MAX_LINES = 500
PACKAGE = "engramdb"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def imported(node: ast.AST, here: str, package: bool, known: set[str]) -> list[str]:
    """The engramdb modules one import statement names."""
    if isinstance(node, ast.Import):
        return [resolve(alias.name, known) for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        base = here.split(".") if package else here.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    names = []
    for alias in node.names:
        sub = f"{target}.{alias.name}"
        names.append(sub if sub in known else resolve(target, known))
    return names


def resolve(name: str, known: set[str]) -> str:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name


def graph(src: Path) -> tuple[dict[str, set[str]], dict[str, Path]]:
    files = {module_name(p, src): p for p in sorted((src / PACKAGE).rglob("*.py"))}
    known = set(files)
    edges: dict[str, set[str]] = {m: set() for m in files}
    for mod, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            for target in imported(node, mod, is_package(path), known):
                if target in known and target != mod:
                    edges[mod].add(target)
    return edges, files


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def long_modules(files: dict[str, Path]) -> list[tuple[str, int]]:
    sizes = [(mod, len(path.read_text(encoding="utf-8").splitlines()))
             for mod, path in files.items()]
    return [(mod, n) for mod, n in sizes if n > MAX_LINES]


def main(argv: list[str]) -> int:
    src = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / "src"
    edges, files = graph(src)
    problems = [f"import circle: {' <-> '.join(c)}" for c in circles(edges)]
    problems += [f"module over {MAX_LINES} lines: {mod} ({n})" for mod, n in long_modules(files)]
    for line in problems:
        print(line)
    print(f"layout: {len(files)} modules, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
