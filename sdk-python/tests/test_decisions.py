"""Decision constructors, their encoding into each point's response, and lossless JSON."""

from __future__ import annotations

import pytest

from hookd_plugin import (
    accept, allow, approve, arguments, ask, block, deny, dump_json, enter, fail, inject, message,
    parse_json, pass_, passes, patch, pb, reject, replace, steer, succeed,
)
from hookd_plugin.encode import InvalidAnswer, encode
from hookd_plugin.points import BY_NAME
from hookd_plugin.testing import decision_of, events

INT64_MAX = 2**63 - 1


@pytest.mark.parametrize("point", ["pre-step", "pre-tool", "post-tool", "rewrite", "approval",
                                   "turn-stopping", "session-start", "execute"])
def test_passes_sets_the_pass_field_of_every_point(point: str) -> None:
    response = encode(BY_NAME[point], passes(), "p")
    assert getattr(response, "decision").WhichOneof("decision") == "pass"
    assert pass_() == passes()


def test_passes_at_the_guard_abstains() -> None:
    response = encode(BY_NAME["guard"], passes(), "p")
    assert getattr(response, "decision").WhichOneof("decision") == "abstain"


@pytest.mark.parametrize(
    ("point", "answer", "kind"),
    [
        ("pre-tool", allow(), "allow"), ("pre-tool", deny("no"), "deny"),
        ("pre-tool", ask("may I?"), "ask"), ("guard", deny("never"), "deny"),
        ("post-tool", accept(content="x"), "accept"), ("post-tool", block("no"), "block"),
        ("pre-step", enter([message("hi", plugin="p")]), "enter"), ("pre-step", reject("no"), "reject"),
        ("rewrite", replace({"a": 1}), "replace"), ("rewrite", patch({"a": None}), "patch"),
        ("approval", approve(), "approve"), ("approval", reject("no"), "reject"),
        ("turn-stopping", steer(message("again", plugin="p")), "steer"),
        ("session-start", inject(message("ctx", plugin="p")), "inject"),
        ("execute", succeed({"ok": True}), "result"), ("execute", fail("broke"), "result"),
    ],
)
def test_each_decision_lands_in_its_oneof_and_decodes_back(point: str, answer: object,
                                                           kind: str) -> None:
    response = encode(BY_NAME[point], answer, "p")
    assert getattr(response, "decision").WhichOneof("decision") == kind
    assert decision_of(response) == answer


@pytest.mark.parametrize(("point", "answer"), [("pre-tool", approve()), ("post-tool", allow()),
                                               ("rewrite", deny("x")), ("pre-tool", None),
                                               ("session-end", allow())])
def test_a_point_refuses_what_it_does_not_take(point: str, answer: object) -> None:
    with pytest.raises(InvalidAnswer, match=point):
        encode(BY_NAME[point], answer, "p")


def test_observers_answer_none() -> None:
    assert encode(BY_NAME["turn-end"], None, "p") == pb.plugin.TurnEndResponse()


@pytest.mark.parametrize("build", [lambda: deny(""), lambda: ask(" "), lambda: reject(""),
                                   lambda: steer(), lambda: fail("")])
def test_required_fields_are_checked_when_built(build: object) -> None:
    with pytest.raises(ValueError, match="required"):
        build()  # type: ignore[operator]


def test_accept_refuses_content_and_value_together() -> None:
    with pytest.raises(ValueError, match="not both"):
        accept(content="x", value=1)
    assert accept(value=None).value_json == "null"


def test_messages_without_a_source_are_sourced_to_the_plugin() -> None:
    response = encode(BY_NAME["post-tool"], accept(contexts=["note", message("n2", plugin="x")]),
                      "configured")
    contexts = getattr(response, "decision").accept.additional_contexts
    assert [c.source.plugin.name for c in contexts] == ["configured", "x"]
    assert contexts[0].role == pb.types.ROLE_USER


def test_json_is_lossless_for_64_bit_integers() -> None:
    text = f'{{"n":{INT64_MAX},"neg":{-INT64_MAX - 1},"r":0.5}}'
    assert dump_json(parse_json(text)) == text
    call = events.tool_call("Bash", {"n": INT64_MAX})
    assert call.arguments_json == f'{{"n":{INT64_MAX}}}'
    assert arguments(call) == {"n": INT64_MAX}
    assert replace({"n": INT64_MAX}).arguments_json == f'{{"n":{INT64_MAX}}}'


def test_json_refuses_what_is_not_json() -> None:
    with pytest.raises(ValueError):
        parse_json("NaN")
    with pytest.raises(ValueError):
        dump_json(float("inf"))
    with pytest.raises(ValueError, match="expected a JSON object"):
        arguments(pb.ToolCall(arguments_json="[1]"))
