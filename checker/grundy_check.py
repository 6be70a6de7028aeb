#!/usr/bin/env python3
"""grundy_check: re-check an explicit certificate of grundy without grundy (docs/certificates.md).
Usage: python3 grundy_check.py BUNDLE (a bundle directory, or its explicit.json). Standard library
only, no code shared with grundy: its own interpreter of the exported rules regenerates every
position's options, recomputes Grundy values bottom-up (the mex of the options' values; misere: 1
at a terminal position) and outcomes (a separate win/lose search), re-enumerates a sweep's box,
evaluates the statement at every listed position, compares every recorded value and judges the
verdict. Exit status: 0 agreed, 1 disagreed, 2 bad bundle."""
import hashlib
import itertools
import json
import operator
import os
import sys
import threading
from functools import reduce

FORMAT = "grundy-explicit/1"
RULES_FORMAT = "grundy-rules/1"
MAX_BOX = 5_000_000          # boxes larger than this are not re-enumerated (said in the summary)

class Bad(Exception):
    """The bundle is malformed (exit 2)."""

class Disagree(Exception):
    """The bundle's rules or records contradict the claim's verdict (exit 1)."""

# ---------------------------------------------------------------- the rule language
_POW2 = {}

def _nim_pow2(i, j, memo=_POW2):
    """2^i (x) 2^j, the nim product of two powers of two. 2^i is the ordinary product of the
    Fermat 2-powers F = 2^(2^b) for the bits b of i; distinct Fermat powers multiply ordinarily,
    and F (x) F = F xor F/2. So with k = 2^b the lowest bit i and j share, F = 2^k:
    2^i (x) 2^j = (F xor F/2) (x) rest, rest = 2^(i-k) (x) 2^(j-k)."""
    if (i, j) not in memo:
        k = i & j & -(i & j)
        if k == 0:
            memo[i, j] = 1 << (i | j)
        else:
            rest = _nim_pow2(i ^ k, j ^ k)
            memo[i, j] = nim_mul(rest, 1 << k) ^ nim_mul(rest, 1 << (k - 1))
    return memo[i, j]

def nim_mul(a, b):
    """The nim product: bilinear over xor, from the products of powers of two."""
    if a < 0 or b < 0:
        raise Disagree(f"nim_product of a negative number ({a}, {b})")
    out = 0
    for i in (i for i in range(a.bit_length()) if a >> i & 1):
        for j in (j for j in range(b.bit_length()) if b >> j & 1):
            out ^= _nim_pow2(i, j)
    return out

def _mex(values):
    seen, m = set(values), 0
    while m in seen:
        m += 1
    return m

BINARY = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "nmul": lambda a, b: a * b, "div": lambda a, b: a // b, "mod": lambda a, b: a % b,
    "xor": lambda a, b: a ^ b, "bit_and": lambda a, b: a & b, "bit_or": lambda a, b: a | b,
    "nim_product": nim_mul, "lt": lambda a, b: a < b, "le": lambda a, b: a <= b, "eq": lambda a, b: a == b}
VARIADIC = {"and": lambda vs: all(vs), "or": lambda vs: any(vs), "min": min, "max": max}

