"""Compiling rules and expressions to Python: the per-structure caches give the code a fresh
compilation gives, and never mix up structures whose text differs."""
import re

import pytest

import grundy.solvers.explicit.compile as C
from grundy.solvers.explicit import compile_expr, compile_rules
from grundy.spec import Structure
from grundy.spec.expr import Var
from grundy.spec.game import Rules
from grundy.spec.games import get_game
from grundy.verify.families import states

PATH = Structure.graph(range(4), [(0, 1), (1, 2), (2, 3)])
STAR = Structure.graph(range(4), [(0, 1), (0, 2), (0, 3)])


def box(rules: Rules, bound: int = 2):
    return list(states(rules, {"weight": (1, bound)}, None))


def uncached(monkeypatch, game: str, g: Structure):
    """The rules compiled with empty caches that keep nothing (the options function too)."""
    with monkeypatch.context() as m:
        for name, value in [("_BY_ID", {}), ("_CODE", {}), ("_BY_ID_LIMIT", 0), ("_CODE_LIMIT", 0)]:
            m.setattr(C, name, value)
        rules = Rules(get_game(game), g)
        code = compile_rules(rules)
        code.options(box(rules)[0])
        assert not C._BY_ID and not C._CODE
        return code


@pytest.mark.parametrize("game", ["vertexnim", "grim"])
def test_cached_code_is_the_code_a_fresh_compilation_gives(monkeypatch, game):
    for g in (PATH, STAR):
        rules = Rules(get_game(game), g)
        code, ref = compile_rules(rules), uncached(monkeypatch, game, g)
        sts = box(rules)
        assert sts
        for s in sts:
            assert sorted(code.successors(s)) == sorted(ref.successors(s))
            assert sorted(code.successors_lazy(s)) == sorted(ref.successors(s))
            assert code.options(s) == ref.options(s)
            assert code.rank(s) == ref.rank(s) and code.canonical(s) == ref.canonical(s)


def _made(code):
    """``code`` with its ``successors`` compiled (each move function is, when first called)."""
    before = code.successors
    code.successors(tuple(0 for _ in code.rules.schema.slots))
    assert code.successors is not before and code.successors.__name__ == "successors"
    return code


def test_same_moves_share_their_code_and_different_moves_do_not():
    # vertexnim's moves read only the state: the path and the star give the same text
    a, b = (_made(compile_rules(Rules(get_game("vertexnim"), g))) for g in (PATH, STAR))
    assert a.successors.__code__ is b.successors.__code__
    assert a.successors.__globals__ is not b.successors.__globals__   # each its own tables
    # grim's moves depend on the edges: different text, different code
    c, d = (_made(compile_rules(Rules(get_game("grim"), g))) for g in (PATH, STAR))
    assert c.successors.__source__ != d.successors.__source__ or any(
        c.successors.__globals__[k].__source__ != d.successors.__globals__[k].__source__
        for k in c.successors.__globals__ if k.startswith("successors_"))


def test_one_expression_on_two_layouts_reads_each_layout():
    # the variable "token" is slot 5 with two vertices (2 weights, 3 pairs) and slot 9 with three
    tok = Var.int("token")
    r2 = Rules(get_game("vertexnim"), Structure.graph(range(2), [(0, 1)]))
    r3 = Rules(get_game("vertexnim"), Structure.graph(range(3), [(0, 1), (1, 2)]))
    f2, f3 = compile_expr(r2, tok + 10), compile_expr(r3, tok + 10)
    assert f2((1, 1, 0, 1, 0, 1)) == 11
    assert f3((1, 1, 1, 0, 1, 0, 0, 1, 0, 2)) == 12


def test_a_kept_move_function_is_made_once(monkeypatch):
    """A search keeps ``code.successors_lazy`` in a local before its first call: every later
    call through that local must reach the function made by the first, not make it again."""
    code = compile_rules(Rules(get_game("vertexnim"), PATH))
    made = []
    plain = C._MoveSources.bind
    monkeypatch.setattr(C._MoveSources, "bind", lambda self, *a: made.append(a[0]) or plain(self, *a))
    kept = code.successors_lazy
    sts = box(code.rules)
    for s in sts[:5]:
        assert sorted(kept(s)) == sorted(code.successors(s))
    assert made.count("successors_lazy") == 1 and code.successors_lazy is not kept


_GRAPHS = [PATH, STAR, Structure.graph(range(4), [(0, 1), (1, 2), (2, 3), (3, 0)]),
           Structure.graph(range(5), [(0, 1), (1, 2), (2, 3), (1, 4)]),
           Structure.graph(range(3), [(0, 1), (1, 2)]), Structure.graph(range(5), [(0, 1), (1, 2), (2, 3), (3, 4)])]


@pytest.mark.parametrize("game", ["grim", "vertex-nimg", "edge-nim", "vertexnim"])
def test_moves_planned_once_for_many_graphs_give_the_text_of_a_fresh_compilation(monkeypatch, game):
    """A move's plan is made once per move and slots (compile._plan): grim's vertex with the same
    neighbourhood on two graphs, vertexnim on every graph of n vertices. Compiled one after
    another (the plans reused), every function's text is the one an uncached compilation gives."""
    def texts(code):
        out = []
        for name in ("successors", "successors_lazy", "options"):
            getattr(code, name)(tuple(0 for _ in code.rules.schema.slots))
            fn = getattr(code, name)
            out.append("".join(f.__source__ for k, f in sorted(fn.__globals__.items())
                               if re.fullmatch(name + r"(_m?\d+)?", k)))
        return out
    graphs = [g for g in _GRAPHS if game != "vertexnim" or g.n <= 4]    # (uncached: a box of free adjacency)
    warm = [texts(compile_rules(Rules(get_game(game), g))) for g in graphs]
    assert C._BY_ID and any(k[0] == "plan" for k in C._BY_ID)
    assert warm == [texts(uncached(monkeypatch, game, g)) for g in graphs]


def test_one_move_on_slots_laid_out_differently_gets_its_own_plan():
    """The same move (the same guard and updates, by node identity) on two structures whose
    slots differ (the token after 2 or 3 weights): each plan reads the token where its rules
    keep it (the plan's key holds the slots the move reads, compile._plan)."""
    from grundy.spec import Field, Game, move

    class TokenReader(Game):
        name = "token-reader-test"
        summary = "lower vertex 0's weight while the token is on vertex 0"
        structure = "graph"

        def fields(self, g):
            return [Field("weight", over="vertices"), Field("token", kind="vertex")]

        def moves(self, g, s):
            yield move("lower 0", guard=(s.token == 0) & (s.weight[0] > 0), update=s.set(weight={0: s.weight[0] - 1}))

        def rank(self, g, s):
            return s.weight[0]

    game = TokenReader()
    for n in (2, 3):
        code = compile_rules(Rules(game, Structure.graph(range(n), [(0, 1)])))
        assert code.successors((1,) * n + (0,)) == [(0,) + (1,) * (n - 1) + (0,)]
        assert code.successors((1,) * n + (1,)) == []
