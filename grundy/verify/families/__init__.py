"""Families of structures, and the positions on a structure within bounds.

The package is cut by job: :mod:`.base` (:class:`Family`, :class:`Lazy`), :mod:`.builders`
(named graphs, heaps, the atlas, random graphs), :mod:`.nauty` (every graph, from geng),
:mod:`.listed` (families of positions, sums, tables) and :mod:`.bounds` (the states within
bounds, and how small a position is).

A :class:`Family` is a list of named structures, smallest first (fewest vertices,
then fewest edges); families add up with ``+``.

>>> list(heap_tuples(2, 2))
[(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]
"""
from .base import Family, Item, Lazy, label_of
from .bounds import (
                       count_states,
                       heap_tuples,
                       size_key,
                       slot_values,
                       states,
                       tokens,
                       values_of,
                       weight_assignments,
)
from .builders import (
                       all_graphs,
                       cartesian,
                       complete,
                       complete_bipartite,
                       complete_multipartite,
                       cycles,
                       disjoint_union,
                       gnp,
                       graph6_file,
                       graphs,
                       grids,
                       heaps,
                       hypercubes,
                       paths,
                       petersen,
                       ssb,
                       stars,
                       two_stars,
                       wheels,
)
from .listed import Positions, TableStatement, positions, sums, table_positions
from .nauty import (
                       GENG_HINT,
                       Geng,
                       GengMissing,
                       geng,
                       geng_program,
                       graph6,
                       pickg_program,
)
from .open import (
                       AtLeast,
                       OpenCycles,
                       OpenFamily,
                       OpenPaths,
                       OpenWheels,
                       arcs_of,
                       at_least,
                       invariant,
                       path_outcome,
                       runs_of,
)
from .trees import rooted_trees, trees

__all__ = ["Family", "Item", "Lazy", "label_of", "count_states", "heap_tuples", "size_key", "slot_values", "states",
           "tokens", "values_of", "weight_assignments", "all_graphs", "cartesian", "complete", "complete_bipartite",
           "complete_multipartite", "cycles", "disjoint_union", "gnp", "graphs", "heaps", "hypercubes", "paths",
           "petersen", "ssb", "stars", "two_stars", "wheels", "Positions", "TableStatement", "positions", "sums",
           "table_positions", "GENG_HINT", "Geng", "GengMissing", "geng", "geng_program", "graph6", "pickg_program",
           "graph6_file", "grids", "trees", "rooted_trees", "AtLeast", "OpenFamily", "OpenPaths", "OpenCycles", "at_least", "runs_of",
           "arcs_of", "invariant", "OpenWheels", "path_outcome"]