def compile_nodes(nodes):
    """One function env -> value per node (operands are earlier nodes; ``and``, ``or`` and
    ``ite`` evaluate only the operands they need)."""
    fns = []
    for i, row in enumerate(nodes):
        if not isinstance(row, list) or len(row) < 3 or row[1] not in ("int", "bool"):
            raise Bad(f"node {i}: {row!r} is not [op, sort, operands...]")
        op, sort, args = row[0], row[1], row[2:]
        if op == "const":
            v = args[0]
            if isinstance(v, bool) != (sort == "bool") or not isinstance(v, int):
                raise Bad(f"node {i}: constant {v!r} is not a {sort}")
            fns.append(lambda env, v=v: v)
            continue
        if op == "var":
            fns.append(lambda env, n=args[0]: env[n])        # KeyError: a variable without a value
            continue
        if not all(isinstance(a, int) and 0 <= a < i for a in args):
            raise Bad(f"node {i}: operands {args!r} must be indices of earlier nodes")
        if op in ("div", "mod") and not (nodes[args[1]][0] == "const" and nodes[args[1]][2] > 0):
            raise Bad(f"node {i}: {op} by something other than a positive constant")
        fs = [fns[a] for a in args]
        if op in BINARY and len(fs) == 2:
            fns.append(lambda env, fn=BINARY[op], f=fs[0], g=fs[1]: fn(f(env), g(env)))
        elif op == "popcount" and len(fs) == 1:
            fns.append(lambda env, f=fs[0]: bin(abs(f(env))).count("1"))
        elif op == "not" and len(fs) == 1:
            fns.append(lambda env, f=fs[0]: not f(env))
        elif op in VARIADIC and fs:
            fns.append(lambda env, fn=VARIADIC[op], fs=fs: fn(f(env) for f in fs))
        elif op == "ite" and len(fs) == 3:
            fns.append(lambda env, c=fs[0], a=fs[1], b=fs[2]: a(env) if c(env) else b(env))
        else:
            raise Bad(f"node {i}: unknown operator {op!r} with {len(fs)} operands")
    return fns

def _fn(fns, index, what):
    if not isinstance(index, int) or not 0 <= index < len(fns):
        raise Bad(f"{what}: {index!r} is not a node index")
    return fns[index]

def _choices(fns, rows, what):
    return [(c["var"], _fn(fns, c["lo"], what), _fn(fns, c["hi"], what)) for c in rows]

def _enumerate(choices, env, k=0):
    """Every binding of the numeric choices (each between its bounds, in order) into ``env``."""
    if k == len(choices):
        yield env
        return
    name, lo, hi = choices[k]
    for v in range(lo(env), hi(env) + 1):
        env[name] = v
        yield from _enumerate(choices, env, k + 1)
    env.pop(name, None)

class Moves:
    """The guarded commands on one structure: a state is the tuple of its slots."""
    def __init__(self, rules, fns):
        self.names, self.domains = [s["name"] for s in rules["slots"]], [tuple(s["domain"]) for s in rules["slots"]]
        self.moves = []
        for m in rules["moves"]:
            w = f"move {m.get('label')!r}"
            fits = _fn(fns, m["fits"], w) if "fits" in m else None
            upd = [(int(slot), _fn(fns, e, w)) for slot, e in m["update"]]
            self.moves.append((m["label"], _choices(fns, m["choices"], w), _fn(fns, m["guard"], w), upd, fits))
    def env(self, state):
        if len(state) != len(self.names):
            raise Bad(f"state {state} has {len(state)} slots, the rules {len(self.names)}")
        return dict(zip(self.names, state))
    key = staticmethod(tuple)
    def options(self, state):
        env0 = self.env(state)        # one binding of the slots: each move's choices are popped after it
        return [self._next(m, state, env) for m in self.moves for env in _enumerate(m[1], env0) if m[2](env)]
    def _next(self, move, state, env):
        label, _, _, upd, fits = move
        if fits is not None and not fits(env):
            raise Disagree(f"move {label!r} at {list(state)} does not fit the structure")
        nxt = list(state)
        for slot, f in upd:
            nxt[slot] = v = int(f(env))
            lo, hi = self.domains[slot]
            if v < lo or (hi is not None and v > hi):
                raise Disagree(f"move {label!r} at {list(state)} sets {self.names[slot]} to {v}, outside its domain")
        return tuple(nxt)
    def apply(self, state, mi, values):
        """The state after move ``mi`` with the choice values ``values`` (None: not legal there)."""
        move, env = self.moves[mi], self.env(state)
        for (name, lo, hi), v in zip(move[1], values, strict=True):
            if not lo(env) <= v <= hi(env):
                return None
            env[name] = v
        return self._next(move, state, env) if move[2](env) else None

