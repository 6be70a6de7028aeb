"""grundy_tree: the stand-alone checker's part for proof trees folded by symmetry (docs/certificates.md,
"Proof trees"). Standard library only, no grundy; used by grundy_check.py for an instance with a ``tree``.

A tree proves the outcomes of the listed positions from the exported rules. Its entries (a state, "P" or
"N", and a body) come children first; a reference is [move index, choice values, permutation, entry]. An
N-entry's body is one reference (a winning move; in misere play, null at a position without options); a
P-entry's is one reference for every option. For each entry the checker regenerates the options from the
rules, takes the option the reference names, applies the permutation to it itself and requires the
referenced entry's state, an earlier entry of the other outcome (so, by induction over the entries, every
outcome is right, in finitely many moves). Each permutation used must be an automorphism of the exported
rules, which the checker shows by itself, syntactically: it renames the slots (and maps the constants
compared with, or assigned to, a vertex-valued slot), and the renamed moves must be the moves, as a set.
A vertex-valued slot used any other way is refused (exit 2: the checker cannot check it), as is anything
it does not understand. Slots keep their kind and domain; a vertex-valued slot's values are mapped by the
permutation's ``values`` (a bijection of the slots' common domain), every other slot's values are kept.

    check_tree(tree, rules, nodes, labelled, misere, Bad, Disagree) -> {state: outcome} of the roots
"""

__all__ = ["check_tree", "outcome"]


class _Syntax:
    """The moves of the exported rules as terms (nested tuples), renamed by a permutation."""

    def __init__(self, rules, nodes, bad):
        self.nodes, self.moves, self.bad = nodes, rules["moves"], bad
        self.slots = rules["slots"]
        self.index = {s["name"]: i for i, s in enumerate(self.slots)}
        self.vertex = [s["kind"] == "vertex" for s in self.slots]
        self.ok(len(self.index) == len(self.slots), "two slots of one name")
        doms = {tuple(s["domain"]) for s in self.slots if s["kind"] == "vertex"}
        self.ok(len(doms) <= 1, "vertex-valued slots of different domains")
        self.domain = doms.pop() if doms else (0, -1)
        self.ok(self.domain[1] is not None, "a vertex-valued slot without a greatest value")
        for m in self.moves:
            names = [c["var"] for c in m["choices"]]
            self.ok(not set(names) & set(self.index), f"a choice named as a slot in {m.get('label')!r}")
            slots = [int(u) for u, _ in m["update"]]
            self.ok(len(set(slots)) == len(slots), f"a slot updated twice by {m.get('label')!r}")
        self.original = self.rename(list(range(len(self.slots))), lambda v: v)

    def ok(self, cond, why):
        if not cond:
            raise self.bad(f"proof tree: {why}")

    def slot(self, n):
        """The slot a node names (a ``var`` of a slot), or None."""
        row = self.nodes[n]
        return self.index.get(row[2]) if row[0] == "var" else None

    def vconst(self, n, sigma):
        row = self.nodes[n]
        self.ok(row[0] == "const" and row[1] == "int" and type(row[2]) is int
                and self.domain[0] <= row[2] <= self.domain[1], f"node {n}: not a vertex constant "
                "beside a vertex-valued slot")
        return ("const", "int", sigma(row[2]))

    def term(self, n, perm, sigma, memo):
        if n in memo:
            return memo[n]
        row = self.nodes[n]
        op, sort, args = row[0], row[1], row[2:]
        if op == "const":
            out = (op, sort, args[0])
        elif op == "var":
            i = self.slot(n)
            self.ok(i is None or not self.vertex[i], f"node {n}: the vertex-valued slot {args[0]!r} used "
                    "other than compared (==, !=) with a constant")
            out = ("var", sort, args[0] if i is None else self.slots[perm[i]]["name"])
        elif op == "eq" and any(self.slot(a) is not None and self.vertex[self.slot(a)] for a in args):
            pair = []
            for a, b in (args, args[::-1]):
                i = self.slot(a)
                pair.append(("var", "int", self.slots[perm[i]]["name"]) if i is not None and self.vertex[i]
                            else self.vconst(a, sigma))
                if i is not None and self.vertex[i] and self.slot(b) is not None:
                    self.ok(False, f"node {n}: a vertex-valued slot compared with a slot")
            out = ("eq", sort, tuple(pair))
        else:
            out = (op, sort, tuple(self.term(a, perm, sigma, memo) for a in args))
        memo[n] = out
        return out

    def rename(self, perm, sigma):
        """The moves renamed by the slot permutation ``perm`` and the vertex map ``sigma``, as a set."""
        memo, out = {}, set()
        t = lambda n: self.term(n, perm, sigma, memo)  # noqa: E731
        for m in self.moves:
            ch = tuple((c["var"], t(c["lo"]), t(c["hi"])) for c in m["choices"])
            upd = frozenset((perm[int(u)], self.vconst(e, sigma) if self.vertex[int(u)] else t(e))
                            for u, e in m["update"])
            out.add((ch, t(m["guard"]), t(m["fits"]) if "fits" in m else None, upd))
        return out


