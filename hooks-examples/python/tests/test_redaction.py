"""The secret patterns, without gRPC."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from redaction import describe, redact_json, redact_text

GITHUB_TOKEN = "ghp_" + "a1B2" * 9
PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nq2w3e4r5\n-----END RSA PRIVATE KEY-----"


@pytest.mark.parametrize(
    ("text", "redacted", "kind"),
    [
        ("id AKIAIOSFODNN7EXAMPLE ok", "id [REDACTED:aws-access-key] ok", "aws_access_key"),
        (f"before\n{PEM}\nafter", "before\n[REDACTED:private-key]\nafter", "private_key"),
        ("-----BEGIN PRIVATE KEY-----\nMIIE (cut off", "[REDACTED:private-key]", "private_key"),
        (f"token: {GITHUB_TOKEN}.", "token: [REDACTED:github-token].", "github_token"),
        ("github_pat_" + "x" * 30, "[REDACTED:github-token]", "github_token"),
        ("password=hunter2 next", "password=[REDACTED:credential] next", "credential"),
        (
            "export DB_PASSWORD='p@ss word'",
            "export DB_PASSWORD='[REDACTED:credential]'",
            "credential",
        ),
        ('{"api_key": "abc123"}', '{"api_key": "[REDACTED:credential]"}', "credential"),
        ("Api-Key: abc123", "Api-Key: [REDACTED:credential]", "credential"),
        ("api_key=AKIAIOSFODNN7EXAMPLE", "api_key=[REDACTED:credential]", "credential"),
    ],
)
def test_redacts_text(text: str, redacted: str, kind: str) -> None:
    assert redact_text(text) == (redacted, Counter({kind: 1}))


@pytest.mark.parametrize(
    "text",
    [
        "max_tokens=100 PWD=/home/ann",
        "password:\n  - rule: length",  # a key with nothing on its line
        'password=""',
        "password=[REDACTED:credential]",  # redacting twice changes nothing
        "AKIA1234",  # too short for a key id
        "ghp_short",
    ],
)
def test_leaves_non_secrets(text: str) -> None:
    assert redact_text(text) == (text, Counter())


def test_redacts_json_strings_only() -> None:
    document = (
        '{"n": 12345678901234567890, "env": {"GITHUB_ACCESS_TOKEN": "abc", "user": "ann"},\n'
        ' "log": ["key AKIAIOSFODNN7EXAMPLE", "ok"], "pem": "' + PEM.replace("\n", "\\n") + '"}'
    )
    redacted, found = redact_json(document)
    assert redacted == (
        '{"n": 12345678901234567890, "env": {"GITHUB_ACCESS_TOKEN": "[REDACTED:credential]", '
        '"user": "ann"},\n "log": ["key [REDACTED:aws-access-key]", "ok"], '
        '"pem": "[REDACTED:private-key]"}'
    )
    assert found == Counter(credential=1, aws_access_key=1, private_key=1)


def test_json_without_secrets_is_unchanged() -> None:
    document = '{"password_policy": {"min": 12}, "secret": "", "escaped": "a\\"b"}'
    assert redact_json(document) == (document, Counter())


def test_describe_counts() -> None:
    assert describe(Counter(credential=1)) == "1 credential"
    assert describe(Counter(github_token=2, private_key=1)) == "1 private key and 2 GitHub tokens"


@pytest.mark.parametrize(
    "text",
    [
        "password" * 200_000,
        'password="' * 100_000,
        "-password" * 100_000,
        "AKIA" * 250_000,
        "-----BEGIN PRIVATE KEY-----" * 30_000,
    ],
)
def test_hostile_input_does_not_make_the_patterns_backtrack(text: str) -> None:
    # A pattern that backtracks quadratically would take hours on these; linear ones take well
    # under a second (how long exactly is a benchmark's business, not this test's). The redaction
    # runs in a child process so that a runaway match can be stopped: the watchdog is a hang
    # guard, as a test runner's timeout is; what is asserted is that the redaction finishes.
    child = subprocess.run(
        [sys.executable, "-c", _REDACT_STDIN],
        input=text,
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
        timeout=_HANG_GUARD_S,
        check=True,
    )
    assert child.stdout.strip().isdigit()


_HANG_GUARD_S = 120
# Prints how many secrets were redacted.
_REDACT_STDIN = (
    "import sys\n"
    "from redaction import redact_text\n"
    "print(sum(redact_text(sys.stdin.read())[1].values()))\n"
)
