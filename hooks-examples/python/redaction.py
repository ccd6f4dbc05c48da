"""Finds secrets in text and JSON and replaces each with a labelled placeholder.

Detected: AWS access key ids, PEM private key blocks, GitHub tokens, and credential assignments
such as ``password=...``, ``API_KEY: ...`` or ``"client_secret": "..."``. Every pattern runs in
time linear in its input, so hostile tool output cannot stall the plugin.
"""

from __future__ import annotations

import json
import re
from collections import Counter

# A credential-looking name: db_password, API_KEY, X-Api-Key, GITHUB_ACCESS_TOKEN, ... The
# lookahead finds the keyword and the possessive [\w-]++ takes the whole name, so a failed match
# never backtracks into the name (which would make long runs of keywords quadratic).
_CREDENTIAL_NAME = (
    r"(?=[\w-]*?(?:password|passwd|passphrase|secret|api[_-]?key|access[_-]?key|private[_-]?key"
    r"|(?:auth|access|refresh|bearer|api)[_-]?token))[\w-]++"
)

# One alternation, so a single left-to-right pass finds every secret exactly once, even where
# patterns overlap (``api_key=AKIA...`` is one credential, not a credential and a key).
_SECRET = re.compile(
    r"(?P<private_key>-----BEGIN (?P<pem_kind>[A-Z0-9 ]*)PRIVATE KEY-----"
    # Through the matching END line, or to the end of a truncated output.
    r"(?s:.*?-----END (?P=pem_kind)PRIVATE KEY-----|.*\Z))"
    r"|(?P<aws_access_key>\b(?:AKIA|ASIA)[0-9A-Z]{16}\b)"
    r"|(?P<github_token>\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b)"
    # name, an optional closing quote of the name, "=" or ":", then the (possibly quoted) value;
    # a value that is already a placeholder is left alone.
    rf"|(?P<credential_prefix>(?i:(?<![\w-]){_CREDENTIAL_NAME})[\"']?[ \t]*[:=][ \t]*)"
    r"(?!\"?\[REDACTED:)"
    r"(?P<credential_value>\"[^\"\n]+\"|'[^'\n]+'|[^\s\"',;&]+)"
)
_CREDENTIAL_KEY = re.compile(_CREDENTIAL_NAME, re.IGNORECASE)
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_JSON_KEY_SEPARATOR = re.compile(r"\s*:\s*")

#: How each kind of secret is named in placeholders and in the notice to the model.
KINDS: dict[str, str] = {
    "private_key": "private key",
    "aws_access_key": "AWS access key",
    "github_token": "GitHub token",
    "credential": "credential",
}


def placeholder(kind: str) -> str:
    """The text that stands for a redacted secret of this kind."""
    return f"[REDACTED:{kind.replace('_', '-')}]"


def redact_text(text: str) -> tuple[str, Counter[str]]:
    """Returns text with its secrets replaced, and how many of each kind were replaced."""
    found: Counter[str] = Counter()

    def replace(match: re.Match[str]) -> str:
        if match["credential_prefix"] is None:
            kind = match.lastgroup
            assert kind is not None
            found[kind] += 1
            return placeholder(kind)
        found["credential"] += 1
        value = match["credential_value"]
        quote = value[0] if value[0] in "\"'" else ""
        return f"{match['credential_prefix']}{quote}{placeholder('credential')}{quote}"

    return _SECRET.sub(replace, text), found


def redact_json(text: str) -> tuple[str, Counter[str]]:
    """Redacts the string values of a JSON document, keeping everything else byte for byte.

    Strings are redacted as text; a non-empty string under a credential-named key (such as
    ``"password"``) is redacted whole.
    """
    found: Counter[str] = Counter()
    pieces: list[str] = []
    copied_to = 0
    credential_value_at = -1  # where the value of a credential-named key starts, if one does
    for match in _JSON_STRING.finditer(text):
        value = json.loads(match.group())
        separator = _JSON_KEY_SEPARATOR.match(text, match.end())
        if separator:  # a string followed by ":" is an object key
            credential_value_at = separator.end() if _CREDENTIAL_KEY.fullmatch(value) else -1
            continue
        if match.start() == credential_value_at and value:
            redacted = placeholder("credential")
            found["credential"] += 1
        else:
            redacted, in_value = redact_text(value)
            found += in_value
        if redacted != value:
            pieces += [text[copied_to : match.start()], json.dumps(redacted, ensure_ascii=False)]
            copied_to = match.end()
    return "".join(pieces) + text[copied_to:], found


def describe(found: Counter[str]) -> str:
    """Names what was redacted, e.g. "2 AWS access keys and 1 private key"."""
    parts = [
        f"{count} {name}{'' if count == 1 else 's'}"
        for kind, name in KINDS.items()
        if (count := found[kind])
    ]
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
