#!/usr/bin/env python3
"""grundy_check: re-check an explicit certificate of grundy without grundy (docs/soundness.md). Usage: python3 grundy_check.py BUNDLE (a bundle directory, or its explicit.json). Standard library only, no code shared with grundy: its own compiler of the exported rules (to Python, once per bundle) regenerates every position's options, recomputes Grundy values (the mex of the options' values; misere: 1 at a terminal position) and outcomes (a separate win/lose search), re-enumerates a sweep's box, evaluates the statement at every listed position, compares every recorded value, replays a strategy's failing line with the strategy's own cases, verifies a proof tree folded by symmetry (grundy_tree.py, beside this file) and judges the verdict. Exit status: 0 agreed, 1 disagreed, 2 bad bundle (a state of the wrong length: a TypeError of the compiled rules)."""
import hashlib
import importlib.util
import itertools
import json
import operator
import os
import sys
from collections import Counter
from functools import reduce

FORMAT, RULES_FORMAT = "grundy-explicit/1", "grundy-rules/1"
MAX_BOX = 5_000_000          # boxes larger than this are not re-enumerated (said in the summary)
class Bad(Exception):
    """The bundle is malformed (exit 2)."""
class Disagree(Exception):
    """The bundle's rules or records contradict the claim's verdict (exit 1)."""
def _ok(ok, why, error=Disagree):
    if not ok:
        raise error(why)
# ---------------------------------------------------------------- the rule language
def _nim_pow2(i, j, memo={}):  # noqa: B006 (a memo)
    """2^i (x) 2^j. 2^i is the ordinary product of the Fermat 2-powers F = 2^(2^b) for the bits b of i; distinct ones multiply ordinarily, and F (x) F = F xor F/2. So with k = 2^b the lowest bit i and j share, F = 2^k: 2^i (x) 2^j = (F xor F/2) (x) rest, rest = 2^(i-k) (x) 2^(j-k)."""
    if (i, j) not in memo:
        k = i & j & -(i & j)
        rest = _nim_pow2(i ^ k, j ^ k) if k else 0
        memo[i, j] = nim_mul(rest, 1 << k) ^ nim_mul(rest, 1 << (k - 1)) if k else 1 << (i | j)
    return memo[i, j]
def nim_mul(a, b):
    """The nim product: bilinear over xor, from the products of powers of two."""
    if a < 0 or b < 0:
        raise Disagree(f"nim_product of a negative number ({a}, {b})")
    bits = lambda x: [i for i in range(x.bit_length()) if x >> i & 1]  # noqa: E731
    return reduce(operator.xor, (_nim_pow2(i, j) for i in bits(a) for j in bits(b)), 0)
def _mex(values):
    return next(m for seen in [set(values)] for m in itertools.count() if m not in seen)
# Each node becomes Python source, inlined into its users; a node used again whose text is long,
# or one nested deep, becomes a function of its own (the code stays linear in the number of nodes).
OPS = {"add": "({} + {})", "sub": "({} - {})", "mul": "({} * {})", "nmul": "({} * {})", "div": "({} // {})", "mod": "({} % {})", "xor": "({} ^ {})", "bit_and": "({} & {})", "bit_or": "({} | {})", "nim_product": "_nim({}, {})", "lt": "({} < {})", "le": "({} <= {})", "eq": "({} == {})", "popcount": "_pop({})", "not": "(not {})", "ite": "({1} if {0} else {2})"}
def _text(op, subs):
    if op in ("and", "or"):
        return "(" + f" {op} ".join(subs) + ")"
    return f"{op}(({', '.join(subs)},))" if op in ("min", "max") else OPS[op].format(*subs)
def _bad(why, state):
    raise Disagree(f"{why} at {list(state)}")
