"""HookPlugin.Attach: concurrent calls answered out of order, cancel frames reaching the handler,
deadlines, failures as CallErrors, protocol mistakes answered for their id."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from typing import Any

from hookd_plugin import Context, Plugin, arguments, deny, passes, pb, replace
from hookd_plugin.decisions import PreToolAnswer, RewriteAnswer
from hookd_plugin.testing import decision_of, events

P = pb.plugin
HANG_GUARD_S = 60
INT64_MAX = 2**63 - 1


class Stream:
    """An open Attach stream: frames are sent through a queue, answers read as they come."""

    def __init__(self, channel: Any) -> None:
        self.frames: queue.Queue[P.AttachRequest | None] = queue.Queue()
        rpc = channel.stream_stream("/hookd.v1.HookPlugin/Attach",
                                    request_serializer=lambda m: m.SerializeToString(),
                                    response_deserializer=P.AttachResponse.FromString)
        self.answers: Iterator[P.AttachResponse] = rpc(self._frames(), timeout=HANG_GUARD_S)
        self.send(P.AttachRequest(open=P.AttachOpen(plugin_name="configured", window=8)))

    def _frames(self) -> Iterator[P.AttachRequest]:
        while (frame := self.frames.get()) is not None:
            yield frame

    def send(self, frame: P.AttachRequest) -> None:
        self.frames.put(frame)

    def call(self, call_id: int, command: str, deadline_ms: int = 0) -> None:
        request = P.PreToolRequest(event=events.pre_tool("Bash", {"command": command}))
        self.send(P.AttachRequest(call=P.AttachCall(call_id=call_id, deadline_ms=deadline_ms,
                                                    traceparent="00-t-s-01", pre_tool=request)))

    def close(self) -> None:
        self.frames.put(None)


def holding_plugin() -> tuple[Plugin, dict[str, Any]]:
    plugin = Plugin("holding")
    state: dict[str, Any] = {"second": threading.Event(), "cancelled": threading.Event(),
                             "holding": threading.Event()}

    @plugin.pre_tool
    def pre(event: pb.PreToolEvent, ctx: Context) -> PreToolAnswer:
        command = arguments(event.call)["command"]
        state.setdefault("seen", []).append((ctx.plugin_name, ctx.transport, ctx.traceparent))
        if command == "first":  # answers only after the second call was answered
            assert state["second"].wait(HANG_GUARD_S)
            return deny("first")
        if command == "second":
            return deny("second")
        if command == "hold":
            state["holding"].set()
            ctx.wait()
            state["reason"] = ctx.cancel_reason
            state["cancelled"].set()
            return passes()
        if command == "raise":
            raise ValueError("bad input")
        return passes()

    @plugin.rewrite
    def rewrite(event: pb.RewriteEvent, ctx: Context) -> RewriteAnswer:
        return replace({**arguments(event.call), "seen": True})

    return plugin, state


def test_answers_come_back_in_any_order(serve_plugin: Any) -> None:
    plugin, state = holding_plugin()
    stream = Stream(serve_plugin(plugin).channel)
    stream.call(1, "first")
    stream.call(2, "second")
    first = next(stream.answers)
    state["second"].set()
    second = next(stream.answers)
    stream.close()
    assert [(first.call_id, decision_of(first.pre_tool)), (second.call_id,
            decision_of(second.pre_tool))] == [(2, deny("second")), (1, deny("first"))]
    assert list(stream.answers) == []
    assert state["seen"][0] == ("configured", "stream", "00-t-s-01")


def test_a_cancel_frame_reaches_the_handler_and_is_not_answered(serve_plugin: Any) -> None:
    plugin, state = holding_plugin()
    stream = Stream(serve_plugin(plugin).channel)
    stream.call(5, "hold")
    assert state["holding"].wait(HANG_GUARD_S)
    stream.send(P.AttachRequest(cancel=P.AttachCancel(call_id=5)))
    assert state["cancelled"].wait(HANG_GUARD_S)
    stream.call(6, "other")
    stream.close()
    answers = list(stream.answers)
    assert [a.call_id for a in answers] == [6]
    assert state["reason"] == "cancelled"


def test_the_frame_deadline_reaches_the_handler(serve_plugin: Any) -> None:
    plugin, state = holding_plugin()
    stream = Stream(serve_plugin(plugin).channel)
    stream.call(7, "hold", deadline_ms=200)
    answer = next(stream.answers)
    stream.close()
    assert state["cancelled"].wait(HANG_GUARD_S)
    assert state["reason"] == "deadline"
    assert (answer.call_id, answer.WhichOneof("reply"), answer.error.code) == (7, "error", 4)


def test_failures_and_protocol_mistakes_are_answered_for_their_id(serve_plugin: Any) -> None:
    plugin, state = holding_plugin()
    stream = Stream(serve_plugin(plugin).channel)
    stream.call(1, "raise")
    error = next(stream.answers)
    assert (error.call_id, error.error.code) == (1, 2)  # UNKNOWN
    assert "plugin configured at pre-tool raised ValueError: bad input" in error.error.message
    stream.call(2, "first")
    stream.call(2, "first")  # still in flight
    duplicate = next(stream.answers)
    assert (duplicate.call_id, duplicate.error.code) == (2, 3)  # INVALID_ARGUMENT
    stream.send(P.AttachRequest(call=P.AttachCall(call_id=3, pre_step=P.PreStepRequest())))
    unhandled = next(stream.answers)
    assert (unhandled.call_id, unhandled.error.code) == (3, 12)  # UNIMPLEMENTED
    state["second"].set()
    stream.close()
    assert [a.call_id for a in stream.answers] == [2]


def test_integers_cross_the_stream_digit_for_digit(serve_plugin: Any) -> None:
    plugin, _ = holding_plugin()
    stream = Stream(serve_plugin(plugin).channel)
    request = P.RewriteRequest(event=events.rewrite("Bash", {"n": INT64_MAX, "m": -INT64_MAX - 1}))
    stream.send(P.AttachRequest(call=P.AttachCall(call_id=9, rewrite=request)))
    stream.close()
    [answer] = list(stream.answers)
    assert answer.rewrite.decision.replace.arguments_json == \
        f'{{"n":{INT64_MAX},"m":{-INT64_MAX - 1},"seen":true}}'


def test_calls_beyond_the_window_are_refused(serve_plugin: Any) -> None:
    plugin, state = holding_plugin()
    stream = Stream(serve_plugin(plugin).channel)  # window 8
    for call_id in range(1, 9):
        stream.call(call_id, "first")  # each holds until "second" is set
    stream.call(9, "first")
    refused = next(stream.answers)
    assert (refused.call_id, refused.error.code) == (9, 8)  # RESOURCE_EXHAUSTED
    assert "window (8)" in refused.error.message
    state["second"].set()
    stream.close()
    assert sorted(a.call_id for a in stream.answers) == list(range(1, 9))
