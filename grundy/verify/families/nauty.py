"""Every graph up to isomorphism, streamed from nauty's ``geng`` (filtered by ``pickg`` on the
automorphism group): the :class:`Geng` family, cut by index for parallel sweeps.
"""
from __future__ import annotations

import itertools
from typing import Any, Callable, Iterator

from ...errors import GengMissing, GrundyError
from ...spec.structure import Structure
from .base import Family, Item

GENG_HINT = "nauty's geng is not installed: install Debian's package nauty (apt-get install nauty)"


def geng_program() -> str | None:
    """The path of nauty's geng (Debian installs it as ``nauty-geng``), or None."""
    import shutil
    return shutil.which("nauty-geng") or shutil.which("geng")


def pickg_program() -> str | None:
    """The path of nauty's pickg (Debian: ``nauty-pickg``), or None."""
    import shutil
    return shutil.which("nauty-pickg") or shutil.which("pickg")


def _geng_run(args: list[str]) -> "Any":
    import subprocess
    prog = geng_program()
    if prog is None:
        raise GengMissing(GENG_HINT)
    return subprocess.Popen([prog, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)


_GENG_COUNTS: dict[tuple[int, int, bool], int] = {}


def _geng_count(n: int, e: int, connected: bool) -> int:
    """How many graphs geng makes on n vertices with e edges (``geng -u``, cached per process)."""
    import re
    key = (n, e, connected)
    if key not in _GENG_COUNTS:
        p = _geng_run(["-u"] + (["-c"] if connected else []) + [str(n), f"{e}:{e}"])
        _, err = p.communicate()
        m = re.search(rb"(\d+) graphs generated", err)
        if p.returncode != 0 or m is None:
            raise RuntimeError(f"geng failed on n={n}, e={e}: {err.decode(errors='replace').strip()}")
        _GENG_COUNTS[key] = int(m.group(1))
    return _GENG_COUNTS[key]


def graph6(line: bytes) -> tuple[int, list[tuple[int, int]]]:
    """Decode one graph6 line (n <= 62): the number of vertices and the edges (i < j), sorted.

    >>> graph6(b"Bw"), graph6(b"@")                  # the triangle; one vertex
    ((3, [(0, 1), (0, 2), (1, 2)]), (1, []))
    """
    line = line.strip()
    n = line[0] - 63
    if not 0 <= n <= 62:
        raise ValueError("graph6 with more than 62 vertices is not supported")
    bits = 0
    for ch in line[1:]:
        bits = (bits << 6) | (ch - 63)
    total = 6 * (len(line) - 1)
    edges = []
    k = 0
    for j in range(1, n):                              # the upper triangle, column by column
        for i in range(j):
            if (bits >> (total - 1 - k)) & 1:
                edges.append((i, j))
            k += 1
    edges.sort()
    return n, edges


class Geng(Family):
    """Every graph on min_n..max_n vertices up to isomorphism, streamed from nauty's geng
    (fewest vertices first, then fewest edges, then geng's order); ``where(g)`` keeps only some.

    Nothing is built up front: ``items()`` streams, and the family is indexed by geng's output
    (before any filter), so :meth:`part` gives a range of it to one worker of a parallel sweep
    and :meth:`span` is the number of graphs read. A structure is named by its graph6 code
    (``graph6:Bw`` is the triangle).

    Two filters run in nauty's ``pickg``, on the automorphism group, before Python sees a graph
    (they only drop graphs): ``symmetric`` keeps the graphs with a non-trivial automorphism,
    ``max_fixed=k`` those with at most k vertices fixed by every automorphism (orbits of size
    one). A ``where`` that implies them (an involution with no fixed vertex implies
    ``max_fixed=0``) keeps the same graphs with the filter as without, and a sweep is then
    far cheaper; the scope names the filter and the number of graphs geng made.
    """

    def __init__(self, max_n: int, min_n: int = 1, connected: bool = False,
                 where: Callable[[Structure], bool] | None = None, scope: str | None = None,
                 span: tuple[int, int | None] = (0, None), *, symmetric: bool = False,
                 max_fixed: int | None = None):
        if not 1 <= min_n <= max_n <= 62:
            raise ValueError("geng: need 1 <= min_n <= max_n <= 62")
        if max_fixed is not None and (isinstance(max_fixed, bool) or not isinstance(max_fixed, int)
                                      or max_fixed < 0):
            raise ValueError(f"geng: max_fixed must be an int >= 0, got {max_fixed!r}")
        self.max_n, self.min_n, self.connected, self.where = max_n, min_n, connected, where
        self.symmetric, self.max_fixed = bool(symmetric), max_fixed
        self._span = span
        self._scope = scope

    def _pick(self) -> list[str]:
        """pickg's constraints for the filters (none: no pickg)."""
        return ((["-a2:"] if self.symmetric else [])
                + ([f"-F:{self.max_fixed}"] if self.max_fixed is not None else []))

    def filter_text(self) -> str:
        """The nauty filter in words ("" without one).

        >>> geng(9, symmetric=True, max_fixed=1).filter_text()
        'a non-trivial automorphism and at most 1 vertex fixed by every automorphism'
        """
        out = ["a non-trivial automorphism"] if self.symmetric else []
        if self.max_fixed == 0:
            out.append("no vertex fixed by every automorphism")
        elif self.max_fixed is not None:
            out.append(f"at most {self.max_fixed} vertex{'es' * (self.max_fixed != 1)} fixed by every automorphism")
        return " and ".join(out)

    @property
    def scope(self) -> str:      # type: ignore[override]
        if self._scope is not None:
            return self._scope
        what = f"{'connected ' if self.connected else ''}graphs on {self.min_n}..{self.max_n} vertices"
        if self._pick():
            try:
                made = f"of the {sum(c for _, _, c in self._buckets()):,} graphs geng makes"
            except GrundyError:
                made = "of those geng makes"
            text = f"the {what} with {self.filter_text()} (nauty's pickg, {made})"
        else:
            text = f"all {what} (geng)"
        return text + (f" with {getattr(self.where, '__name__', 'a condition')}" if self.where is not None else "")

    @scope.setter
    def scope(self, text: str) -> None:
        self._scope = text

    def _buckets(self) -> list[tuple[int, int, int]]:
        return [(n, e, _geng_count(n, e, self.connected))
                for n in range(self.min_n, self.max_n + 1)
                for e in range(n - 1 if self.connected else 0, n * (n - 1) // 2 + 1)]

    def span(self) -> int:
        """The number of graphs geng makes for this family (before nauty's filter and ``where``;
        of a part: its size)."""
        lo, hi = self._span
        total = sum(c for _, _, c in self._buckets())
        hi = total if hi is None else min(hi, total)
        return max(0, hi - lo)

    def part(self, start: int, stop: int) -> "Geng":
        """The graphs ``start..stop-1`` of this family's span, as a family with the same scope."""
        lo, _ = self._span
        return Geng(self.max_n, self.min_n, self.connected, self.where, self._scope,
                    (lo + start, lo + min(stop, self.span())), symmetric=self.symmetric,
                    max_fixed=self.max_fixed)

    def lines(self) -> Iterator[bytes]:
        """geng's graph6 lines of this family (of its part), in order, after nauty's filter
        (if any) and before ``where``."""
        lo, hi = self._span
        at = 0
        pick = self._pick()
        for n, e, count in self._buckets():
            if hi is not None and at >= hi:
                return
            if at + count <= lo or count == 0:
                at += count
                continue
            a, b = max(lo - at, 0), count if hi is None else min(hi - at, count)   # this bucket's range
            if pick:
                yield from self._picked(n, e, pick + ([f"-p{a + 1}:{b}"] if (a, b) != (0, count) else []))
                at += count
                continue
            p = _geng_run(["-q"] + (["-c"] if self.connected else []) + [str(n), f"{e}:{e}"])
            try:
                for line in p.stdout:
                    if lo <= at and (hi is None or at < hi):
                        yield line
                    at += 1
                    if hi is not None and at >= hi:
                        break
            finally:
                p.kill()
                p.communicate()

    def _picked(self, n: int, e: int, pick: list[str]) -> Iterator[bytes]:
        """The graphs of geng's bucket (n, e) that pickg's constraints ``pick`` keep."""
        import subprocess
        prog = pickg_program()
        if prog is None:
            raise GengMissing(GENG_HINT.replace("geng", "pickg", 1))
        gen = _geng_run(["-q"] + (["-c"] if self.connected else []) + [str(n), f"{e}:{e}"])
        sel = subprocess.Popen([prog, "-q", *pick], stdin=gen.stdout, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
        gen.stdout.close()                         # pickg alone reads geng's output
        ok = False
        assert sel.stdout is not None             # stdout=PIPE
        try:
            yield from sel.stdout
            ok = True
        finally:
            if not ok:                             # the reader stopped early (or failed): stop both
                sel.kill()
            _, err = sel.communicate()             # (read to the end: pickg exits by itself)
            gen.kill()                             # geng may still be writing past pickg's range
            gen.communicate()
            if ok and sel.returncode != 0:
                raise RuntimeError(f"pickg {' '.join(pick)} failed on n={n}, e={e}: "
                                   f"{err.decode(errors='replace').strip()}")

    def __iter__(self) -> Iterator[Item]:
        for line in self.lines():
            n, edges = graph6(line)
            g = Structure("graph", n, edges, frozenset(), list(range(n)))
            if self.where is None or self.where(g):
                yield "graph6:" + line.strip().decode(), g

    def items(self) -> "Any":  # an iterable: the family is streamed, never held as a list
        return _Stream(self)

    @property
    def _items(self) -> list[Item]:        # what Family's other methods read: built on demand
        return list(self)

    def __len__(self) -> int:
        return self.span() if self.where is None and not self._pick() else sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"Geng({self.scope})"


class _Stream:
    """The items of a :class:`Geng` family: iterable again and again, with ``len`` and indexing."""

    def __init__(self, family: Geng):
        self.family = family

    def __iter__(self) -> Iterator[Item]:
        return iter(self.family)

    def __len__(self) -> int:
        return len(self.family)

    def __getitem__(self, i: "int | slice") -> "Any":
        if isinstance(i, slice):
            return list(self.family)[i]
        if i < 0:
            return list(self.family)[i]
        return next(itertools.islice(iter(self.family), i, None))


def geng(max_n: int, *, min_n: int = 1, connected: bool = False,
         where: Callable[[Structure], bool] | None = None, symmetric: bool = False,
         max_fixed: int | None = None) -> Geng:
    """Every graph on min_n..max_n vertices up to isomorphism, from nauty's ``geng`` (Debian's
    package ``nauty``), streamed lazily; ``where(g)`` keeps only the graphs meeting a condition.
    ``symmetric`` / ``max_fixed`` let nauty drop graphs first, on their automorphism group (see
    :class:`Geng`): sound for a ``where`` that implies them.

    >>> fam = geng(4, min_n=4)
    >>> fam.span() if geng_program() else 11                 # OEIS A000088: 11 graphs on 4 vertices
    11
    >>> len(geng(4, min_n=4, symmetric=True)) if geng_program() else 11   # none is asymmetric
    11
    >>> len(geng(4, min_n=4, max_fixed=0)) if geng_program() else 7       # the star K_{1,3}: its centre is fixed
    7
    """
    return Geng(max_n, min_n, connected, where, symmetric=symmetric, max_fixed=max_fixed)
