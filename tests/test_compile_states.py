"""The compiled move functions against the rules' IR read by the reference interpreter
(:func:`grundy.spec.expr.evaluate`), on random graphs large enough that the states after a move
are written with slices of the old state (:func:`grundy.solvers.explicit.compile.state_text`)."""
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from grundy.solvers.explicit.compile import compile_rules, state_text
from grundy.spec import Structure
from grundy.spec.expr import evaluate
from grundy.spec.game import Rules
from grundy.spec.games import get_game


def reference_options(rules: Rules, s: tuple) -> list[tuple[int, tuple, tuple]]:
    """Every (move, choices, next state) at ``s``, each expression evaluated on its own."""
    env = {rules.schema.var_name(i): v for i, v in enumerate(s)}
    out = []
    for mi, m in enumerate(rules.moves):
        ranges = []
        for c in m.choices:       # bounds read the state only in the games used here
            ranges.append(range(evaluate(c.lo, env), evaluate(c.hi, env) + 1))
        for cv in product(*ranges):
            e = dict(env, **{c.name: v for c, v in zip(m.choices, cv)})
            if evaluate(m.guard, e):
                t = list(s)
                for i, u in m.update.items():
                    t[i] = evaluate(u, e)
                out.append((mi, tuple(cv), tuple(t)))
    return out


def graphs(max_n: int = 22):
    return st.integers(2, max_n).flatmap(lambda n: st.tuples(
        st.just(n), st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
                            .filter(lambda e: e[0] < e[1]), max_size=3 * n)))


def _check(game: str, n: int, edges, states) -> None:
    rules = Rules(get_game(game), Structure.graph(range(n), sorted(edges)))
    code = compile_rules(rules, symmetry=False, decompose=False)
    for s in states:
        want = reference_options(rules, s)
        got = code.options(s)
        assert sorted(got) == sorted(want)
        assert all(type(t) is tuple for _, _, t in got)
        assert sorted(code.successors(s)) == sorted(t for _, _, t in want)
        assert sorted(code.successors_lazy(s)) == sorted(t for _, _, t in want)
        assert code.successors(list(s)) == code.successors(s)      # a list is read as its tuple


@settings(max_examples=12, deadline=None)
@given(graphs(), st.data())
def test_grim_moves_compiled_are_the_rules_moves(g, data):
    n, edges = g
    states = data.draw(st.lists(st.tuples(*[st.booleans()] * n), min_size=1, max_size=3))
    _check("grim", n, edges, states)


@settings(max_examples=8, deadline=None)
@given(graphs(7), st.data())
def test_vertexnim_moves_compiled_are_the_rules_moves(g, data):
    n, edges = g
    rules = Rules(get_game("vertexnim"), Structure.graph(range(n), sorted(edges)))
    doms = rules.slot_domains
    slot = [st.booleans() if d is None else st.integers(d[0], d[0] + 3 if d[1] is None else d[1]) for d in doms]
    states = data.draw(st.lists(st.tuples(*slot), min_size=1, max_size=3))
    _check("vertexnim", n, edges, states)


def test_state_text_is_the_tuple_of_every_slot():
    s = tuple(range(100, 130))
    for changed in [{}, {0: "-1"}, {29: "-1"}, {3: "-1", 4: "-2", 20: "-3"}, {i: str(-i) for i in range(0, 30, 2)},
                    {i: str(-i) for i in range(30)}, {1: "-1", 28: "-2"}]:
        for n in (1, 2, 3, 5, 30):
            ch = {i: v for i, v in changed.items() if i < n}
            want = tuple(int(ch[i]) if i in ch else s[i] for i in range(n))
            assert eval(state_text(n, ch), {"s": s[:n]}) == want


def test_grim_on_a_path_and_a_wheel_with_slices():
    path = (20, [(i, i + 1) for i in range(19)])
    wheel = (12, [(0, i) for i in range(1, 12)] + [(i, i % 11 + 1) for i in range(1, 12)])
    for n, edges in (path, wheel):
        full, gaps = (True,) * n, tuple(i % 5 != 2 for i in range(n))
        _check("grim", n, edges, [full, gaps])
