"""Games of the periods example, written with the public API only."""
from grundy.spec import HeapRule, Var, option


class TakeOneToThree(HeapRule):
    """Take 1, 2 or 3 tokens from a heap: written by hand, not as a code (it is 0.333)."""

    name = "take-1-to-3"
    summary = "take 1, 2 or 3 tokens from one heap. Last mover wins."

    def options(self, g, n):
        k = Var.int("k")
        yield option("take {k} from heap {heap}", choose=[("k", 1, 3)], guard=n >= k, parts=lambda k: [n - k])


TAKE_1_TO_3 = TakeOneToThree()