class Code:
    """The exported expressions compiled to Python source per node (``and``, ``or``, ``ite``: lazy, as in Python)."""
    def __init__(self, nodes):
        self.nodes, self.src, self.free, self.ids, defs, depth = nodes, [], [], {}, [], []
        self.ns = {"_nim": nim_mul, "_pop": lambda x: bin(abs(x)).count("1"), "_bad": _bad}
        uses = Counter(a for r in nodes if isinstance(r, list) and r[:1] not in (["const"], ["var"]) for a in r[2:])
        for i, row in enumerate(nodes):
            _ok(not (not isinstance(row, list) or len(row) < 3 or row[1] not in ("int", "bool")), f"node {i}: {row!r} is not [op, sort, operands...]", Bad)
            op, sort, args = row[0], row[1], row[2:]
            if op in ("const", "var"):
                v, free, d = args[0], frozenset(args[:1] if op == "var" else ()), 0
                _ok(isinstance(v, str) if op == "var" else isinstance(v, int) and isinstance(v, bool) == (sort == "bool"), f"node {i}: {row!r} is not a {op} of sort {sort}", Bad)
                text = self.var(v) if op == "var" else repr(v)
            else:
                _ok(all(isinstance(a, int) and 0 <= a < i for a in args), f"node {i}: operands {args!r} must be indices of earlier nodes", Bad)
                _ok(not (op in ("div", "mod") and not (nodes[args[1]][0] == "const" and nodes[args[1]][2] > 0)), f"node {i}: {op} by something other than a positive constant", Bad)
                _ok(op in OPS and len(args) == OPS[op].count("{") or op in ("and", "or", "min", "max") and args, f"node {i}: unknown operator {op!r} with {len(args)} operands", Bad)
                text, free, d = _text(op, [self.src[a] for a in args]), frozenset().union(*(self.free[a] for a in args)), 1 + max(depth[a] for a in args)
                if d > 40 or (uses[i] > 1 and len(text) > 400):
                    defs.append(f"def _n{i}({self.params(free)}):\n    return {text}")
                    text, d = f"_n{i}({self.params(free)})", 0
            for seq, x in ((self.src, text), (self.free, free), (depth, d)):
                seq.append(x)
        self.run("\n".join(defs))
    def var(self, name):
        return self.ids.setdefault(name, f"v{len(self.ids)}")
    def params(self, names):
        return ", ".join(sorted(map(self.var, names)))
    def run(self, text):
        exec(compile(text, "<bundle>", "exec"), self.ns)    # our own text: numbers and v0, v1, ... only
    def expr(self, index, what, as_int=False):
        _ok(not (not isinstance(index, int) or not 0 <= index < len(self.src)), f"{what}: {index!r} is not a node index", Bad)
        return f"int({self.src[index]})" if as_int and self.nodes[index][1] == "bool" else self.src[index]
    def fn(self, index, names, what):
        """Node ``index`` as a function of the variables ``names`` (positional)."""
        self.run(f"def _f({', '.join(map(self.var, names))}):\n    return {self.expr(index, what)}")
        return self.ns.pop("_f")
    def loops(self, choices, body, what, pad="    "):
        """Source: nested loops binding each numeric choice between its bounds, around ``body``."""
        out = [pad + "    " * k + f"for {self.var(c['var'])} in range({self.expr(c['lo'], what)}, " f"{self.expr(c['hi'], what)} + 1):" for k, c in enumerate(choices)]
        return out + [pad + "    " * len(choices) + line for line in body]
class Moves:
    """The guarded commands on one structure compiled to Python: a state's moves (labelled or not), each move applied."""
    def __init__(self, rules, code):
        self.names, self.domains = [s["name"] for s in rules["slots"]], [tuple(s["domain"]) for s in rules["slots"]]
        self.labels, self.code, slots = [m["label"] for m in rules["moves"]], code, list(map(code.var, self.names))
        self.choices, body, bare, text = [[c["var"] for c in m["choices"]] for m in rules["moves"]], [], [], []
        st = "".join(v + ", " for v in slots)
        for mi, m in enumerate(rules["moves"]):
            w, nxt, cond = f"move {m.get('label')!r}", list(slots), []
            for slot, _ in m["update"]:
                lo, hi = self.domains[int(slot)]
                nxt[int(slot)] = f"_u{int(slot)}"
                cond += [f"_u{int(slot)} < {int(lo)}"] + ([f"_u{int(slot)} > {int(hi)}"] if hi is not None else [])
            inner = [f"_u{int(s)} = {code.expr(e, w, True)}" for s, e in m["update"]]
            if "fits" in m:
                inner.insert(0, f"if not {code.expr(m['fits'], w)}: _bad('move {mi} does not fit', ({st}))")
            if cond:
                inner.append(f"if {' or '.join(cond)}: _bad('move {mi} leaves a slot domain', ({st}))")
            cv, guard, t, g = [code.var(c) for c in self.choices[mi]], f"if {code.expr(m['guard'], w)}:", f"({', '.join(nxt)},)", m["guard"]
            conj = code.nodes[g][2:] if code.nodes[g][0] == "and" else [g]     # the conjuncts free of the
            out = [c for c in conj if not code.free[c] & {*self.choices[mi]} and "_n" not in code.src[c]]
            pre = [f"    if {' and '.join(code.src[c] for c in out) or 'True'}:"]   # choices: before the loops
            g = f"if {' and '.join(code.src[c] for c in conj if c not in out) or 'True'}:"
            for seq, add in ((body, f"(({mi}, ({', '.join(cv)}{',' if cv else ''}), {t}))"), (bare, f"({t})")):
                seq += pre + code.loops(m["choices"], [g] + ["    " + x for x in inner + [f"_out.append{add}"]], w, " " * 8)
            checks = [f"    if not {code.expr(c['lo'], w)} <= {code.var(c['var'])} <= {code.expr(c['hi'], w)}: " "return None" for c in m["choices"]]
            text.append(f"def _a{mi}(_s, {''.join(c + ', ' for c in cv)}):\n    ({st}) = _s\n" + "\n".join(checks + ["    " + guard] + ["        " + x for x in inner] + [f"        return {t}", "    return None"]))
        code.run("".join(f"def {f}(_s):\n    ({st}) = _s\n    _out = []\n" + "\n".join(b) + "\n    return _out\n" for f, b in (("_f", body), ("_o", bare))) + "\n".join(text))
        self.labelled, self.options = code.ns.pop("_f"), code.ns.pop("_o")    # state -> its moves
        self._apply = [code.ns.pop(f"_a{mi}") for mi in range(len(self.labels))]
    def fn(self, index, what):
        """Node ``index`` as a function of a state."""
        return (lambda f: lambda state: f(*state))(self.code.fn(index, self.names, what))
    key = staticmethod(tuple)
    def apply(self, state, mi, values):
        """The state after move ``mi`` with the choice values ``values`` (None: not legal there)."""
        ok = isinstance(mi, int) and 0 <= mi < len(self.labels) and len(values) == len(self.choices[mi])
        return self._apply[mi](state, *values) if ok else None