class _Perm:
    """One permutation of the tree: slot i goes to slot ``slots[i]``, a vertex value v to ``values[v - lo]``."""

    def __init__(self, raw, syn, lo):
        n, (dlo, dhi), ok = len(syn.slots), syn.domain, syn.ok
        ok(isinstance(raw, dict) and sorted(raw.get("slots", ())) == list(range(n)), "a permutation of the slots"
           " is not one")
        self.slots, self.values, self.lo, self.vertex = raw["slots"], raw.get("values"), lo, syn.vertex
        ok(isinstance(self.values, list) and lo == dlo and sorted(self.values) == list(range(dlo, dhi + 1)),
           "a permutation's vertex map is not a bijection of the vertex slots' domain")
        for i, j in enumerate(self.slots):
            a, b = syn.slots[i], syn.slots[j]
            ok(a["kind"] == b["kind"] and a["domain"] == b["domain"], f"slot {i} goes to slot {j} of another "
               "kind or domain")
        self.syn, self.checked = syn, False

    def sigma(self, v):
        self.syn.ok(type(v) is int and 0 <= v - self.lo < len(self.values), f"vertex value {v!r} outside the domain")
        return self.values[v - self.lo]

    def check(self, disagree):
        """That the permutation is an automorphism of the rules (once)."""
        if not self.checked:
            if self.syn.rename(self.slots, self.sigma) != self.syn.original:
                raise disagree("proof tree: a permutation used is not an automorphism of the rules (the renamed "
                               "moves are not the moves)")
            self.checked = True

    def __call__(self, state):
        out = [0] * len(state)
        for i, v in enumerate(state):
            out[self.slots[i]] = self.sigma(v) if self.vertex[i] else v
        return tuple(out)


def check_tree(tree, rules, nodes, labelled, misere, bad, disagree):
    """Verify ``tree`` against the rules; the proved outcomes of its roots, by state."""
    syn = _Syntax(rules, nodes, bad)
    ok = syn.ok
    ok(isinstance(tree, dict) and all(isinstance(tree.get(k), list) for k in ("perms", "entries", "roots")),
       "missing perms, entries or roots")
    perms = [_Perm(p, syn, tree.get("values_from", 0)) for p in tree["perms"]]
    entries = tree["entries"]
    for e, entry in enumerate(entries):
        ok(isinstance(entry, list) and len(entry) == 3 and entry[1] in ("P", "N"), f"entry {e} is not [state, P|N, body]")
        state, out, body = tuple(entry[0]), entry[1], entry[2]
        ok(len(state) == len(syn.slots) and all(type(v) is int for v in state), f"entry {e}: not a state")
        opts = {}
        for mi, cv, t in labelled(state):
            opts.setdefault((mi, tuple(cv)), t)
        if out == "N" and body is None:
            if opts or not misere:
                raise disagree(f"proof tree: entry {e} {list(state)} is N without a winning move")
            continue
        refs = [body] if out == "N" else body
        ok(isinstance(refs, list), f"entry {e}: the body is not a list")
        for r in refs:
            ok(isinstance(r, list) and len(r) == 4 and type(r[0]) is int and isinstance(r[1], list)
               and type(r[2]) is int and 0 <= r[2] < len(perms) and type(r[3]) is int and 0 <= r[3] < e,
               f"entry {e}: a reference {r!r} is not [move, choices, permutation, earlier entry]")
        if out == "P":
            got = [(r[0], tuple(r[1])) for r in refs]
            if sorted(got) != sorted(opts) or len(set(got)) != len(got):
                raise disagree(f"proof tree: the P-entry {e} {list(state)} does not answer every option once "
                               f"({len(got)} answered, {len(opts)} regenerated)")
            if not opts and misere:
                raise disagree(f"proof tree: entry {e} {list(state)} has no move: N in misere play, not P")
        for r in refs:
            mi, cv, p, j = r[0], tuple(r[1]), perms[r[2]], r[3]
            if (mi, cv) not in opts:
                raise disagree(f"proof tree: move {[mi, list(cv)]} is not legal at {list(state)} (entry {e})")
            if entries[j][1] == out:
                raise disagree(f"proof tree: entry {e} ({out}) refers to entry {j}, also {out}")
            p.check(disagree)
            if p(opts[mi, cv]) != tuple(entries[j][0]):
                raise disagree(f"proof tree: the permutation {r[2]} does not map the option {list(opts[mi, cv])} "
                               f"of entry {e} onto entry {j}")
    ok(all(type(r) is int and 0 <= r < len(entries) for r in tree["roots"]), "a root is not an entry")
    return {tuple(entries[r][0]): entries[r][1] for r in tree["roots"]}


def outcome(inst, state, bad, disagree):
    """The outcome of a listed position of ``inst`` (grundy_check's Instance) that its tree proves (verified
    once per instance)."""
    if "_tree_roots" not in vars(inst):
        raw = inst.raw
        inst._tree_roots = check_tree(raw["tree"], raw["rules"], raw["nodes"], inst.moves.labelled,
                                      inst.game.misere, bad, disagree)
        t = raw["tree"]
        inst.tree_note = (f"outcome proved by a proof tree of {len(t['entries'])} entries folded by "
                          f"{len(t['perms'])} automorphisms of the rules (each one verified)")
    if state not in inst._tree_roots:
        raise bad(f"{inst.label}: {list(state)} is listed but not a root of the proof tree")
    return inst._tree_roots[state]
