"""A deal on one self-contained HTML page: the cards of every position along a line (the
solver's winning line or a player's moves), stepped through with buttons or the keyboard.

The positions come from the plain-Python reference (:mod:`.reference`), so the page shows the
rules as this project reads them, and a line that does not replay cannot be drawn. The page
needs no network and no files besides itself: the positions are embedded as JSON.
"""

from __future__ import annotations

import html
import json
import os
from pathlib import Path

from .game import cards, reference
from .runs import store
from .game.position import Position, describe_move, format_move
from .rules import Rules

SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def positions_along(rules: Rules, start: Position, line: list[tuple]) -> list[Position]:
    """``start`` and the position after each move of ``line``."""
    out = [start]
    for move in line:
        out.append(reference.apply_move(rules, out[-1], move))
    return out


def foundation_top(rules: Rules, pos: Position, j: int) -> int | None:
    """The card on top of foundation ``j`` (None when it is empty)."""
    count = pos.found[j]
    if count == 0:
        return None
    kind = rules["foundations"]
    if kind == "kings-and-aces":
        return cards.make(12 - (count - 1), j) if j < 4 else cards.make(count - 1, j - 4)
    if kind == "chosen-base":
        return cards.make((pos.base_rank + count - 1) % 13, j)
    return cards.make(count - 1, j)


def snapshot(rules: Rules, pos: Position) -> dict:
    """What the page draws of one position: card names, ``##`` for a face-down card."""
    return {
        "found": [[cards.name(top) if top is not None else None, n]
                  for top, n in ((foundation_top(rules, pos, j), n) for j, n in enumerate(pos.found))],
        "piles": [["##"] * pos.down[i] + [cards.name(c) for c in pile[pos.down[i]:]]
                  for i, pile in enumerate(pos.piles)],
        "reserve": [[cards.name(c) for c in fan] for fan in pos.reserve],
        "stock": len(pos.stock),
        "waste": [cards.name(c) for c in pos.waste[-3:]],
        "wasteCount": len(pos.waste),
        "won": reference.is_won(rules, pos),
    }


def page(rules: Rules, start: Position, line: list[tuple], title: str, verdict: str) -> str:
    """The whole HTML page: ``line`` played from ``start`` (a deal's first position, or a
    position file's; a face-down card not known shows as ``##`` like any face-down card)."""
    steps = positions_along(rules, start, line)
    moves = [{"text": describe_move(move, before), "code": format_move(move)}
             for move, before in zip(line, steps)]
    data = {"title": title, "verdict": verdict, "moves": moves, "suits": SUIT_SYMBOLS,
            "positions": [snapshot(rules, pos) for pos in steps], "stockGame": rules["stock"] != "none"}
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return (_TEMPLATE.replace("__TITLE__", html.escape(title))
            .replace("__DATA__", payload))


PAGE = "viewer page"
"""What :func:`write_page` writes (the ``target`` of a :class:`store.WriteFailure`)."""


def write_page(path: str | os.PathLike, rules: Rules, start: Position, line: list[tuple], title: str,
               verdict: str) -> Path:
    """Write the page for ``line`` played from ``start`` (whole or not at all)."""
    path = Path(path)
    text = page(rules, start, line, title, verdict).encode("utf-8")
    store.atomic_write(path, lambda file: file.write(text), target=PAGE)
    return path


