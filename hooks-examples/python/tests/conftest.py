"""Fixtures for the plugin tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from plugin_process import RunningPlugin, start_plugin


@pytest.fixture(scope="module")
def plugin_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningPlugin]:
    """One plugin process shared by a module's tests."""
    running = start_plugin(tmp_path_factory.mktemp("plugin"))
    yield running
    running.terminate()
