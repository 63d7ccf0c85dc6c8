"""``python -m solitaire_odds``: the same command as ``solitaire-odds``."""

from .cli import main

main(prog_name="solitaire-odds")
