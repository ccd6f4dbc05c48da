"""redact-secrets: a hookd post-tool plugin that removes secrets from what the model is shown.

For a successful tool call it redacts the text and JSON content blocks (see ``redaction``). When
it redacted something it answers ``accept`` with the redacted content and a context message
saying what it removed; otherwise it answers ``pass``. The canonical value is left unchanged.

Written with the Python SDK (sdk-python, ``hookd_plugin``), which serves the manifest derived
from the handler, health, the unary RPC and the Attach stream, SIGTERM and managed mode.

Run: ``python redact_secrets.py [--listen ADDRESS]``; without ``--listen`` it serves on the Unix
socket named by ``$HOOKD_PLUGIN_SOCKET``.
"""

from __future__ import annotations

import logging
import sys
from collections import Counter

from hookd_plugin import Context, Plugin, PostToolAnswer, accept, main, passes, pb
from redaction import describe, redact_json, redact_text

PLUGIN_NAME = "redact-secrets"

log = logging.getLogger(PLUGIN_NAME)

plugin = Plugin(PLUGIN_NAME, version="0.1.0", side_effect_free=True)


# Fail-open: a slow or broken redactor must not block tool results.
@plugin.post_tool(priority=100, failure_policy="fail-open")
def redact(event: pb.PostToolEvent, ctx: Context) -> PostToolAnswer:
    result = event.result
    if not result.HasField("success"):
        return passes()

    found: Counter[str] = Counter()
    blocks: list[pb.ContentBlock] = []
    for block in result.success.content:
        if ctx.cancelled:
            raise TimeoutError("deadline passed while redacting")
        redacted, in_block = _redact_block(block)
        blocks.append(redacted)
        found += in_block
    if not found:
        return passes()

    tool, summary = event.call.tool_name, describe(found)
    log.info("redacted %s from %s (call %s)", summary, tool, event.call.call_id)
    notice = (
        f"{PLUGIN_NAME} redacted {summary} from the output of tool {tool!r}; each "
        "[REDACTED:...] placeholder stands for a removed value."
    )
    return accept(content=blocks, contexts=[notice])


def _redact_block(block: pb.ContentBlock) -> tuple[pb.ContentBlock, Counter[str]]:
    kind = block.WhichOneof("block")
    if kind == "text":
        text, found = redact_text(block.text)
        return pb.ContentBlock(text=text), found
    if kind == "json":
        json_text, found = redact_json(block.json)
        return pb.ContentBlock(json=json_text), found
    return block, Counter()


if __name__ == "__main__":
    sys.exit(main(plugin))
