"""Shared fixtures: every rule-clause test runs against each implementation listed here."""

import importlib

import pytest

IMPLEMENTATIONS = ["solitaire_odds.game.reference", "solitaire_odds.engine.api"]


@pytest.fixture(params=IMPLEMENTATIONS)
def impl(request):
    return importlib.import_module(request.param)