_TEMPLATE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
body { font-family: system-ui, sans-serif; background: #1f5f3a; color: #f4f4f4; margin: 0; padding: 16px; }
h1 { font-size: 18px; margin: 0 0 4px; }
#verdict { font-size: 13px; opacity: 0.85; margin-bottom: 10px; }
#controls { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; margin-bottom: 8px; }
button { font-size: 14px; padding: 4px 10px; border-radius: 4px; border: 1px solid #999; background: #f4f4f4; cursor: pointer; }
#step { font-variant-numeric: tabular-nums; margin-left: 8px; }
#move { min-height: 1.4em; font-size: 15px; margin: 4px 0 12px; }
#won { display: none; background: #ffd54a; color: #222; font-weight: bold; padding: 2px 8px; border-radius: 4px; }
.row { display: flex; gap: 10px; align-items: flex-start; margin-bottom: 14px; flex-wrap: wrap; }
.label { font-size: 11px; opacity: 0.8; text-align: center; margin-bottom: 2px; }
.slot { min-width: 46px; min-height: 64px; border: 1px dashed rgba(255,255,255,0.35); border-radius: 6px; position: relative; }
.pile { display: flex; flex-direction: column; }
.pile .card + .card { margin-top: -44px; }
.fan { display: flex; }
.fan .card + .card { margin-left: -20px; }
.card { width: 44px; height: 62px; border-radius: 5px; background: #fff; border: 1px solid #333; color: #111;
        font-size: 15px; font-weight: 600; padding: 2px 3px; box-sizing: border-box; line-height: 1; }
.card.red { color: #c8102e; }
.card.down { background: repeating-linear-gradient(45deg, #2a4d8f, #2a4d8f 4px, #3a63b0 4px, #3a63b0 8px); }
.card.moved { box-shadow: 0 0 0 3px #ffd54a; }
.count { font-size: 11px; text-align: center; opacity: 0.8; }
#moves { font-size: 12px; columns: 3 18em; margin-top: 12px; opacity: 0.9; }
#moves li { cursor: pointer; }
#moves li.current { background: #ffd54a; color: #222; }
.help { font-size: 12px; opacity: 0.75; }
</style>
</head>
<body>
<h1 id="title"></h1>
<div id="verdict"></div>
<div id="controls">
  <button id="first" title="Home">&laquo; first</button>
  <button id="prev" title="Left arrow">&#x25C0; back</button>
  <button id="play" title="Space">&#x25B6; play</button>
  <button id="next" title="Right arrow">next &#x25B6;</button>
  <button id="last" title="End">last &raquo;</button>
  <span id="step"></span> <span id="won">won</span>
</div>
<div class="help">Keys: &larr; &rarr; step, Home / End, Space plays and pauses. Click a move in the list to jump to it.</div>
<div id="move"></div>
<div id="table"></div>
<ol id="moves"></ol>
<script id="data" type="application/json">__DATA__</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
let step = 0, timer = null;
const last = data.positions.length - 1;

function card(name, moved) {
  const el = document.createElement("div");
  el.className = "card";
  if (name === "##") { el.classList.add("down"); el.dataset.card = "##"; return el; }
  const rank = name[0] === "T" ? "10" : name[0];
  el.textContent = rank + data.suits[name[1]];
  el.dataset.card = name;
  if (name[1] === "D" || name[1] === "H") el.classList.add("red");
  if (moved) el.classList.add("moved");
  return el;
}

function slot(label, place, cls) {
  const box = document.createElement("div");
  const head = document.createElement("div");
  head.className = "label"; head.textContent = label;
  const body = document.createElement("div");
  body.className = "slot " + (cls || "");
  body.dataset.place = place;
  box.append(head, body);
  return [box, body];
}

function movedPlace() {
  if (step === 0) return null;
  const code = data.moves[step - 1].code;
  return code.includes(">") ? code.split(">")[1].split("x")[0] : null;
}

function draw() {
  const pos = data.positions[step], table = document.getElementById("table"), dest = movedPlace();
  table.replaceChildren();
  const top = document.createElement("div"); top.className = "row";
  pos.found.forEach(([name, n], j) => {
    const [box, body] = slot("f" + j + " (" + n + ")", "f" + j);
    if (name) body.append(card(name, dest === "f" + j));
    top.append(box);
  });
  if (data.stockGame) {
    const [sbox, sbody] = slot("stock " + pos.stock, "s");
    if (pos.stock) sbody.append(card("##"));
    const [wbox, wbody] = slot("waste " + pos.wasteCount, "w", "fan");
    pos.waste.forEach((name, i) => wbody.append(card(name, false)));
    top.append(sbox, wbox);
  }
  table.append(top);
  if (pos.reserve.length) {
    const row = document.createElement("div"); row.className = "row";
    pos.reserve.forEach((fan, i) => {
      const [box, body] = slot("r" + i, "r" + i, "fan");
      fan.forEach(name => body.append(card(name, false)));
      row.append(box);
    });
    table.append(row);
  }
  const row = document.createElement("div"); row.className = "row";
  pos.piles.forEach((pile, i) => {
    const [box, body] = slot("p" + i, "p" + i, "pile");
    pile.forEach((name, k) => body.append(card(name, dest === "p" + i && k === pile.length - 1)));
    row.append(box);
  });
  table.append(row);
  document.getElementById("step").textContent = "step " + step + " / " + last;
  document.getElementById("move").textContent =
    step === 0 ? "The deal. Press \\u2192 for the first move." : step + ". " + data.moves[step - 1].text;
  document.getElementById("won").style.display = pos.won ? "inline" : "none";
  document.body.dataset.step = String(step);
  document.body.dataset.won = String(pos.won);
  document.querySelectorAll("#moves li").forEach((li, i) => li.classList.toggle("current", i === step - 1));
}

function go(k) { step = Math.max(0, Math.min(last, k)); draw(); if (step === last) pause(); }
function pause() { if (timer) { clearInterval(timer); timer = null; } document.getElementById("play").innerHTML = "&#x25B6; play"; }
function play() {
  if (timer) { pause(); return; }
  if (step === last) go(0);
  timer = setInterval(() => go(step + 1), 600);
  document.getElementById("play").innerHTML = "&#x2016; pause";
}

document.getElementById("title").textContent = data.title;
document.getElementById("verdict").textContent = data.verdict + " \\u2014 " + data.moves.length + " moves";
document.getElementById("first").onclick = () => go(0);
document.getElementById("prev").onclick = () => go(step - 1);
document.getElementById("next").onclick = () => go(step + 1);
document.getElementById("last").onclick = () => go(last);
document.getElementById("play").onclick = play;
document.addEventListener("keydown", e => {
  const keys = {ArrowRight: () => go(step + 1), ArrowLeft: () => go(step - 1), Home: () => go(0),
                End: () => go(last), " ": play};
  if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
});
const list = document.getElementById("moves");
data.moves.forEach((m, i) => {
  const li = document.createElement("li"); li.textContent = m.text; li.onclick = () => go(i + 1); list.append(li);
});
draw();
</script>
</body>
</html>
"""
