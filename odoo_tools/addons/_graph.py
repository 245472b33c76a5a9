"""Graph algorithms for module dependencies, on plain ``name -> dependencies`` mappings.

- ``depth_of``: the longest dependency chain below a module (Odoo loads by depth, then name);
  modules in or above a cycle are collected in ``stuck``.
- ``find_cycles``: every dependency cycle (Tarjan's strongly connected components, iterative).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def depth_of(
    name: str,
    depends: Mapping[str, Sequence[str]],
    depth: dict[str, int],
    stuck: set[str],
    path: set[str] | None = None,
) -> int:
    """Longest dependency chain below ``name`` (unknown dependencies ignored), memoized in ``depth``."""
    path = set() if path is None else path
    if name in depth:
        return depth[name]
    if name in path:
        stuck.update(path)
        return 0
    path.add(name)
    deps = [d for d in depends.get(name, ()) if d in depends]
    level = 1 + max((depth_of(d, depends, depth, stuck, path) for d in deps), default=-1)
    path.discard(name)
    if any(d in stuck for d in deps):
        stuck.add(name)
    depth[name] = level
    return level


def find_cycles(graph: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, iterative; each cycle starts at its smallest name."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    result: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, int]] = [(start, 0)]
        while work:
            node, child_i = work.pop()
            if child_i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            children = sorted(graph[node])
            if child_i < len(children):
                work.append((node, child_i + 1))
                child = children[child_i]
                if child not in index:
                    work.append((child, 0))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph[node]:
                    result.append(rotate_cycle(component, graph))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return sorted(result)


def rotate_cycle(component: list[str], graph: Mapping[str, Sequence[str]]) -> list[str]:
    """Order a component along its edges from its smallest name, so it reads as a cycle."""
    members = set(component)
    order = [min(component)]
    while len(order) < len(members):
        nxt = next((d for d in sorted(graph[order[-1]]) if d in members and d not in order), None)
        if nxt is None:  # complex component: fall back to name order for the rest
            order.extend(sorted(members - set(order)))
            break
        order.append(nxt)
    return order
