"""What the compiler finds out of content before writing code (dsl/analysis.py, dsl/kinds.py):
facts of the content alone, asked by the passes, each checked here on a few inline functions."""
from rulekit.dsl import analysis
from rulekit.dsl.compiler import Vocabulary
from rulekit.dsl.kinds import Kinds
from rulekit.dsl.parser import parse_expr, parse_script
from rulekit.dsl.scope import Scope
from rulekit.engine.state import ZoneKey


def vocab(functions: dict, **more) -> Vocabulary:
    """A vocabulary of content functions, name -> (params, expression text)."""
    v = Vocabulary(**more)
    v.functions = {name: (tuple(params), parse_expr(text)) for name, (params, text) in functions.items()}
    return v


def inlined(functions: dict, remembered=()) -> set:
    return set(analysis.inlining(vocab(functions), remembered).inline)


def test_a_body_with_no_loop_is_written_in_place_and_one_with_a_loop_is_called():
    assert inlined({"double": (["x"], "x * 2"), "total": (["xs"], "sum(x for x in xs)")}) == {"double"}


def test_a_body_past_the_size_limit_is_called():
    long = " + ".join(["x"] * 30)
    assert analysis.size(parse_expr(long)) > analysis.INLINE_SIZE
    assert inlined({"long": (["x"], long)}) == set()


def test_a_cheap_callee_is_written_in_with_its_caller_and_its_size_counts():
    """`quad` asks `double`, written in with it; `big` asks a callee of 25 nodes, and the two
    together pass the limit, so `big` stays a call while the callee is written in place."""
    found = analysis.inlining(vocab({"double": (["x"], "x * 2"), "quad": (["x"], "double(double(x))")}), ())
    assert found.inline == {"double", "quad"} and found.written["quad"] == {"double"}
    middle = " + ".join(["x"] * 13)     # 25 nodes
    functions = {"mid": (["x"], middle), "big": (["x"], f"mid(x) + {middle}")}
    assert analysis.size(parse_expr(middle)) == 25
    assert inlined(functions) == {"mid"}


def test_functions_that_can_call_themselves_are_never_written_in_place_in_any_order():
    circle = {"ping": (["x"], "0 if x <= 0 else pong(x - 1)"), "pong": (["x"], "ping(x)"),
              "self": (["x"], "0 if x <= 0 else self(x - 1)"), "leaf": (["x"], "pong(x) + 1")}
    assert inlined(circle) == {"leaf"}      # a circle's function is still a cheap call for `leaf`
    assert inlined(dict(reversed(list(circle.items())))) == {"leaf"}


def test_a_remembered_function_that_builds_a_text_is_called_not_written_in_place():
    tag = {"tag": (["p"], "'seat-' + text(p)")}
    assert inlined(tag) == {"tag"}
    assert inlined(tag, remembered={"tag"}) == set()


def test_with_the_pass_off_nothing_is_written_in_place():
    assert analysis.inlining(vocab({"double": (["x"], "x * 2")}), (), on=False).inline == frozenset()


def test_the_tallies_shapes_are_found_in_the_ast():
    v = Vocabulary(item_props={"suit"})
    zone, prop, value = analysis.tally_parts(parse_expr("[c for c in hand if c.suit == s]"), v)
    assert (zone.id, prop, value.id) == ("hand", "suit", "s")
    assert analysis.tally_parts(parse_expr("[c for c in hand if c.suit == c.rank]"), v) is None
    assert analysis.any_parts(parse_expr("[c.suit == 'red' for c in hand]"), v)[1] == "suit"


def zones() -> dict:
    return {"zones": {"deck": ZoneKey("deck")}, "sets": {"colours": ("red", "blue")}}


def test_kinds_are_certain_from_the_content_alone():
    kinds = Kinds(vocab({"picked": (["xs"], "[x for x in xs if x]"), "n": ([], "3")}, **zones()))
    scope = Scope(set())
    of = {text: kinds.of(parse_expr(text), scope) for text in
          ("deck", "colours", "[1]", "picked(deck)", "n()", "deck if n() else colours", "colours + [1]", "x")}
    assert of == {"deck": "zone", "colours": "list", "[1]": "list", "picked(deck)": "list", "n()": None,
                  "deck if n() else colours": None, "colours + [1]": "list", "x": None}
    off = Kinds(kinds.v, on=False)       # the `kinds` pass off: code takes nothing for granted,
    assert off.certain(parse_expr("deck"), scope) is None and kinds.certain(parse_expr("deck"), scope) == "zone"
    assert off.of(parse_expr("deck"), scope) == "zone"       # and checks still know the fact


def test_a_local_name_can_shadow_a_zone_so_it_is_not_taken_for_granted():
    kinds = Kinds(vocab({}, **zones()))
    assert kinds.of(parse_expr("deck"), Scope({"deck"})) is None
    assert kinds.of(parse_expr("deck"), Scope(set()).bind_py({"deck": "v1"})) is None


def test_a_local_keeps_a_kind_only_while_every_value_it_is_given_has_it():
    kinds = Kinds(vocab({}, **zones()))
    body = parse_script("xs = []\nxs = xs + [1]\nys = deck\nys = 3\nzs = deck\nzs = colours\nws = deck\n")
    assert kinds.of_locals(body, {"xs", "ys", "zs", "ws"}, Scope({"xs", "ys", "zs", "ws"})) == {
        ("local", "xs"): "list", ("local", "ws"): "zone"}


def test_evident_kinds_are_kept_for_checking_arguments_with_the_pass_off():
    kinds = Kinds(vocab({"half": (["x"], "count(x) + 1")}, fixed={"limit": 7}, **zones()), on=False)
    assert [kinds.evident(parse_expr(t)) for t in ("3", "'a'", "limit", "deck", "half(deck)", "1 < 2")] == [
        "number", "text", "number", "zone", "number", "bool"]


def test_a_value_asked_twice_or_inside_a_comprehension_is_found_in_the_order_first_asked():
    """`f(x)` twice and `g(y)` inside a comprehension that does not read `c` are asked again;
    `h(c)` reads the comprehension's variable (a new value each time) and `f(y)` is asked once."""
    v = vocab({name: (["x"], "x") for name in "fgh"})
    body = parse_expr("f(x) + sum(g(y) + h(c) for c in xs) + f(x) + f(y)")
    assert [analysis.size(n) for n in analysis.asked_again(body, v)] == [2, 2]
    assert [n.func for n in analysis.asked_again(body, v)] == ["f", "g"]
    assert analysis.asked_again(parse_expr("f(x) + f(y)"), v) == []