class HeapRule:
    """A rule on one heap: a position is a multiset of heaps; a move plays one option in one heap
    (its parts replace the heap; a part of 0 is no heap)."""
    def __init__(self, rule, fns):
        self.var, self.single = rule["var"], {}
        self.opts = [(o["label"], _choices(fns, o["choices"], "option"), _fn(fns, o["guard"], "option"),
                      [_fn(fns, p, "option") for p in o["parts"]]) for o in rule["options"]]
    def key(self, state):
        return tuple(sorted(h for h in state if h))
    def heap_options(self, h):
        """The parts each option of a heap of ``h`` leaves (sorted, without 0s)."""
        out = []
        for label, choices, guard, parts in self.opts:
            for env in _enumerate(choices, {self.var: h}):
                if guard(env):
                    ps = [int(p(env)) for p in parts]
                    if min(ps, default=0) < 0 or sum(ps) > h or sorted(ps)[-1:] == [h]:
                        raise Disagree(f"option {label!r} of a heap of {h} leaves {ps}")
                    out.append(tuple(sorted(p for p in ps if p)))
        return out
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

class Game:
    """Values and outcomes of one arena, memoized by position."""
    def __init__(self, arena, misere):
        self.arena, self.misere, self.values, self.wins = arena, misere, {}, {}
    def _search(self, root, memo, done, cut=None):
        """Iterative depth-first search; ``done(kids, memo)`` gives a position's result, or True
        as soon as an option's result is ``cut`` (a move to a lost position wins)."""
        arena, root = self.arena, self.arena.key(root)
        stack, line = ([(root, [arena.key(k) for k in arena.options(root)])], {root}) if root not in memo else ([], ())
        while stack:
            s, kids = stack[-1]
            for k in kids:
                if k not in memo:
                    if k in line:
                        raise Disagree(f"a move returns to {list(k)}, a position on the current line")
                    stack.append((k, [arena.key(x) for x in arena.options(k)]))
                    line.add(k)
                    break
                if memo[k] is cut:
                    memo[s] = True
                    stack.pop()
                    line.discard(s)
                    break
            else:
                memo[s] = done(kids, memo)
                stack.pop()
                line.discard(s)
        return memo[root]
    def value(self, state):
        if isinstance(self.arena, HeapRule) and not self.misere:   # Sprague-Grundy: xor of heaps
            return self.arena.xor(self.arena.key(state))
        return self._search(state, self.values,
                            lambda kids, m: _mex(m[k] for k in kids) if kids else int(self.misere))
    def outcome(self, state):
        if isinstance(self.arena, HeapRule) and not self.misere:
            return "N" if self.value(state) else "P"
        w = self._search(state, self.wins, lambda kids, m: False if kids else self.misere, cut=False)
        return "N" if w else "P"

# ---------------------------------------------------------------- the bundle
def digest(data):
    """SHA-256 of compact JSON (keys sorted): of the listed states, or of a game's rules."""
    return hashlib.sha256(json.dumps(data, separators=(",", ":"), sort_keys=True).encode()).hexdigest()

GAME_KEYS = ("structure", "rules", "heap_rule", "nodes", "statement", "assume")

def _need(d, key, what):
    if not isinstance(d, dict) or key not in d:
        raise Bad(f"{what}: missing {key!r}")
    return d[key]