class HeapRule:
    """A rule on one heap: a position is a multiset of heaps; a move plays one option in one heap (its parts replace the heap; a part of 0 is no heap)."""
    def __init__(self, rule, code):
        self.labels, self.single, self.memo, body = [o["label"] for o in rule["options"]], {}, {}, []
        for oi, o in enumerate(rule["options"]):
            parts = "".join(f"{code.expr(p, 'option', True)}, " for p in o["parts"])
            body += code.loops(o["choices"], [f"if {code.expr(o['guard'], 'option')}:", f"    _out.append(({oi}, ({parts})))"], "option")
        code.run(f"def _f({code.var(rule['var'])}):\n    _out = []\n" + "\n".join(body) + "\n    return _out")
        self._options = code.ns.pop("_f")
    key = staticmethod(lambda state: tuple(sorted(h for h in state if h)))
    def heap_options(self, h):
        """The parts each option of a heap of ``h`` leaves (sorted, without 0s)."""
        if h not in self.memo:
            out = []
            for oi, ps in self._options(h):
                if min(ps, default=0) < 0 or sum(ps) > h or sorted(ps)[-1:] == [h]:
                    raise Disagree(f"option {self.labels[oi]!r} of a heap of {h} leaves {list(ps)}")
                out.append(tuple(sorted(p for p in ps if p)))
            self.memo[h] = out
        return self.memo[h]
    def options(self, state):
        hs = self.key(state)
        return [tuple(sorted(hs[:i] + hs[i + 1:] + ps)) for i, h in enumerate(hs) for ps in self.heap_options(h)]
    def heap_value(self, h):
        """G(h) of one heap in normal play: the mex of the xor of the parts' values."""
        for n in range(len(self.single), h + 1):
            self.single[n] = _mex(self.xor(ps) for ps in self.heap_options(n))
        return self.single[h]
    def xor(self, heaps):
        return reduce(operator.xor, (self.heap_value(h) for h in heaps), 0)
