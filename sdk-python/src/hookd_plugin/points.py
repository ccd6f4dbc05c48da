"""The extension points: their names, proto values, RPCs, request and response messages.

Read at import from the generated descriptors, so a new point is declared only in the proto: each
Point value's ``(hookd.v1.point)`` option (point_options.proto) gives its name and whether it is an
observer or takes matchers; its field in the Attach frames (10 + its value) gives its request
message, and the HookPlugin method taking that request gives the RPC and the response.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from google.protobuf.descriptor import EnumValueDescriptor
from google.protobuf.message import Message as ProtoMessage
from google.protobuf.message_factory import GetMessageClass

from hookd_plugin._gen.hookd.v1 import plugin_pb2 as plugin
from hookd_plugin._gen.hookd.v1 import point_options_pb2 as point_options
from hookd_plugin._gen.hookd.v1 import types_pb2 as types
from hookd_plugin._gen.hookd.v1.point_names import PointName

__all__ = ["ATTACH_FIELD_OFFSET", "BY_ATTACH_FIELD", "BY_NAME", "BY_VALUE", "POINTS", "PointName", "PointSpec"]

#: The offset of a point's request/response field in the Attach frames (10 + its Point value).
ATTACH_FIELD_OFFSET = 10


@dataclass(frozen=True)
class PointSpec:
    name: PointName
    value: int  # hookd.v1.Point
    rpc: str  # the HookPlugin method
    request: type[ProtoMessage]
    response: type[ProtoMessage]
    #: The field name of this point in AttachCall.request and AttachResponse.reply.
    attach_field: str
    #: Notification points whose response is empty: the handler returns None.
    observer: bool = False
    #: Points whose subscription may carry matchers (tool names, or event names at agent-event).
    matchers: bool = False


def _facts(value: EnumValueDescriptor) -> point_options.PointFacts:
    """The value's (hookd.v1.point) option; empty for POINT_UNSPECIFIED."""
    for _, option in value.GetOptions().ListFields():
        if isinstance(option, point_options.PointFacts):
            return option
    return point_options.PointFacts()


def _read_points() -> tuple[PointSpec, ...]:
    methods = {method.input_type.full_name: method for method in plugin.DESCRIPTOR.services_by_name["HookPlugin"].methods}
    attach_fields = plugin.AttachCall.DESCRIPTOR.fields_by_number
    no_matchers = (point_options.POINT_MATCH_UNSPECIFIED, point_options.POINT_MATCH_NONE)
    specs: list[PointSpec] = []
    for value in types.DESCRIPTOR.enum_types_by_name["Point"].values:
        facts = _facts(value)
        if not facts.name:
            continue  # POINT_UNSPECIFIED
        field = attach_fields[ATTACH_FIELD_OFFSET + value.number]
        if field.message_type is None:
            raise TypeError(f"AttachCall.{field.name}: not a message")
        method = methods[field.message_type.full_name]
        specs.append(PointSpec(
            name=cast(PointName, facts.name),
            value=value.number,
            rpc=method.name,
            request=GetMessageClass(method.input_type),
            response=GetMessageClass(method.output_type),
            attach_field=field.name,
            observer=not facts.answers,
            matchers=facts.match not in no_matchers,
        ))
    return tuple(specs)


POINTS: tuple[PointSpec, ...] = _read_points()

BY_NAME: dict[str, PointSpec] = {spec.name: spec for spec in POINTS}
BY_ATTACH_FIELD: dict[str, PointSpec] = {spec.attach_field: spec for spec in POINTS}
BY_VALUE: dict[int, PointSpec] = {spec.value: spec for spec in POINTS}