class Instance:
    """One structure of the claim: its rules, statement, assumption and positions."""
    def __init__(self, inst, misere):
        self.label = inst.get("label", "?")
        fns = compile_nodes(nodes := _need(inst, "nodes", self.label))
        self.moves = Moves(_need(inst, "rules", self.label), fns)
        hr = inst.get("heap_rule")
        self.game = Game(HeapRule(hr, fns) if hr else self.moves, misere)
        st = inst.get("statement")
        self.statement = None if st is None else _fn(fns, st, "statement")
        self.boolean = st is not None and nodes[st][1] == "bool"
        self.assume = _fn(fns, inst["assume"], "assume") if inst.get("assume") is not None else None
        self.positions, self.raw = _need(inst, "positions", self.label), inst
    def holds_assume(self, state):
        return True if self.assume is None else bool(self.assume(self.moves.env(state)))
    def claimed(self, pos):
        """What the claim states at a position: an int (a value) or "P"/"N"."""
        if self.statement is None:
            return _need(pos, "claimed", "a position of a table claim")
        c = self.statement(self.moves.env(pos["state"]))
        return ("P" if c else "N") if self.boolean else int(c)
    def truth(self, pos, claimed):
        """The recomputed value and outcome, checked against the records; (holds, actual)."""
        state = tuple(pos["state"])
        o = self.game.outcome(state)
        v = self.game.value(state) if "value" in pos or claimed not in ("P", "N") else 0 if o == "P" else None
        if (v == 0) != (o == "P"):
            raise Disagree(f"{self.label}: {list(state)} has value {v} but outcome {o}")
        for k, mine in (("value", v), ("outcome", o)):
            if k in pos and pos[k] != mine:
                raise Disagree(f"{self.label}: at {list(state)} the bundle records {k} {pos[k]!r}, recomputed {mine!r}")
        actual = o if claimed in ("P", "N") else v
        return claimed == actual, actual

def check_box(inst):
    """The positions a sweep covered: every state of the box where ``assume`` holds (or a sample
    of them). Returns a line for the summary."""
    raw, listed = inst.raw, [tuple(p["state"]) for p in inst.positions]
    if len(set(listed)) != len(listed):
        raise Disagree(f"{inst.label}: a position is listed twice")
    if raw.get("digest") != digest([list(s) for s in listed]):
        raise Disagree(f"{inst.label}: the digest of the listed positions is not the recorded one")
    if raw.get("game_digest") != digest([raw.get(k) for k in GAME_KEYS]):
        raise Disagree(f"{inst.label}: the digest of the rules, statement and assume is not the recorded one")
    count, box, sample = raw.get("count"), raw.get("box"), raw.get("sample")
    if box is None:
        if count != len(listed):
            raise Disagree(f"{inst.label}: {len(listed)} positions listed, {count} recorded")
        return f"{len(listed)} listed positions"
    size = reduce(operator.mul, map(len, box), 1)
    if size > MAX_BOX:
        return f"{len(listed)} positions of a box of {size:,} (not re-enumerated: too large)"
    covered = [s for s in itertools.product(*box) if inst.holds_assume(s)]
    if len(covered) != count:
        raise Disagree(f"{inst.label}: the box holds {len(covered)} positions where assume holds, "
                       f"the bundle says {count}")
    if sample is None:
        if set(covered) != set(listed):
            missing = sorted(set(covered) - set(listed))[:3]
            raise Disagree(f"{inst.label}: the listed positions are not the box's (missing e.g. {missing})")
        return f"{count} positions, the whole box"
    if sample.get("k") != len(listed) or not set(listed) <= set(covered):
        raise Disagree(f"{inst.label}: the sample is not {sample.get('k')} positions of the box")
    return f"sample of {len(listed)} of {count} positions"