class Split:
    """Normal play, bundle hint ``split``: a value as the XOR of its parts' values where the checker proves the sum itself (docs/certificates.md). At a state, the slots the moves write that are at their least value, and the slots they only read, are held fixed (F); the rest are free. A three-valued evaluation of every move's IR (F known, free slots unknown: ``and``/``or``/``ite`` decided where a known operand decides) shows each move never legal, or writing F only with F's own values; then no move ever changes F (else the slot is freed and all is redone). Moves that may be legal are joined when they read or write a common free slot: each group plays its own slots, so the game is the sum of the groups' games."""
    def __init__(self, moves, rules):
        self.m, self.mv, self.nodes, self.ns, self.memo, self.an, self.line = moves, rules["moves"], moves.code.nodes, moves.code.ns, {}, {}, set()
        fr = lambda i: {n for n in moves.code.free[i] if n in self.index}  # noqa: E731
        self.index, self.zones, self.all = {n: i for i, n in enumerate(moves.names)}, {}, tuple(range(len(self.mv)))
        self.syn = [sorted(set().union(*(fr(i) for c in mv["choices"] for i in (c["lo"], c["hi"])), fr(mv["guard"]), fr(mv.get("fits", mv["guard"])), *(fr(e) for _, e in mv["update"]), {moves.names[int(z)] for z, _ in mv["update"]})) for mv in self.mv]
    def pe(self, n, env):
        """(value or None: unknown, the free slots it may depend on)."""
        row, none = self.nodes[n], frozenset()
        if row[0] in ("const", "var"):
            v = row[2] if row[0] == "const" else env.get(row[2])
            return v, frozenset([row[2]]) if v is None and row[2] in self.index else none
        subs = [self.pe(a, env) for a in row[2:]]
        if row[0] in ("and", "or") and any(v is not None and bool(v) == (row[0] == "or") for v, _ in subs):
            return row[0] == "or", none
        if row[0] == "ite" and subs[0][0] is not None:
            return subs[2 - bool(subs[0][0])]
        if all(v is not None for v, _ in subs) and row[0] != "nim_product":     # (a negative operand: an error)
            return eval(_text(row[0], [repr(v) for v, _ in subs]), self.ns), none     # our own text
        return None, frozenset().union(*(r for v, r in subs if v is None))
    def analyse(self, mi, env):
        """(never legal, the free slots read or written as a bit mask, the fixed slots written with another value)."""
        key = (mi, tuple(map(env.get, self.syn[mi])))
        if key not in self.an:
            mv, pe = self.mv[mi], lambda e: self.pe(e, env)  # noqa: E731
            bounds, (g, r), fits = [(pe(c["lo"]), pe(c["hi"])) for c in mv["choices"]], pe(mv["guard"]), pe(mv.get("fits", mv["guard"]))
            ups = [(self.m.names[int(z)], e, *pe(e)) for z, e in mv["update"]]
            writes = {n for n, e, v, _ in ups if not (v is not None and v == env.get(n) or self.nodes[e][:1] == ["var"] and self.nodes[e][2] == n)}
            reads = set(r | fits[1]).union(*(a | b for (_, a), (_, b) in bounds), *(r for n, _, _, r in ups if n in writes))
            dead = g is not None and not g or any(lo is not None and hi is not None and lo > hi for (lo, _), (hi, _) in bounds)
            self.an[key] = (True, 0, set()) if dead else (False, sum(1 << self.index[n] for n in reads | writes), writes & env.keys())
        return self.an[key]
    def groups(self, y, ms, zone):
        """The moves ``ms`` at ``y`` in groups, each the moves of one part (those never legal left out)."""
        free, bad = {self.m.names[z] for z in self.zones[ms][1] if y[z] != self.m.domains[z][0]}, True
        while bad:              # until no move writes a fixed slot: each one that is written is freed
            env = {self.m.names[i]: y[i] for i in zone if self.m.names[i] not in free}
            res = {mi: self.analyse(mi, env) for mi in ms}
            bad = set().union(*(r[2] for r in res.values()))
            free |= bad
        live, out = [mi for mi in ms if not res[mi][0]], []
        if any(not res[mi][1] for mi in live):
            return [tuple(live)]                    # a move that changes nothing: searched, the cycle found
        for mi in live:                             # join the moves that touch a common free slot
            mask, group = res[mi][1], [mi]
            for g in [g for g in out if g[0] & mask]:
                out.remove(g)
                mask, group = mask | g[0], group + g[1]
            out.append((mask, group))
        return [tuple(sorted(g[1])) for g in out]
    def zone(self, ms):
        """The slots the moves ``ms`` name (sorted), those they update, and a function picking the first ones."""
        if ms not in self.zones:
            z = sorted({self.index[n] for mi in ms for n in self.syn[mi]})
            self.zones[ms] = (z, sorted({int(u) for mi in ms for u, _ in self.mv[mi]["update"]}), operator.itemgetter(*z) if z else lambda y: ())
        return self.zones[ms]
    def splits(self, y):
        return len(self.groups(y, self.all, self.zone(self.all)[0])) > 1
    def value(self, y, ms=None, one=False):
        """The Grundy value of ``y`` played with the moves ``ms`` only (memo: the slots they name); ``one``: ``ms`` is one group at ``y`` (found just now)."""
        ms = self.all if ms is None else ms
        zone, _, get = self.zone(ms)
        key = (ms, get(y))
        if key not in self.memo:
            if key in self.line:
                raise Disagree(f"a move returns to {list(y)}, a position on the current line")
            self.line.add(key)
            parts = [ms] if one else self.groups(y, ms, zone)
            ok = set(parts[0]) if len(parts) == 1 else set()
            self.memo[key] = reduce(operator.xor, (self.value(y, p, True) for p in parts), 0) if len(parts) > 1 else \
                _mex(self.value(t, parts[0]) for mi, _, t in self.m.labelled(y) if mi in ok)
            self.line.discard(key)
        return self.memo[key]
