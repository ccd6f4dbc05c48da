"""Generated from the (hookd.v1.point) options of proto/hookd/v1 by scripts/gen-polyglot.sh. DO NOT EDIT."""

from typing import Literal

#: The daemon's names of the points, in Point order.
PointName = Literal[
    "session-start",
    "pre-step",
    "pre-tool",
    "guard",
    "execute",
    "post-tool",
    "tool-result",
    "turn-stopping",
    "rewrite",
    "approval",
    "session-end",
    "turn-end",
    "agent-event",
]
