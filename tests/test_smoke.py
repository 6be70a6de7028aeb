import grundy


def test_nim_sum_zero_is_p():
    assert grundy.solve({"game": "nim", "heaps": [1, 2, 3]}) == {"grundy": 0, "outcome": "P"}