class Game:
    """Values and outcomes of one arena, memoized by position (the options too: both searches use them)."""
    def __init__(self, arena, misere, split=None):
        self.arena, self.misere, self.values, self.wins, self.kids, self.split = arena, misere, {}, {}, {}, split
    def options(self, s, keep=False):         # kept for the outcome search after a value search
        if (k := self.kids.get(s)) is None:
            k = [self.arena.key(x) for x in self.arena.options(s)]
            self.kids.update({s: k} if keep else {})
        return k
    def _search(self, root, memo, done, cut=None):
        """Iterative depth-first search; ``done(kids, memo)`` gives a position's result, or True as soon as an option's result is ``cut`` (a move to a lost position wins: known ones looked at first)."""
        root = self.arena.key(root)
        stack, keep, line = [] if root in memo else [[root, self.options(root, memo is self.values), 0]], memo is self.values, {root}
        while stack:
            s, kids, i = top = stack[-1]
            if cut is not None and (any(memo.get(k, 0) is cut for k in kids) if i == 0 else memo[kids[i - 1]] is cut):
                memo[s] = True
            else:
                while i < len(kids) and kids[i] in memo and memo[kids[i]] is not cut:
                    i += 1
                if i < len(kids) and kids[i] not in memo:
                    if kids[i] in line:
                        raise Disagree(f"a move returns to {list(kids[i])}, a position on the current line")
                    top[2] = i + 1
                    if self.split and memo is self.wins and self.split.splits(kids[i]):    # a sum: by its value
                        memo[kids[i]] = self.split.value(kids[i]) != 0
                        continue
                    stack.append([kids[i], self.options(kids[i], keep), 0])
                    line.add(kids[i])
                    continue
                memo[s] = True if i < len(kids) else done(kids, memo)
            stack.pop()
            line.discard(s)
        return memo[root]
    def value(self, state):
        if self.split:
            return self.split.value(self.arena.key(state))
        if isinstance(self.arena, HeapRule) and not self.misere:   # Sprague-Grundy: xor of heaps
            return self.arena.xor(self.arena.key(state))
        return self._search(state, self.values, lambda kids, m: _mex(m[k] for k in kids) if kids else int(self.misere))
    def outcome(self, state):
        if isinstance(self.arena, HeapRule) and not self.misere:
            return "N" if self.value(state) else "P"
        if self.split and self.split.splits(k := self.arena.key(state)):
            self.wins[k] = self.split.value(k) != 0
        return "N" if self._search(state, self.wins, lambda kids, m: False if kids else self.misere, cut=False) else "P"
# ---------------------------------------------------------------- the bundle
def digest(data):
    """SHA-256 of compact JSON (keys sorted): of the listed states, or of a game's rules."""
    return hashlib.sha256(json.dumps(data, separators=(",", ":"), sort_keys=True).encode()).hexdigest()
GAME_KEYS, STRATEGY_KEYS = ("structure", "rules", "heap_rule", "nodes", "statement", "assume"), ("strategy", "exact")
def game_digest(raw):
    return digest([raw.get(k) for k in GAME_KEYS + (STRATEGY_KEYS if "strategy" in raw else ())])
def _need(d, key, what):
    _ok(not (not isinstance(d, dict) or key not in d), f"{what}: missing {key!r}", Bad)
    return d[key]
class Instance:
    """One structure of the claim: its rules, statement, assumption and positions."""
    def __init__(self, inst, misere):
        self.label = inst.get("label", "?")
        code = Code(nodes := _need(inst, "nodes", self.label))
        self.moves = m = Moves(_need(inst, "rules", self.label), code)
        hr, split = inst.get("heap_rule"), inst.get("split") and not misere and not inst.get("heap_rule")
        self.game = Game(HeapRule(hr, code) if hr else m, misere, Split(m, inst["rules"]) if split else None)
        self.statement = None if (st := inst.get("statement")) is None else m.fn(st, "statement")
        self.boolean = st is not None and nodes[st][1] == "bool"
        self.assume = m.fn(inst["assume"], "assume") if inst.get("assume") is not None else None
        self.strategy = [(m.fn(c["when"], "strategy"), c["move"], [m.fn(e, "strategy") for e in c["choices"]]) for c in inst.get("strategy") or []]
        self.exact = m.fn(inst["exact"], "exact") if inst.get("exact") is not None else None
        self.positions, self.raw = _need(inst, "positions", self.label), inst
    def holds_assume(self, state):
        return True if self.assume is None else bool(self.assume(state))
    def plays(self, state, first=True):
        """The strategy's moves at ``state`` (move, choice values): the first case that applies, or every one."""
        out = [(mi, tuple(int(f(state)) for f in fs)) for when, mi, fs in self.strategy if when(state)]
        return out[:1] if first else out
    def claimed(self, pos):
        """What the claim states at a position: an int (a value) or "P"/"N"."""
        if self.statement is None:
            return _need(pos, "claimed", "a position of a table claim")
        c = self.statement(tuple(pos["state"]))
        return ("P" if c else "N") if self.boolean else int(c)
    def truth(self, pos, claimed):
        """The recomputed value and outcome, checked against the records; (holds, actual)."""
        state = tuple(pos["state"])                  # the value first: the outcome search reuses its options
        v = self.game.value(state) if "value" in pos or claimed not in ("P", "N") else None
        o = ("N" if v else "P") if v is not None and self.game.split else _tree().outcome(self, state, Bad, Disagree) if "tree" in self.raw else self.game.outcome(state)
        v = 0 if v is None and o == "P" else v
        if (v == 0) != (o == "P"):
            raise Disagree(f"{self.label}: {list(state)} has value {v} but outcome {o}")
        for k, mine in (("value", v), ("outcome", o)):
            if k in pos and pos[k] != mine:
                raise Disagree(f"{self.label}: at {list(state)} the bundle records {k} {pos[k]!r}, recomputed {mine!r}")
        actual = o if claimed in ("P", "N") else v
        return claimed == actual, actual
