"""Heap games written as a rule on one heap (grundy.spec.heaprule, grundy.solvers.heaps).

References written here from the rules' words, not from grundy's spec or solver: plain
recursions over one heap and over whole positions (multisets), and the literature's values
(Lasker's formula, S(1, 3, 4), Kayles, Dawson's Kayles).
"""
from __future__ import annotations

import subprocess
import sys
from functools import lru_cache

import pytest

import grundy
from grundy.errors import RuleError
from grundy.solvers.heaps import period, rule_values, takebreak_run
from grundy.solvers.native import build
from grundy.solvers.solver import Solver
from grundy.spec import HeapRule, InputError, TakeBreak, option, read_position
from grundy.spec.games import get_game
from grundy.spec.heaprule import rule_heaps

NATIVE = build.available()


def mex(values) -> int:
    s, g = set(values), 0
    while g in s:
        g += 1
    return g


def lasker_options(h: int):
    for k in range(1, h + 1):
        yield (h - k,) if h > k else ()
    for a in range(1, h // 2 + 1):
        yield (a, h - a)


def grundy_options(h: int):
    for a in range(1, (h + 1) // 2):
        if a != h - a:
            yield (a, h - a)


def subtraction_options(s: list[int]):
    def opts(h: int):
        for k in s:
            if k <= h:
                yield (h - k,) if h > k else ()
    return opts


@lru_cache(maxsize=None)
def plain_grundy_game(h: int) -> int:
    """Grundy's game on one heap by plain recursion (a split is worth the XOR of its parts)."""
    return mex(plain_grundy_game(a) ^ plain_grundy_game(b) for a, b in grundy_options(h))


def one_heap(options, n: int) -> list[int]:
    G: list[int] = []
    for h in range(n + 1):
        vals = []
        for o in options(h):
            x = 0
            for p in o:
                x ^= G[p]
            vals.append(x)
        G.append(mex(vals))
    return G


def whole(options, heaps: tuple[int, ...], memo: dict) -> int:
    """Grundy value of a multiset of heaps by recursion over whole positions (no XOR rule)."""
    key = tuple(sorted(h for h in heaps if h))
    if key not in memo:
        opts = set()
        for i, h in enumerate(key):
            rest = key[:i] + key[i + 1:]
            for o in options(h):
                opts.add(tuple(sorted(rest + tuple(p for p in o if p))))
        memo[key] = mex(whole(options, o, memo) for o in opts)
    return memo[key]


def g(game: str, heaps, **extra) -> int:
    return grundy.solve({"game": game, "heaps": list(heaps), **extra})["grundy"]


# ------------------------------------------------------------------------------ Lasker's Nim

def lasker_formula(n: int) -> int:
    if n == 0:
        return 0
    return {1: n, 2: n, 3: n + 1, 0: n - 1}[n % 4]


def test_lasker_formula_to_200():
    G = [g("lasker-nim", [n]) for n in range(201)]
    assert G == [lasker_formula(n) for n in range(201)]
    assert G[:60] == one_heap(lasker_options, 59)


def test_lasker_sums_against_whole_positions():
    memo: dict = {}
    for heaps in [(1, 2), (3, 4), (2, 2, 5), (4, 3, 1), (6, 1, 1, 2)]:
        assert g("lasker-nim", heaps) == whole(lasker_options, heaps, memo)


def test_lasker_one_heap_form_for_z3():
    n, opts = get_game("lasker-nim").one_heap()
    assert n.name == "n" and len(opts) == 2
    assert [len(o.update) for o in opts] == [1, 2]          # remove (one part) and split (two parts)
    assert [c.name for c in opts[1].choices] == ["a", "b"]


def test_lasker_slot_rules_agree_with_sums():
    # the moves on slots (what the kernel and Z3 see) give the same values as the XOR rule
    slots = Solver(decompose=False, native=False)
    for heaps in [(3,), (2, 2), (4, 1), (5,)]:
        p = read_position({"game": "lasker-nim", "heaps": list(heaps)})
        assert slots.grundy(p) == g("lasker-nim", heaps)


def test_lasker_winning_moves_are_moves_in_one_heap():
    r = grundy.solve({"game": "lasker-nim", "heaps": [3, 4]}, winning_moves=True)
    assert r["grundy"] == 4 ^ 3
    for m in r["winning_moves"]:
        assert g("lasker-nim", m["to"]["heaps"]) == 0
    labels = {m["move"] for m in r["winning_moves"]}
    assert labels == {"remove 1 from heap 2", "split heap 1 into 1 + 2"}


# ------------------------------------------------------------------------------ Grundy's game

def test_grundys_game_to_300():
    want = [plain_grundy_game(n) for n in range(301)]
    assert [g("grundys-game", [n]) for n in range(301)] == want
    run = takebreak_run(TakeBreak((4,), unequal=True), 300, native=False)
    assert run.values == want
    if NATIVE:
        c = takebreak_run(TakeBreak((4,), unequal=True), 300, native=True)
        assert c.values == want and c.counters() == run.counters()
    assert takebreak_run(TakeBreak((4,), unequal=True), 300, method="plain", native=False).values == want


def test_grundys_game_rule_and_code_agree():
    # the same game written as options by hand: the generic one-heap path
    class Split(HeapRule):
        name = "unequal-split-test"

        def options(self, g, n):
            yield option("split heap {heap} into {a} + {b}", guard=n >= 3,
                         choose=[("a", 1, (n - 1) // 2), ("b", lambda a: n - a, lambda a: n - a)],
                         parts=lambda a, b: [a, b])
    assert rule_values(Split().heap_rule(rule_heaps(1)), 120) == [plain_grundy_game(n) for n in range(121)]


def test_grundys_game_sums():
    memo: dict = {}
    for heaps in [(7, 5), (8, 3, 4), (10, 6)]:
        assert g("grundys-game", heaps) == whole(grundy_options, heaps, memo)


# ------------------------------------------------------------------------------ subtraction games

def test_subtraction_134_period_7():
    G = [g("subtraction", [n], set=[1, 3, 4]) for n in range(70)]
    assert G == [[0, 1, 0, 1, 2, 3, 2][n % 7] for n in range(70)]
    found = period(get_game("subtraction").code(rule_heaps(1, {"set": (1, 3, 4)})), G)
    assert (found.preperiod, found.period, found.proved) == (0, 7, True)


@pytest.mark.parametrize("s", [[1, 2], [2, 5, 6], [3], [1, 4, 9, 16]])
def test_subtraction_sets(s):
    want = one_heap(subtraction_options(s), 100)
    assert [g("subtraction", [n], set=s) for n in range(101)] == want
    memo: dict = {}
    for heaps in [(7, 9), (3, 8, 10)]:
        assert g("subtraction", heaps, set=s) == whole(subtraction_options(s), heaps, memo)


def test_subtraction_json_example():
    r = grundy.solve({"game": "subtraction", "set": [1, 3, 4], "heaps": [7, 9]}, winning_moves=True)
    assert r["grundy"] == 0 ^ 0 and r["outcome"] == "P" and r["winning_moves"] == []   # 7 = 0, 9 = 2 mod 7
    r = grundy.solve({"game": "subtraction", "set": [1, 3, 4], "heaps": [7, 12]}, winning_moves=True)
    assert r["grundy"] == 3 and r["outcome"] == "N"
    assert [m["to"]["heaps"] for m in r["winning_moves"]] == [[7, 9]]


def test_subtraction_bad_set():
    for bad in ([], [0, 1], "1,3", [1, -2]):
        with pytest.raises(InputError, match="set"):
            read_position({"game": "subtraction", "set": bad, "heaps": [3]})


# ------------------------------------------------------------------------------ octal on the same footing

def test_octal_periods_unchanged():
    kayles = takebreak_run(TakeBreak((0, 7, 7)), 500).values
    p = period(TakeBreak((0, 7, 7)), kayles)
    assert (p.preperiod, p.period, p.proved) == (71, 12, True)   # Kayles: last exception at 70
    dawson = takebreak_run(TakeBreak((0, 0, 7)), 500).values
    p = period(TakeBreak((0, 0, 7)), dawson)
    assert (p.period, p.proved) == (34, True)


def test_octal_json_positions_unchanged():
    assert g("octal", [5, 7], code="0.77") == 4 ^ 2
    r = grundy.solve({"game": "octal", "code": "0.770", "heaps": [4]}, winning_moves=True)
    assert {"move": "take 1 from heap 1, leaving 1 + 2", "to": {"game": "octal", "heaps": [1, 2], "code": "0.77"}} \
        not in r["winning_moves"]            # 1 ^ 2 = 3 is not 0
    assert {"move": "take 2 from heap 1", "to": {"game": "octal", "heaps": [2], "code": "0.77"}} \
        not in r["winning_moves"]
    assert [m["to"]["heaps"] for m in r["winning_moves"]] == [[1, 1]]


# ------------------------------------------------------------------------------ generic rules

def test_apparent_period_is_not_proved():
    # unequal splits: no theorem applies; values that repeat are reported as apparent only
    p = period(TakeBreak((4,), unequal=True), [0, 1] * 40)
    assert p is not None and not p.proved and p.period == 2


def test_rule_that_makes_tokens_is_an_error():
    class Grow(HeapRule):
        name = "grow-test"

        def options(self, g, n):
            yield option("grow heap {heap}", guard=n >= 2, parts=[n - 1, 2])

    with pytest.raises(RuleError, match="grow heap 0|grow heap"):
        grundy.solve(Grow().position([3]))


def test_every_shipped_heap_rule_is_a_sum():
    for obj in [{"game": "lasker-nim"}, {"game": "grundys-game"}, {"game": "subtraction", "set": [2]},
                {"game": "octal", "code": "0.6"}]:
        p = read_position({**obj, "heaps": [4, 2]})
        assert p.game.heap_rule(p.structure) is not None
    assert get_game("wythoff").heap_rule(read_position({"game": "wythoff", "heaps": [1, 2]}).structure) is None


# ------------------------------------------------------------------------------ command line

def run_cli(*args):
    p = subprocess.run([sys.executable, "-m", "grundy.cli", *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def test_cli_values():
    code, out, _ = run_cli("values", "subtraction", "13", "--set", "1", "3", "4")
    assert code == 0 and list(map(int, out.split())) == [[0, 1, 0, 1, 2, 3, 2][n % 7] for n in range(14)]
    code, out, _ = run_cli("values", "subtraction", "40", "--set", "1", "3", "4", "--period")
    assert code == 0 and "period 7 from n = 0 (proved" in out
    code, out, _ = run_cli("values", "lasker-nim", "12")
    assert code == 0 and list(map(int, out.split())) == [lasker_formula(n) for n in range(13)]
    code, out, _ = run_cli("values", "octal", "200", "--code", "0.77", "--period")
    assert code == 0 and "period 12 from n = 71 (proved" in out
    code, out, _ = run_cli("values", "grundys-game", "10")
    assert code == 0 and list(map(int, out.split())) == [plain_grundy_game(n) for n in range(11)]
    code, out, _ = run_cli("values", "subtraction", "13", "--param", "set=[1, 3, 4]")
    assert code == 0 and list(map(int, out.split())) == [[0, 1, 0, 1, 2, 3, 2][n % 7] for n in range(14)]
    code, _, err = run_cli("values", "grundys-game", "10", "--param", "x=1")   # a field the game lacks
    assert code == 2 and "x: unknown field" in err and len(err.strip().splitlines()) == 1


def test_cli_values_errors():
    for args, field in [(["wythoff", "5"], "not a one-heap game"), (["octal", "5", "--code", "0.9"], "code"),
                        (["subtraction", "5"], "set"), (["nope", "5"], "unknown game")]:
        code, out, err = run_cli("values", *args)
        assert code == 2 and field in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_the_removed_octal_command_is_refused_and_values_does_it():
    code, out, err = run_cli("octal", "0.77", "11")
    assert code == 2 and out == "" and "invalid choice: 'octal'" in err
    code, out, err = run_cli("values", "octal", "11", "--code", "0.77")
    assert code == 0 and list(map(int, out.split())) == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]


def test_apparent_period_of_a_rule_without_theorem():
    # "take 1 or 2, or split into two unequal heaps": no theorem; report what the values show
    code = TakeBreak((4, 3, 3), unequal=True)
    vals = takebreak_run(code, 300).values
    found = period(code, vals)
    if found is not None:
        assert not found.proved
        assert all(vals[n + found.period] == vals[n] for n in range(found.preperiod, 301 - found.period))


def test_infinite_code_kernel_matches_lasker_rule():
    # Lasker's Nim is the take-and-break code 4.333...: the tail digit in C and in Python
    want = [lasker_formula(n) for n in range(151)]
    for native in [False] + ([True] if NATIVE else []):
        for method in ("sparse", "plain"):
            assert takebreak_run(TakeBreak((4,), tail=3), 150, method=method, native=native).values == want
    py = takebreak_run(TakeBreak((0, 4), tail=6), 150, native=False)
    assert py.values == one_heap(tail_options, 150)
    if NATIVE:
        assert takebreak_run(TakeBreak((0, 4), tail=6), 150, native=True).counters() == py.counters()


def tail_options(h: int):
    """0.4666...: take 1 and leave two non-empty heaps; take k >= 2 and leave one or two."""
    for k in range(1, h + 1):
        r = h - k
        if k >= 2 and r > 0:
            yield (r,)
        for a in range(1, r // 2 + 1):
            if r - a >= 1:
                yield (a, r - a)


def test_top_level_exports():
    assert grundy.HeapRule is HeapRule and grundy.option is option
    with pytest.warns(DeprecationWarning, match="grundy.spec"):     # moved out of the front door in 0.3
        assert grundy.TakeBreak is TakeBreak


def test_report_pictures_come_from_the_game():
    assert get_game("subtraction").picture({"heaps": [3, 4], "set": [1]}) == ("bars", [3, 4])
    assert get_game("edge-nim").picture({"edges": [[0, 1, 2]], "token": 0})[0] == "graph"


def test_one_heap_rules_are_read_by_z3():
    # the split option of Lasker's Nim leaves two parts that total the heap, for every heap
    # below 2^12 (bit-vectors): the one-heap rules are ordinary IR for the Z3 encoding
    import z3

    from grundy.solvers.smt.encode import Encoding
    rules = get_game("lasker-nim").one_heap_rules()
    assert len(rules.schema) == 2 and [m.label for m in rules.moves][1] == "split heap 1 into {a} + {b}"
    enc = Encoding(rules, width=16, bound=4095)
    split = enc.moves[1]
    heap, extra = enc.state_vars
    after = [enc.to_z3(enc.next(rules.schema.variables[i], 1)) for i in range(2)]
    s = z3.Solver()
    s.add(enc.to_z3(enc.family), extra == 0, enc.to_z3(split.legal))
    s.add(z3.Not(z3.And(after[0] + after[1] == heap, z3.UGE(after[0], 1), z3.UGE(after[1], after[0]))))
    assert s.check() == z3.unsat
    s = z3.Solver()                                     # and a split exists for every heap >= 2
    s.add(enc.to_z3(enc.family), extra == 0, z3.UGE(heap, 2), z3.ULE(heap, 4095))
    s.add(z3.Not(enc.to_z3(enc.with_choices(split.legal, 1, {"a": 1, "b": rules.schema.variables[0] - 1}))))
    assert s.check() == z3.unsat


def misere_whole(options, heaps: tuple[int, ...], memo: dict) -> bool:
    """Mover wins in misère play (the last mover loses), by recursion over whole positions."""
    key = tuple(sorted(h for h in heaps if h))
    if key not in memo:
        opts = set()
        for i, h in enumerate(key):
            rest = key[:i] + key[i + 1:]
            for o in options(h):
                opts.add(tuple(sorted(rest + tuple(p for p in o if p))))
        memo[key] = not opts or any(not misere_whole(options, o, memo) for o in opts)
    return memo[key]


@pytest.mark.parametrize("game, options, extra", [
    ("lasker-nim", lasker_options, {}), ("grundys-game", grundy_options, {}),
    ("subtraction", subtraction_options([1, 3, 4]), {"set": [1, 3, 4]})])
def test_slot_moves_agree_with_the_rule(game, options, extra):
    # the moves on slots (kernel, Z3, misère search) against recursion over whole positions
    slots = Solver(decompose=False)
    memo: dict = {}
    mis: dict = {}
    for heaps in [(5,), (3, 4), (2, 2, 3), (6, 1)]:
        p = read_position({"game": game, "heaps": list(heaps), **extra})
        assert slots.grundy(p) == whole(options, heaps, memo)
        q = read_position({"game": game, "heaps": list(heaps), "convention": "misere", **extra})
        assert slots.mover_wins(q) == misere_whole(options, heaps, mis)
        assert grundy.Solver().mover_wins(q) == misere_whole(options, heaps, mis)


def test_the_old_octal_helpers_are_gone():
    from grundy.spec.games import octal
    for name in ("parse_code", "canonical_code", "slot_bound", "octal_structure", "OctalHeaps"):
        assert not hasattr(octal, name)      # removed in 0.3: grundy.spec.heaprule has parse_octal, TakeBreak


# ------------------------------------------------------------------------------ no move disappears

@pytest.mark.parametrize("native", [False, "always"])
@pytest.mark.parametrize("game, heaps, move", [
    ("lasker-nim", (3,), "split heap 1 into 1 + 2"),          # one slot: the split has nowhere to go
    ("grundys-game", (3, 1), "split heap 1 into 1 + 2")])      # two slots, both full
def test_a_split_without_room_is_an_error_in_every_backend(native, game, heaps, move):
    # misère play: no one-heap table answers, the moves on the slots are searched (Python, C)
    if native and not NATIVE:
        pytest.skip("no C compiler")
    from grundy.spec import Position, Structure
    pos = Position(get_game(game), Structure.heaps(len(heaps)), heaps, "misere")
    with pytest.raises(RuleError) as e:
        Solver(native=native).grundy(pos)
    text = str(e.value)
    assert text.startswith(f"{game}: move ") and "does not fit heaps on" in text and '{"heaps": [' in text
    assert "\n" not in text
    # the same heaps read from JSON sit on enough slots: the value a brute force gives
    q = read_position({"game": game, "heaps": list(heaps), "convention": "misere"})
    opts = lasker_options if game == "lasker-nim" else grundy_options
    assert Solver(native=native).mover_wins(q) == misere_whole(opts, heaps, {})


def test_one_heap_moves_name_the_move_that_does_not_fit():
    from grundy.spec import Position, Structure
    pos = Position(get_game("lasker-nim"), Structure.heaps(1), (3,))
    with pytest.raises(RuleError, match=r"lasker-nim: move 'split heap 1 into 1 \+ 2' at \{\"heaps\": \[3\]\}"):
        grundy.Solver().heaps.options(pos)


def test_z3_finds_a_split_without_room_as_a_domain_violation():
    from grundy.solvers.smt import check_rank
    from grundy.spec import Structure
    rules = get_game("lasker-nim").rules(Structure.heaps(1))
    got = {r.obligation: r for r in check_rank(rules, timeout=60)}
    assert got["domain"].status == "violated"
    assert rules.moves[got["domain"].choices["move"]].label.startswith("split")
    # two slots hold every position of at most 2 tokens: there the slots are the game itself
    roomy = get_game("lasker-nim").rules(rule_heaps(2))
    small = (roomy.state.heap[0] + roomy.state.heap[1]) <= 2
    assert [r.status for r in check_rank(roomy, small, timeout=60) if r.obligation == "domain"] == ["holds"]


def test_sized_gives_the_slots_json_reading_gives():
    game = get_game("lasker-nim")
    from grundy.spec import Structure
    g, st = game.sized(Structure.heaps(2), (3, 2))
    assert (g, st) == (read_position({"game": "lasker-nim", "heaps": [3, 2]}).structure, (3, 2) + (0,) * (g.n - 2))
    assert game.sized(rule_heaps(8), (3, 2) + (0,) * 6)[0] == rule_heaps(8)    # room already


# ------------------------------------------------------------------------------ one source of truth

def _nim_options(self, g, n):
    yield option("take {k} from heap {heap}", choose=[("k", 1, n)], parts=lambda k: [n - k])


@pytest.mark.parametrize("name", ["options", "moves", "one_heap", "heap_rule", "rule_options"])
def test_a_take_and_break_game_may_not_define_what_its_code_gives(name):
    body = {"name": f"t-{name}", "code": lambda self, g: TakeBreak((0, 0, 7)), name: _nim_options}
    with pytest.raises(RuleError, match=rf"^Bad: a TakeAndBreak game's options come from its code\(\); it may "
                                        rf"not define or replace {name} "):
        type("Bad", (grundy.TakeAndBreak,), body)


def test_a_take_and_break_game_whose_options_are_replaced_later_is_refused_where_used():
    # Dawson's Kayles (0.07) with Nim's options put on the class, then on an object: values
    # would come from the code and moves from the replacement; both are refused where used
    class Dawson(grundy.TakeAndBreak):
        name = "t-dawson-later"

        def code(self, g):
            return TakeBreak((0, 0, 7))

    ok = Dawson()
    assert [grundy.solve(ok.position([h]))["grundy"] for h in range(6)] == [0, 0, 1, 1, 2, 0]   # 0.07: Dawson's Kayles
    obj = Dawson()
    obj.options = _nim_options.__get__(obj)
    with pytest.raises(RuleError, match="t-dawson-later: .* may not define or replace options"):
        grundy.solve(obj.position([5]))
    Dawson.options = _nim_options
    for game in (Dawson(), ok):
        with pytest.raises(RuleError, match="may not define or replace options"):
            grundy.solve(game.position([5]))
        with pytest.raises(RuleError, match="may not define or replace options"):
            game.one_heap_rules()


def test_cli_refuses_a_take_and_break_game_defining_options(tmp_path, capsys, monkeypatch):
    from grundy.cli import main
    monkeypatch.setenv("GRUNDY_GAMES", "")              # --games sets it: restored after the test
    f = tmp_path / "bad.py"
    f.write_text("from grundy.spec import TakeAndBreak, TakeBreak, option\n"
                 "class Bad(TakeAndBreak):\n"
                 "    name = 't-bad-options'\n"
                 "    def code(self, g):\n"
                 "        return TakeBreak((0, 0, 7))\n"
                 "    def options(self, g, n):\n"
                 "        yield option('take {k}', choose=[('k', 1, n)], parts=lambda k: [n - k])\n"
                 "GAME = Bad()\n")
    with grundy.spec.GAMES.scoped():
        assert main(["values", "t-bad-options", "60", "--period", "--games", str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err and "may not define or replace options" in err


def test_solve_heaps_still_solves_with_a_deprecation_warning():
    game = get_game("lasker-nim")
    with pytest.warns(DeprecationWarning, match="grundy.solve"):
        assert game.solve_heaps([3, 4]) == grundy.solve(game.position([3, 4]))
