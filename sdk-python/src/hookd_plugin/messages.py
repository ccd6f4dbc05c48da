"""Building content blocks and messages from plain strings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Union

from hookd_plugin._gen.hookd.v1.types_pb2 import (
    ROLE_USER,
    ContentBlock,
    Message,
    MessageSource,
    PluginSource,
)
from hookd_plugin.json_values import JsonValue, dump_json

#: A text (a str) or a ContentBlock.
BlockLike = Union[str, ContentBlock]
Content = Union[str, Sequence[BlockLike]]
#: A message's text (a user-role message the daemon sources to the plugin) or a Message.
MessageLike = Union[str, Message]


def text(value: str) -> ContentBlock:
    return ContentBlock(text=value)


def json_block(value: JsonValue) -> ContentBlock:
    return ContentBlock(json=dump_json(value))


def message(content: Content, *, plugin: str = "") -> Message:
    """A user-role message (the role plugin context has). The daemon sources every message a
    plugin contributes to the plugin's configured name; the SDK fills in that source when the
    message has none, so ``plugin`` is only informative."""
    built = Message(role=ROLE_USER, content=list(to_blocks(content)))
    if plugin:
        built.source.CopyFrom(MessageSource(plugin=PluginSource(name=plugin)))
    return built


def message_text(value: Message) -> str:
    """The text blocks of a message, joined by newlines."""
    return "\n".join(block.text for block in value.content if block.WhichOneof("block") == "text")


def to_blocks(content: Content) -> tuple[ContentBlock, ...]:
    if isinstance(content, str):
        return (text(content),)
    blocks: list[ContentBlock] = []
    for item in content:
        if isinstance(item, str):
            blocks.append(text(item))
        elif isinstance(item, ContentBlock):
            blocks.append(item)
        else:
            raise TypeError(f"content: expected str or ContentBlock, got {type(item).__name__}")
    return tuple(blocks)


def to_messages(messages: Sequence[MessageLike]) -> tuple[Message, ...]:
    if isinstance(messages, str):
        raise TypeError("messages: expected a sequence of messages, got one str")
    out: list[Message] = []
    for item in messages:
        if isinstance(item, str):
            out.append(message(item))
        elif isinstance(item, Message):
            out.append(item)
        else:
            raise TypeError(f"messages: expected str or Message, got {type(item).__name__}")
    return tuple(out)