def _tree():     # grundy_tree.py beside this file: proof trees folded by symmetry
    spec = importlib.util.spec_from_file_location("grundy_tree", os.path.join(os.path.dirname(os.path.abspath(__file__)), "grundy_tree.py"))
    return spec.loader.exec_module(m := importlib.util.module_from_spec(spec)) or m
def check_box(inst):
    """The positions a sweep covered: every state of the box where ``assume`` holds (or a sample)."""
    raw, listed = inst.raw, [tuple(p["state"]) for p in inst.positions]
    _ok(len(set(listed)) == len(listed), f"{inst.label}: a position is listed twice")
    _ok(raw.get("digest") == digest([list(s) for s in listed]), f"{inst.label}: the digest of the listed positions is not the recorded one")
    _ok(raw.get("game_digest") == game_digest(raw), f"{inst.label}: the digest of the rules, statement and assume is not the recorded one")
    count, box, sample = raw.get("count"), raw.get("box"), raw.get("sample")
    if box is None:
        _ok(count == len(listed), f"{inst.label}: {len(listed)} positions listed, {count} recorded")
        return f"{len(listed)} listed positions"
    size = reduce(operator.mul, map(len, box), 1)
    if size > MAX_BOX:
        return f"{len(listed)} positions of a box of {size:,} (not re-enumerated: too large)"
    covered = [s for s in itertools.product(*box) if inst.holds_assume(s)]
    _ok(len(covered) == count, f"{inst.label}: the box holds {len(covered)} positions where assume holds, not {count}")
    if sample is None:
        if set(covered) != set(listed):
            missing = sorted(set(covered) - set(listed))[:3]
            raise Disagree(f"{inst.label}: the listed positions are not the box's (missing e.g. {missing})")
        return f"{count} positions, the whole box"
    _ok(not (sample.get("k") != len(listed) or not set(listed) <= set(covered)), f"{inst.label}: the sample is not {sample.get('k')} positions of the box")
    return f"sample of {len(listed)} of {count} positions"
def check_period(b):
    """A period claim: G(0..top) of one heap recomputed; the period on the range the theorem (or the bound) needs; the theorem's range and the code's options on heaps 0..top."""
    per, inst = _need(b, "period", "bundle"), Instance(_need(b, "instances", "bundle")[0], False)
    rule = inst.game.arena
    _ok(inst.raw.get("game_digest") == game_digest(inst.raw), "the digest of the rules is not the recorded one")
    _ok(isinstance(rule, HeapRule), "a period bundle needs a heap rule", Bad)
    n0, p, s, top, end = (int(_need(per, k, "period")) for k in ("n0", "p", "s", "top", "end"))
    _ok(not (n0 < 0 or p < 1 or s < 0 or end + p - 1 > top), f"a period from n0 = {n0} with p = {p}, s = {s} checked for n < {end} on G(0..{top})", Bad)
    values = [rule.heap_value(h) for h in range(top + 1)]
    _ok(values == per.get("values"), f"the recorded values G(0..{top}) are not the recomputed {values}")
    th = per.get("theorem")
    if th is not None:
        code = _need(th, "code", "theorem")
        digits, tail, t = code["digits"], code.get("tail", 0), int(th["t"])
        _ok(not (tail or code.get("unequal") or t != len(digits) - 1), f"the theorem is applied to code {code} (t = {t}), to which it does not apply")
        need = 2 * n0 + p + t + (1 if n0 == 0 else 0) if any(d & 4 for d in digits) else max(n0, 1) + t
        if end < need or top < end - 1 + p:
            raise Disagree(f"the theorem needs G(n + p) = G(n) for {n0} <= n < {need}, the bundle checks " f"n < {end} with values up to {top}")
        for h in range(top + 1):
            _ok(sorted(set(rule.heap_options(h))) == code_options(digits, h), f"the rule's options at heap {h} are not code {code}'s")
    fails = [n for n in range(n0, end) if values[n + p] != values[n] + s]
    if b["verdict"]["verdict"] == "refuted":
        n = per.get("counterexample")
        _ok(n in fails, f"the period holds at the recorded counterexample n = {n}")
        return f"G(0..{top}) recomputed; G({n + p}) = {values[n + p]} != G({n}) + {s} = {values[n] + s}"
    if fails:
        raise Disagree(f"the period fails at n = {fails[0]}: G({fails[0] + p}) = {values[fails[0] + p]}, " f"G({fails[0]}) + {s} = {values[fails[0]] + s}")
    how = (f"by the theorem for code {th['code']['digits']} (t = {th['t']}): options equal the code's on " f"heaps 0..{top}" if th else "no theorem (a check up to the bound)")
    return f"G(0..{top}) recomputed; G(n + {p}) = G(n) + {s} for {n0} <= n < {end}; {how}"
