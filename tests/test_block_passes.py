"""The graph passes over a resumable procedure's blocks (dsl/blocks.py), on the blocks themselves:
jump threading, then the removal of blocks no run reaches."""
from rulekit.dsl import blocks
from rulekit.dsl.pysource import CONTINUE, Exit, Jump

RETURN = Exit("return False")


def _jump(target, frame=False):
    return (3, Jump(target, frame), None)


def _branches() -> list:
    """``if c: call() else: call()`` then a join: blocks 1 and 2 only jump on to 3."""
    return [
        [(3, "if c:", None), (4, Jump(4), None), (4, CONTINUE, None), _jump(5), (3, CONTINUE, None)],   # 0
        [_jump(3), (3, CONTINUE, None)],                         # 1: the end of the `if` branch
        [_jump(3), (3, CONTINUE, None)],                         # 2: the end of the `else` branch
        [(3, "x = 1", None), (3, RETURN, None)],                 # 3: the join
        [_jump(1, frame=True), (3, "CALL()", None), _jump(1), (3, CONTINUE, None)],     # 4
        [_jump(2, frame=True), (3, "CALL()", None), _jump(2), (3, CONTINUE, None)],     # 5
    ]


def test_threading_sends_each_jump_past_blocks_that_only_jump_on():
    threaded = blocks.threaded(_branches())
    targets = [[text.target for _i, text, _s in lines if isinstance(text, Jump)] for lines in threaded]
    assert targets[4] == [3, 3] and targets[5] == [3, 3]


def test_a_block_no_jump_reaches_is_not_written():
    kept = blocks.without_unreachable(blocks.threaded(_branches()), {0})
    assert [pc for pc, lines in enumerate(kept) if lines is None] == [1, 2]
    assert kept[3] is not None and kept[4] is not None


def test_a_block_a_decision_starts_at_is_kept():
    shape = [[(3, RETURN, None)], [(3, "chosen()", None), (3, RETURN, None)], [(3, RETURN, None)]]
    assert [lines is None for lines in blocks.without_unreachable(shape, {0, 1})] == [False, False, True]


def test_without_the_pass_every_block_is_written():
    # unthreaded, the branch ends are still jumped to: nothing is unreachable
    kept = blocks.without_unreachable(_branches(), {0})
    assert all(lines is not None for lines in kept)
