"""Proved claims as value sources: used only once proved, only inside their scope."""
from grundy.solvers.solver import Solver
from grundy.spec import read_position
from grundy.spec.games.nim import nim_witnesses
from grundy.verify import Claim, Finding, bitvec, heaps
from grundy.verify.serve import serve


def nim_sum(g, s):
    x = s.heap[0]
    for i in g.elements[1:]:
        x = x ^ s.heap[i]
    return x


def nim_claim(id="t/nim-sum", statement=nim_sum, bits=8, **kw):
    kw.setdefault("expect", "proved")
    return Claim(id, game="nim", kind="grundy", family=heaps(2), bounds={"heap": 3}, statement=statement,
                 witnesses=nim_witnesses, methods=["explicit", bitvec(bits)], serves=True, **kw)


def pos(game, hs, **kw):
    return read_position({"game": game, "heaps": hs, **kw})


def test_a_proved_claim_answers_inside_its_bit_width_only():
    s = Solver()
    lines = serve(s, [nim_claim()], cache=False)
    assert lines == ["t/nim-sum: proved (Z3 on 8-bit vectors): the solver answers by it"]
    assert s.grundy(pos("nim", [200, 5])) == 200 ^ 5
    assert s.theorems.used == {"by theorem t/nim-sum, proved (Z3 on 8-bit vectors)": 1}
    assert s.grundy(pos("nim", [300, 5])) == 300 ^ 5          # beyond 2^8: the search answers
    assert sum(s.theorems.used.values()) == 1
    assert s.grundy(pos("nim", [7, 5, 1])) == 7 ^ 5 ^ 1       # three heaps: not the claim's structure
    assert sum(s.theorems.used.values()) == 1


def test_a_claim_that_is_not_proved_is_never_used():
    def planted(g, s):                   # wrong at [3, 0]
        from grundy.spec import ite
        return ite((s.heap[0] == 3) & (s.heap[1] == 0), 1, nim_sum(g, s))
    s = Solver()
    lines = serve(s, [nim_claim("t/planted", planted, expect="refuted", finding=Finding("planted"))], cache=False)
    assert lines[0].startswith("t/planted: not used: its verdict is refuted")
    assert s.theorems.formulas == []
    assert s.grundy(pos("nim", [3, 0])) == 3 and s.theorems.used == {}


def test_misere_positions_are_not_answered_by_a_normal_play_theorem():
    s = Solver()
    serve(s, [nim_claim()], cache=False)
    assert s.grundy(pos("nim", [1, 1], convention="misere")) == 1      # misère: not the nim-sum 0
    assert s.theorems.used == {}


def test_assume_bounds_where_a_theorem_answers():
    s = Solver()
    serve(s, [nim_claim("t/nim-small", assume=lambda g, s: s.heap[1] <= 3)], cache=False)
    assert s.grundy(pos("nim", [10, 5])) == 15 and s.theorems.used == {}
    assert s.grundy(pos("nim", [10, 2])) == 8 and sum(s.theorems.used.values()) == 1


def test_lasker_formula_answers_every_heap_of_a_sum(tmp_path):
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location("classics_for_test",
                                                  Path(__file__).parent.parent / "theorems" / "classics.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    claim = next(c for c in mod.CLAIMS if c.id == "classics/lasker-nim")
    s = Solver()
    assert "the solver answers by it" in serve(s, [claim])[0]
    want = {20000: 19999, 7: 8, 5: 5}
    assert s.grundy(pos("lasker-nim", [20000, 7, 5])) == 19999 ^ 8 ^ 5
    assert s.grundy(pos("lasker-nim", [7])) == want[7]
    assert sum(s.theorems.used.values()) == 2


def test_solve_cli_names_the_theorem(tmp_path, capsys):
    from grundy.cli import main
    f = tmp_path / "nimsum.py"
    f.write_text("from grundy.verify import Claim, bitvec, heaps\n"
                 "from grundy.spec.games.nim import nim_witnesses\n"
                 "def v(g, s):\n    return s.heap[0] ^ s.heap[1]\n"
                 "CLAIMS = [Claim('cli/nim-sum', game='nim', kind='grundy', family=heaps(2), bounds={'heap': 3},\n"
                 "                statement=v, witnesses=nim_witnesses, methods=['explicit', bitvec(32)],\n"
                 "                expect='proved', serves=True)]\n")
    assert main(["solve", "nim", "1000000", "5", "--theorems", str(f)]) == 0
    out, err = capsys.readouterr()
    assert "1000005" in out
    assert "answered by theorem cli/nim-sum, proved (Z3 on 32-bit vectors)" in err


def test_a_one_heap_formula_answers_only_the_rule_with_its_parameters():
    """A grundy claim on one heap of octal 0.07 (given by its own game class) is not used for
    another code of the registered octal game."""
    from grundy.solvers.theorems import ProvedFormula
    from grundy.spec import Structure
    s = Solver()
    s.theorems.formulas.append(ProvedFormula("t/fake", "octal", "normal", Structure.heaps(1), "grundy", 32,
                                             lambda st: 99, per_heap=True))
    assert s.grundy(pos("octal", [3], code="0.77")) == 3          # Kayles: G(3) = 3, not the formula's 99
    assert s.theorems.used == {}


def test_solve_cli_establishes_only_the_theorems_about_the_games_solved(tmp_path, capsys):
    from grundy.cli import main
    f = tmp_path / "two.py"
    f.write_text("from grundy.verify import Claim, bitvec, heaps\n"
                 "from grundy.spec.games.nim import nim_witnesses\n"
                 "CLAIMS = [Claim('two/nim-sum', game='nim', kind='grundy', family=heaps(2), bounds={'heap': 3},\n"
                 "                statement=lambda g, s: s.heap[0] ^ s.heap[1], witnesses=nim_witnesses,\n"
                 "                methods=['explicit', bitvec(16)], expect='proved', serves=True),\n"
                 "          Claim('two/wythoff-never', game='wythoff', kind='char', family=heaps(2), bounds={'heap': 3},\n"
                 "                statement=lambda g, s: s.heap[0] == s.heap[1], methods=['explicit', 'smt'],\n"
                 "                expect='refuted', serves=True)]\n")
    assert main(["solve", "nim", "1000", "5", "--theorems", str(f)]) == 0
    out, err = capsys.readouterr()
    assert "two/nim-sum: proved" in err
    assert "two/wythoff-never" not in err and "1 claim about other games not established" in err, err
