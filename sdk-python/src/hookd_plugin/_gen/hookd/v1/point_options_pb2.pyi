from google.protobuf import descriptor_pb2 as _descriptor_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class PointMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    POINT_MODE_UNSPECIFIED: _ClassVar[PointMode]
    POINT_MODE_WATERFALL: _ClassVar[PointMode]
    POINT_MODE_GUARDS: _ClassVar[PointMode]
    POINT_MODE_AROUND: _ClassVar[PointMode]
    POINT_MODE_NOTIFICATION: _ClassVar[PointMode]
    POINT_MODE_CHAIN: _ClassVar[PointMode]

class PointMatch(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    POINT_MATCH_UNSPECIFIED: _ClassVar[PointMatch]
    POINT_MATCH_NONE: _ClassVar[PointMatch]
    POINT_MATCH_TOOL_NAME: _ClassVar[PointMatch]
    POINT_MATCH_EVENT_NAME: _ClassVar[PointMatch]
POINT_MODE_UNSPECIFIED: PointMode
POINT_MODE_WATERFALL: PointMode
POINT_MODE_GUARDS: PointMode
POINT_MODE_AROUND: PointMode
POINT_MODE_NOTIFICATION: PointMode
POINT_MODE_CHAIN: PointMode
POINT_MATCH_UNSPECIFIED: PointMatch
POINT_MATCH_NONE: PointMatch
POINT_MATCH_TOOL_NAME: PointMatch
POINT_MATCH_EVENT_NAME: PointMatch
POINT_FIELD_NUMBER: _ClassVar[int]
point: _descriptor.FieldDescriptor

class PointFacts(_message.Message):
    __slots__ = ("name", "mode", "match", "gate", "answers")
    NAME_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    GATE_FIELD_NUMBER: _ClassVar[int]
    ANSWERS_FIELD_NUMBER: _ClassVar[int]
    name: str
    mode: PointMode
    match: PointMatch
    gate: bool
    answers: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., mode: _Optional[_Union[PointMode, str]] = ..., match: _Optional[_Union[PointMatch, str]] = ..., gate: _Optional[bool] = ..., answers: _Optional[_Iterable[str]] = ...) -> None: ...
