"""Lossless JSON for arguments, values and payloads.

The contract carries every JSON value as text (``*_json`` fields). Python's ``json`` parses
integers as exact ``int`` of any size, so 2^63-1 stays 9223372036854775807 through a parse and a
dump; numbers with a fraction or an exponent become ``float`` (IEEE doubles, which the daemon's
canonical JSON writes the same way). NaN and infinities are not JSON and are refused.
"""

from __future__ import annotations

import json
from typing import Union

from hookd_plugin._gen.hookd.v1.types_pb2 import ToolCall

JsonValue = Union[None, bool, int, float, str, list["JsonValue"], dict[str, "JsonValue"]]
JsonObject = dict[str, JsonValue]


def _refuse_constant(name: str) -> JsonValue:
    raise ValueError(f"{name} is not JSON")


def parse_json(text: str) -> JsonValue:
    """Parses JSON text; raises ValueError for text that is not JSON."""
    return json.loads(text, parse_constant=_refuse_constant)  # type: ignore[no-any-return]


def dump_json(value: JsonValue) -> str:
    """Compact JSON text; raises ValueError for NaN, infinities or values that are not JSON."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except TypeError as error:
        raise ValueError(f"not a JSON value: {error}") from error


def parse_object(text: str, what: str) -> JsonObject:
    """Parses JSON text that must hold an object; ``what`` names it in the error."""
    value = parse_json(text)
    if not isinstance(value, dict):
        raise ValueError(f"{what}: expected a JSON object, got {type(value).__name__}")
    return value


def arguments(call: ToolCall) -> JsonObject:
    """A tool call's arguments (``call.arguments_json``) as a dict, integers exact."""
    return parse_object(call.arguments_json, "arguments_json")