def check_period(b):
    """A period claim: G(0..top) of one heap recomputed; the period on the range the theorem
    (or the bound) needs; the theorem's range and the code's options on heaps 0..top."""
    per = _need(b, "period", "bundle")
    inst = Instance(_need(b, "instances", "bundle")[0], False)
    rule = inst.game.arena
    if inst.raw.get("game_digest") != digest([inst.raw.get(k) for k in GAME_KEYS]):
        raise Disagree("the digest of the rules is not the recorded one")
    if not isinstance(rule, HeapRule):
        raise Bad("a period bundle needs a heap rule")
    n0, p, s, top, end = (int(_need(per, k, "period")) for k in ("n0", "p", "s", "top", "end"))
    if n0 < 0 or p < 1 or s < 0 or end + p - 1 > top:
        raise Bad(f"a period from n0 = {n0} with p = {p}, s = {s} checked for n < {end} on G(0..{top})")
    values = [rule.heap_value(h) for h in range(top + 1)]
    if values != per.get("values"):
        raise Disagree(f"the recorded values G(0..{top}) are not the recomputed {values}")
    th = per.get("theorem")
    if th is not None:
        code = _need(th, "code", "theorem")
        digits, tail, t = code["digits"], code.get("tail", 0), int(th["t"])
        if tail or code.get("unequal") or t != len(digits) - 1:
            raise Disagree(f"the theorem is applied to code {code} (t = {t}), to which it does not apply")
        breaks = any(d & 4 for d in digits)
        need = 2 * n0 + p + t + (1 if n0 == 0 else 0) if breaks else max(n0, 1) + t
        if end < need or top < end - 1 + p:
            raise Disagree(f"the theorem needs G(n + p) = G(n) for {n0} <= n < {need}, the bundle checks "
                           f"n < {end} with values up to {top}")
        for h in range(top + 1):
            if sorted(set(rule.heap_options(h))) != code_options(digits, h):
                raise Disagree(f"the rule's options at heap {h} are not code {code}'s")
    fails = [n for n in range(n0, end) if values[n + p] != values[n] + s]
    if b["verdict"]["verdict"] == "refuted":
        n = per.get("counterexample")
        if n not in fails:
            raise Disagree(f"the period holds at the recorded counterexample n = {n}")
        return f"G(0..{top}) recomputed; G({n + p}) = {values[n + p]} != G({n}) + {s} = {values[n] + s}"
    if fails:
        raise Disagree(f"the period fails at n = {fails[0]}: G({fails[0] + p}) = {values[fails[0] + p]}, "
                       f"G({fails[0]}) + {s} = {values[fails[0]] + s}")
    how = (f"by the theorem for code {th['code']['digits']} (t = {th['t']}): options equal the code's on "
           f"heaps 0..{top}" if th else "no theorem (a check up to the bound)")
    return f"G(0..{top}) recomputed; G(n + {p}) = G(n) + {s} for {n0} <= n < {end}; {how}"

