"""The SDK's point table is the proto's: every Point value's (hookd.v1.point) option, read at import."""

from __future__ import annotations

from typing import get_args

from hookd_plugin import pb
from hookd_plugin._gen.hookd.v1 import point_options_pb2 as point_options
from hookd_plugin.points import ATTACH_FIELD_OFFSET, BY_VALUE, POINTS, PointName


def declared() -> list[tuple[int, point_options.PointFacts]]:
    values = pb.types.DESCRIPTOR.enum_types_by_name["Point"].values
    return [(v.number, v.GetOptions().Extensions[point_options.point]) for v in values if v.number != 0]


def test_every_declared_point_has_its_spec() -> None:
    assert [spec.value for spec in POINTS] == [value for value, _ in declared()]
    assert list(get_args(PointName)) == [facts.name for _, facts in declared()]
    for value, facts in declared():
        spec = BY_VALUE[value]
        assert spec.name == facts.name
        assert spec.observer == (len(facts.answers) == 0)
        assert spec.matchers == (facts.match != point_options.POINT_MATCH_NONE)


def test_each_point_is_served_by_the_rpc_and_attach_field_of_its_request() -> None:
    call = pb.plugin.AttachCall.DESCRIPTOR
    for spec in POINTS:
        field = call.fields_by_number[ATTACH_FIELD_OFFSET + spec.value]
        assert (field.name, field.message_type.name) == (spec.attach_field, spec.request.__name__)
        assert getattr(pb.plugin, spec.request.__name__) is spec.request
        assert getattr(pb.plugin, spec.response.__name__) is spec.response
        method = pb.plugin.DESCRIPTOR.services_by_name["HookPlugin"].methods_by_name[spec.rpc]
        assert method.output_type.name == spec.response.__name__


def test_the_table_keeps_the_contract_names() -> None:
    # The names the daemon's config and logs use, and the rpc a renamed message must not move.
    assert BY_VALUE[pb.types.POINT_APPROVAL].rpc == "Approve"
    assert BY_VALUE[pb.types.POINT_APPROVAL].attach_field == "approve"
    assert [spec.name for spec in POINTS if spec.matchers] == [
        "pre-tool", "guard", "execute", "post-tool", "tool-result", "rewrite", "approval", "agent-event",
    ]
    assert [spec.name for spec in POINTS if spec.observer] == ["tool-result", "session-end", "turn-end", "agent-event"]
