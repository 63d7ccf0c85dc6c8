"""Numbered deals: the documented shuffle, its numba twin, golden decks, deal files."""

from pathlib import Path

import numpy as np
import pytest

from solitaire_odds.game import cards, deals
from solitaire_odds.engine.core import shuffled_deck

GOLDEN = Path(__file__).parent / "data" / "golden_decks.txt"


def golden():
    for line in GOLDEN.read_text().splitlines():
        if line.startswith("#"):
            continue
        number, size, *names = line.split()
        yield int(number), int(size), [cards.parse(n) for n in names]


def test_splitmix64_matches_published_sequence():
    # First outputs of splitmix64 seeded with 0 (Vigna's reference implementation).
    state, first = deals.splitmix64(0)
    _, second = deals.splitmix64(state)
    assert first == 0xE220A8397B1DCDAF
    assert second == 0x6E789E6AA1B965F4


@pytest.mark.parametrize("number,size,expected", list(golden()))
def test_golden_decks_in_python_and_numba(number, size, expected):
    assert deals.deck(number, size) == expected
    out = np.zeros(size, dtype=np.uint8)
    shuffled_deck(np.uint64(number), size, out)
    assert out.tolist() == expected


def test_two_deck_deal_holds_every_card_twice():
    deck = deals.deck(7, 104)
    assert sorted(deck) == sorted(list(range(52)) * 2)


def test_numba_and_python_agree_on_many_deals():
    out = np.zeros(52, dtype=np.uint8)
    for number in range(0, 5000, 37):
        shuffled_deck(np.uint64(number), 52, out)
        assert out.tolist() == deals.deck(number)


def test_deal_file_round_trip(tmp_path):
    path = tmp_path / "deal.txt"
    deck = deals.deck(42, 104)
    deals.write_deck(path, deck)
    assert deals.read_deck(path, 104) == deck


@pytest.mark.parametrize("text,problem", [
    ("AS 2S", "2 cards, this game needs 52"),
    (" ".join(["AS"] * 52), "AS appears 52 times"),
    ("ZZ " + " ".join(cards.name(c) for c in range(1, 52)), "card 1: unknown card 'ZZ'"),
])
def test_malformed_deal_files_are_refused_with_the_problem_named(tmp_path, text, problem):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(deals.DealFileError, match=problem):
        deals.read_deck(path, 52)


def test_missing_deal_file_is_named(tmp_path):
    with pytest.raises(deals.DealFileError, match="cannot read"):
        deals.read_deck(tmp_path / "nope.txt", 52)


def test_deal_number_out_of_range():
    with pytest.raises(ValueError, match="out of range"):
        deals.deck(-1)