def code_options(digits, h):
    """The options of a heap of ``h`` under a finite take-and-break code, as sorted parts."""
    out = set()
    for k, d in enumerate(digits):
        r = h - k
        if r < 0 or (k == 0 and not d & 4):
            continue
        if d & 1 and r == 0 and k > 0:
            out.add(())
        if d & 2 and r >= 1 and k > 0:
            out.add((r,))
        if d & 4:
            out.update((a, r - a) for a in range(1, r // 2 + 1) if r - a >= 1)
    return sorted(out)

def check(b):
    """Judge a bundle; the summary lines (Disagree or Bad on failure)."""
    if not isinstance(b, dict) or b.get("format") != FORMAT or b.get("rules_format") != RULES_FORMAT:
        raise Bad(f"not a {FORMAT} bundle of {RULES_FORMAT} rules")
    claim, verdict = _need(b, "claim", "bundle"), _need(_need(b, "verdict", "bundle"), "verdict", "verdict")
    if not b.get("supported", True):
        raise Bad(f"the bundle holds nothing to check: {b.get('reason', '')}")
    misere = _need(claim, "convention", "claim") == "misere"
    lines = [f"claim {claim.get('id')} ({claim.get('kind')}, {'misere' if misere else 'normal'} play), "
             f"verdict {verdict}"]
    if "certificate" in b:
        lines.append(check_certificate(b, misere))
        return lines
    if claim.get("kind") == "period":
        if misere:
            raise Bad("a period bundle in misere play (one-heap values add by xor in normal play only)")
        lines.append(check_period(b))
        return lines
    failures, covered = [], 0
    for i, raw in enumerate(_need(b, "instances", "bundle")):
        inst = Instance(raw, misere)
        cover = check_box(inst)
        covered += raw.get("count", 0)
        held = 0
        for j, pos in enumerate(inst.positions):
            if not inst.holds_assume(pos["state"]):
                raise Disagree(f"{inst.label}: assume fails at the listed {pos['state']}")
            claimed = inst.claimed(pos)
            ok, actual = inst.truth(pos, claimed)
            held += ok
            if not ok:
                failures.append((i, j, pos["state"], claimed, actual))
        lines.append(f"{inst.label}: {cover}; recomputed; the statement holds at {held} of "
                     f"{len(inst.positions)}")
    if verdict in ("verified", "proved"):
        said = b["verdict"].get("positions", 0) - b["verdict"].get("random_positions", 0)
        if covered != said:
            raise Disagree(f"the bundle covers {covered} positions, the verdict says {said}")
        if failures:
            i, j, st, c, a = failures[0]
            raise Disagree(f"the claim fails at {st} (instance {i}): claimed {c!r}, recomputed {a!r}")
        return lines
    if verdict == "refuted":
        return lines + check_refuted(b, failures, misere)
    raise Bad(f"verdict {verdict!r} has no explicit certificate")

def check_refuted(b, failures, misere):
    """The claim fails at the recorded counterexample, as recorded; its options as recorded."""
    cex = _need(b, "counterexample", "a refuted bundle")
    at = (cex.get("instance"), cex.get("position"))
    hit = [f for f in failures if f[:2] == at]
    if not hit:
        raise Disagree(f"the claim holds at the recorded counterexample {cex.get('state')}")
    _, _, st, c, a = hit[0]
    if cex.get("claimed") != c or cex.get("actual") != a:
        raise Disagree(f"the counterexample records claimed {cex.get('claimed')!r} / actual "
                       f"{cex.get('actual')!r}, recomputed {c!r} / {a!r}")
    return [f"counterexample {st}: claimed {c!r}, recomputed {a!r}",
            check_followers(Instance(b["instances"][at[0]], misere), st, cex.get("followers"))]

def check_certificate(b, misere):
    """A refutation by a certificate on the rule alone: the statement contradicts itself at one
    position (no value is solved). The obligations of the partition theorem / the mex rule."""
    cert, inst = b["certificate"], Instance(b["instances"][0], misere)
    check_box(inst)
    s, ob = tuple(cert["state"]), cert["obligation"]
    if b["verdict"]["verdict"] != "refuted" or not inst.holds_assume(s):
        raise Disagree(f"a certificate at {list(s)} for a {b['verdict']['verdict']} verdict, or outside assume")
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
    if not bad:
        raise Disagree(f"the certificate ({ob}) at {list(s)} does not show the claim false ({why})")
    return f"certificate {ob} at {list(s)}, claimed {c!r}: the claim contradicts itself ({why})"

def check_followers(inst, state, followers):
    """The counterexample's options, as recorded: exactly its options, each of the value
    recomputed (the mex of their values is its value)."""
    if not followers:
        return "its options: recomputed by the search (none recorded)"
    game, key = inst.game, inst.game.arena.key
    if sorted(map(key, game.arena.options(tuple(state)))) != sorted(key(f["state"]) for f in followers):
        raise Disagree(f"the recorded options of {state} are not its options under the rules")
    for f in followers:
        k = "value" if "value" in f else "outcome"
        if (game.value if k == "value" else game.outcome)(tuple(f["state"])) != f.get(k):
            raise Disagree(f"the recorded {k} {f.get(k)!r} of the option {f['state']} is not recomputed")
    return f"its {len(followers)} options: the recorded ones, values recomputed"

def load(path):
    if os.path.isdir(path):
        path = os.path.join(path, "explicit.json")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise Bad(f"cannot read {path}: {e}") from None

def main(argv):
    if len(argv) != 2:
        print("usage: grundy_check.py BUNDLE", file=sys.stderr)
        return 2
    try:
        print("\n".join(check(load(argv[1]))) + "\nAGREED")
        return 0
    except Disagree as e:
        print(f"DISAGREED: {e}")
        return 1
    except (Bad, KeyError, TypeError, ValueError, IndexError, RecursionError) as e:
        print(f"BAD BUNDLE: {e}" if isinstance(e, Bad) else f"BAD BUNDLE: {type(e).__name__}: {e}")
        return 2

if __name__ == "__main__":
    sys.setrecursionlimit(200_000)
    threading.stack_size(512 * 1024 * 1024)       # deep expressions are evaluated recursively
    result = []
    t = threading.Thread(target=lambda: result.append(main(sys.argv)))
    t.start()
    t.join()
    sys.exit(result[0] if result else 2)