def code_options(digits, h):
    """The options of a heap of ``h`` under a finite take-and-break code, as sorted parts."""
    out = set()
    for k, d in ((k, d) for k, d in enumerate(digits) if h - k >= 0 and (k > 0 or d & 4)):
        r = h - k
        out.update([()] if d & 1 and r == 0 and k > 0 else [], [(r,)] if d & 2 and r >= 1 and k > 0 else [])
        out.update((a, r - a) for a in range(1, r // 2 + 1) if d & 4 and r - a >= 1)
    return sorted(out)
def check(b):
    """Judge a bundle; the summary lines (Disagree or Bad on failure)."""
    _ok(not (not isinstance(b, dict) or b.get("format") != FORMAT or b.get("rules_format") != RULES_FORMAT), f"not a {FORMAT} bundle of {RULES_FORMAT} rules", Bad)
    claim, verdict = _need(b, "claim", "bundle"), _need(_need(b, "verdict", "bundle"), "verdict", "verdict")
    _ok(b.get("supported", True), f"the bundle holds nothing to check: {b.get('reason', '')}", Bad)
    misere = _need(claim, "convention", "claim") == "misere"
    lines = [f"claim {claim.get('id')} ({claim.get('kind')}, {'misere' if misere else 'normal'} play), " f"verdict {verdict}"]
    if "certificate" in b or claim.get("kind") == "period":
        _ok(not (misere and "certificate" not in b), "a period bundle in misere play (one-heap values add by xor in normal play only)", Bad)
        return lines + [check_certificate(b, misere) if "certificate" in b else check_period(b)]
    failures, covered = [], 0
    for i, raw in enumerate(_need(b, "instances", "bundle")):
        cover = check_box(inst := Instance(raw, misere))
        covered, held = covered + raw.get("count", 0), 0      # a strategy-refutation's start: claimed N and N (the line is checked after)
        for j, pos in enumerate(inst.positions):
            _ok(inst.holds_assume(pos["state"]), f"{inst.label}: assume fails at the listed {pos['state']}")
            ok, actual = inst.truth(pos, claimed := inst.claimed(pos))
            held, failures = held + ok, failures + ([] if ok else [(i, j, pos["state"], claimed, actual)])
        lines.append(f"{inst.label}: {cover}; {vars(inst).get('tree_note', 'recomputed')}; the statement holds at {held} of {len(inst.positions)}")
    if verdict in ("verified", "proved"):
        said = b["verdict"].get("positions", 0) - b["verdict"].get("random_positions", 0)
        _ok(covered == said, f"the bundle covers {covered} positions, the verdict says {said}")
        if failures:
            i, j, st, c, a = failures[0]
            raise Disagree(f"the claim fails at {st} (instance {i}): claimed {c!r}, recomputed {a!r}")
        return lines
    if verdict == "refuted":
        return lines + check_refuted(b, failures, misere)
    raise Bad(f"verdict {verdict!r} has no explicit certificate")
def check_refuted(b, failures, misere):
    """The claim fails at the recorded counterexample, as recorded; its options as recorded."""
    at = ((cex := _need(b, "counterexample", "a refuted bundle")).get("instance"), cex.get("position"))
    if "line" in cex or cex.get("exact"):
        return check_strategy(Instance(b["instances"][0], misere), cex, misere)
    hit = [f for f in failures if f[:2] == at]
    _ok(hit, f"the claim holds at the recorded counterexample {cex.get('state')}")
    _, _, st, c, a = hit[0]
    _ok(not (cex.get("claimed") != c or cex.get("actual") != a), f"the counterexample records {cex.get('claimed')!r} / {cex.get('actual')!r}, recomputed {c!r} / {a!r}")
    return [f"counterexample {st}: claimed {c!r}, recomputed {a!r}", check_followers(Instance(b["instances"][at[0]], misere), st, cex.get("followers"))]
def check_strategy(inst, cex, misere):
    """A strategy refuted: from a start claimed N it loses along the recorded line (its cases evaluated here, each reply legal), or where ``exact`` holds its moves are not exactly the winning moves."""
    x = tuple(cex["state"])
    _ok(not (not inst.strategy or not inst.holds_assume(x) or inst.claimed({"state": x}) != "N"), f"{list(x)} is not a start the strategy is claimed to win from (claimed N, assume)")
    if cex.get("exact"):
        _ok(not (inst.exact is None or not inst.exact(x)), f"the claim does not say the strategy's moves at {list(x)} are exactly the winning moves")
        mine, wins = set(inst.plays(x, first=False)), {(mi, cv) for mi, cv, t in inst.moves.labelled(x) if inst.game.outcome(t) == "P"}
        _ok(mine != wins, f"the strategy's moves at {list(x)} are exactly the winning moves")
        show = lambda ms: sorted(inst.moves.labels[mi].format(**dict(zip(inst.moves.choices[mi], cv))) for mi, cv in ms)  # noqa: E731
        return [f"at {list(x)} the strategy plays {show(mine)}, the winning moves are {show(wins)} (recomputed)"]
    line = cex["line"]
    for k, (mi, cv, to) in enumerate(line):
        _ok(not (k % 2 == 0 and inst.plays(x) != [(mi, tuple(cv))]), f"step {k + 1}: the strategy plays {inst.plays(x)} at {list(x)}, not the recorded {[mi, cv]}")
        y = inst.moves.apply(x, mi, cv)
        _ok(not (y is None or list(y) != list(to)), f"step {k + 1}: move {[mi, cv]} at {list(x)} is not legal or does not lead to {to}")
        x = y
    opts, mine = inst.moves.options(x), inst.plays(x)
    if len(line) % 2:
        why = "its move leaves the opponent without a move (misere play)" if misere and not opts else None
    else:
        why = ("it has no move" if not misere else None) if not opts else "no case applies" if not mine else None if inst.moves.apply(x, *mine[0]) is not None else f"its move {mine[0]} is not legal"
    _ok(why is not None, f"the strategy does not fail at {list(x)}, the end of the recorded line")
    return [f"from {cex['state']} (claimed N) the strategy fails after {len(line)} moves (replayed): {why}"]
def check_certificate(b, misere):
    """A refutation by a certificate on the rule alone: the statement contradicts itself at one position (no value is solved): an obligation of the partition theorem or the mex rule fails."""
    cert, inst = b["certificate"], Instance(b["instances"][0], misere)
    check_box(inst)
    s, ob = tuple(cert["state"]), cert["obligation"]
    _ok(not (b["verdict"]["verdict"] != "refuted" or not inst.holds_assume(s)), f"a certificate at {list(s)} for a {b['verdict']['verdict']} verdict, or outside assume")
    c, at = inst.claimed({"state": s}), lambda t: inst.claimed({"state": t})
    if ob in ("PN", "mex-equal"):
        t = inst.moves.apply(s, *cert["move"])
        bad = t is not None and inst.holds_assume(t) and at(t) == c and (c == "P" if ob == "PN" else isinstance(c, int))
        why = f"the move to {t}, claimed {at(t)!r} as is {list(s)}" if t else "an illegal move"
    else:
        opts, fine = inst.moves.options(s), lambda t, v: inst.holds_assume(t) and at(t) != v
        if ob == "T":
            bad = not opts and c != ((1 if misere else 0) if isinstance(c, int) else "NP"[not misere])
        elif ob == "NP":
            bad = c == "N" and opts and all(fine(t, "P") for t in opts)
        elif ob == "mex-below":
            v = cert["value"]
            bad = isinstance(c, int) and 0 <= v < c and opts and all(fine(t, v) for t in opts)
        else:
            raise Bad(f"unknown obligation {ob!r}")
        why = f"{len(opts)} options checked"
    _ok(bad, f"the certificate ({ob}) at {list(s)} does not show the claim false ({why})")
    return f"certificate {ob} at {list(s)}, claimed {c!r}: the claim contradicts itself ({why})"
def check_followers(inst, state, followers):
    """The counterexample's options, as recorded: exactly its options, each of its value recomputed."""
    if not followers:
        return "its options: recomputed by the search (none recorded)"
    game, key = inst.game, inst.game.arena.key
    _ok(sorted(map(key, game.arena.options(tuple(state)))) == sorted(key(f["state"]) for f in followers), f"the recorded options of {state} are not its options under the rules")
    for f, k in ((f, "value" if "value" in f else "outcome") for f in followers):
        _ok((game.value if k == "value" else game.outcome)(tuple(f["state"])) == f.get(k), f"the recorded {k} {f.get(k)!r} of the option {f['state']} is not recomputed")
    return f"its {len(followers)} options: the recorded ones, values recomputed"
def load(path):
    try:
        with open(os.path.join(path, "explicit.json") if os.path.isdir(path) else path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise Bad(f"cannot read {path}: {e}") from None
def main(argv):
    try:
        _ok(len(argv) == 2, "usage: grundy_check.py BUNDLE", Bad)
        return print("\n".join(check(load(argv[1]))) + "\nAGREED") or 0
    except Disagree as e:
        return print(f"DISAGREED: {e}") or 1
    except (Bad, KeyError, NameError, SyntaxError, TypeError, ValueError, IndexError, RecursionError) as e:
        return print(f"BAD BUNDLE: {e}" if isinstance(e, Bad) else f"BAD BUNDLE: {type(e).__name__}: {e}") or 2
if __name__ == "__main__":
    sys.setrecursionlimit(100_000)      # a deep expression is a chain of functions (each of depth <= 40)
    sys.exit(main(sys.argv))
