"""The generated protobuf and gRPC modules of the hookd contract (proto/hookd/v1), as protoc writes them.

For code written on the raw stubs rather than on :class:`hookd_plugin.Plugin` (the raw conformance
plugins, the bench's Python policy): ``from hookd_plugin.stubs import plugin_pb2, plugin_pb2_grpc``.
They are the SDK's one generated tree, so installing the SDK is the only way to get them.
"""

from hookd_plugin._gen.hookd.v1 import (
    admin_pb2,
    admin_pb2_grpc,
    host_pb2,
    host_pb2_grpc,
    plugin_pb2,
    plugin_pb2_grpc,
    point_options_pb2,
    points_pb2,
    types_pb2,
)

__all__ = [
    "admin_pb2",
    "admin_pb2_grpc",
    "host_pb2",
    "host_pb2_grpc",
    "plugin_pb2",
    "plugin_pb2_grpc",
    "point_options_pb2",
    "points_pb2",
    "types_pb2",
]
