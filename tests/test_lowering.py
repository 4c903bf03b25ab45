"""Control statements are lowered once (dsl/lowering.py) to the two shapes both code writers know:
a statement's shape says everything either writer needs, and neither writer names a statement."""
from rulekit.dsl import ast, lowering
from rulekit.dsl.codegen import _Writer
from rulekit.dsl.parser import parse_script


def one(text):
    (st,) = parse_script(text)
    return lowering.lowered(st)


def test_if_elif_else_is_branches_in_order():
    shape = one("if a:\n    x = 1\nelif b:\n    x = 2\nelse:\n    x = 3\n")
    assert isinstance(shape, lowering.Branches)
    assert [test.id for test, _body in shape.tests] == ["a", "b"] and len(shape.orelse) == 1


def test_a_while_is_a_loop_on_its_test_and_while_true_has_none():
    shape = one("while n > 0:\n    n -= 1\n")
    assert isinstance(shape, lowering.Loop) and isinstance(shape.test, ast.Compare) and shape.walks is None
    forever = one("while true:\n    break\n")
    assert forever.test is None and forever.test_span.line == 1


def test_a_for_is_a_loop_over_what_it_walks():
    shape = one("for c in hand:\n    pass\n")
    assert (shape.var, shape.walks.id, shape.test, len(shape.body)) == ("c", "hand", None, 1)


def test_other_statements_have_no_shape_and_the_writers_name_no_control_statement():
    assert one("x = 1\n") is None
    assert not [name for name in dir(_Writer) if name[:2] in ("r_", "s_") and name[2:] in ("If", "While", "For")]
