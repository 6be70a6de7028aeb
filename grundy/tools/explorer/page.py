"""The explorer's page: one self-contained HTML file (inline SVG, style sheet and script; nothing
fetched). The tree's data is a JSON block read by the script, which draws the rows as the
reader opens them; keys: arrows move and open, Enter toggles, / goes to the search box."""
from __future__ import annotations

import html
import json
from typing import Any

__all__ = ["render"]

_CSS = """
:root { --ok: #1e7e34; --muted: #5f6b76; --line: #d8dee4; --focus: #0b5cad; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: #1f2328;
       max-width: 1100px; margin: 0 auto; padding: 1.2em; }
h1 { font-size: 1.4em; margin: 0 0 0.4em; }
.muted, .note { color: var(--muted); }
.note { font-size: 13px; background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px;
        padding: 0.5em 0.8em; }
.start { display: flex; gap: 1.2em; align-items: center; flex-wrap: wrap; margin-bottom: 0.8em; }
.start .pic { display: flex; gap: 1em; align-items: flex-end; flex-wrap: wrap; }
.start .pic svg { max-height: 260px; width: auto; }
.start > div { flex: 1; min-width: 18em; }
.start .json { white-space: normal; word-break: break-all; }
.big { font-size: 1.15em; }
code, .json { font: 12px/1.3 ui-monospace, "DejaVu Sans Mono", monospace; }
form { display: flex; gap: 0.5em; margin: 0.8em 0; align-items: center; }
form input { flex: 1; font: 13px ui-monospace, monospace; padding: 0.3em; }
#status { min-height: 1.3em; font-size: 13px; color: var(--muted); }
.row { display: grid; grid-template-columns: 1.2em 96px minmax(9em, 1.4fr) 5em 2.2em 5.5em minmax(0, 1fr);
       gap: 0.6em; align-items: center; padding: 0.15em 0.4em; border-bottom: 1px solid var(--line);
       cursor: pointer; outline: none; }
.row:focus { background: #e8f1fb; box-shadow: inset 3px 0 0 var(--focus); }
.row.hit { background: #fff3cd; }
.row .pic { display: flex; gap: 2px; overflow: hidden; }
.row .pic svg { height: 72px; width: auto; max-width: 92px; min-width: 0; flex: 0 1 auto; }
.tw { color: var(--muted); text-align: center; }
.o { font-weight: 600; text-align: center; border-radius: 4px; }
.o-P { background: #d4edda; } .o-N { background: #e9ecef; }
.win { color: var(--ok); font-weight: 600; font-size: 13px; }
.json { color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.kids { margin-left: 1.4em; border-left: 2px solid var(--line); }
.kids > .note { margin: 0.3em 0; }
#found h2 { font-size: 1.1em; }
"""

_JS = r"""
(function () {
  var D = JSON.parse(document.getElementById('tree-data').textContent);
  var nodes = D.nodes, index = {};
  var tree = document.getElementById('tree'), status = document.getElementById('status');
  function key(v) {               /* as grundy writes it: sorted keys, no spaces */
    if (Array.isArray(v)) return '[' + v.map(key).join(',') + ']';
    if (v !== null && typeof v === 'object')
      return '{' + Object.keys(v).sort().map(function (k) { return JSON.stringify(k) + ':' + key(v[k]); }).join(',') + '}';
    return JSON.stringify(v);
  }
  nodes.forEach(function (n, i) { index[key(n.position)] = i; });
  function say(text) { status.textContent = text; }
  function el(tag, cls, text) {
    var e = document.createElement(tag); if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text; return e;
  }
  function item(label, i, level) {
    var n = nodes[i], box = el('div', 'item'), r = el('div', 'row');
    r.tabIndex = -1; r.setAttribute('role', 'treeitem'); r.setAttribute('aria-level', level);
    r.dataset.node = i; r.dataset.value = n.value; r.dataset.outcome = n.outcome;
    r.dataset.position = key(n.position);
    var leaf = n.options !== null && n.options.length === 0;
    r.appendChild(el('span', 'tw', leaf ? '·' : '▸'));
    var pic = el('span', 'pic'); pic.innerHTML = n.drawing; r.appendChild(pic);
    r.appendChild(el('span', 'move', label));
    r.appendChild(el('span', 'val', 'G = ' + n.value));
    r.appendChild(el('span', 'o o-' + n.outcome, n.outcome));
    r.appendChild(el('span', 'win', n.outcome === 'P' ? '✓ winning' : ''));
    var js = el('span', 'json', JSON.stringify(n.position)); js.title = JSON.stringify(n.position);
    r.appendChild(js);
    if (!leaf) r.setAttribute('aria-expanded', 'false');
    r.title = leaf ? 'no moves from here' : 'open: its options';
    var kids = el('div', 'kids'); kids.setAttribute('role', 'group'); kids.hidden = true;
    box.appendChild(r); box.appendChild(kids);
    return box;
  }
  function fill(kids, i, level) {
    var n = nodes[i];
    n.options.forEach(function (o) { kids.appendChild(item(o[0], o[1], level)); });
    if (!n.options.length) kids.appendChild(el('div', 'note', 'No moves: the player to move loses.'));
  }
  function fetchNode(k) {
    return fetch('node?p=' + encodeURIComponent(k)).then(function (r) { return r.json(); }).then(function (d) {
      if (d.error) throw new Error(d.error);
      var ids = d.nodes.map(function (m) {
        var mk = key(m.position);
        if (!(mk in index)) { index[mk] = nodes.length; nodes.push(m); }
        return index[mk];
      });
      nodes[ids[0]].options = d.options.map(function (o) { return [o[0], ids[o[1]]]; });
      return ids[0];
    });
  }
  function open(r) {
    var kids = r.nextElementSibling, i = +r.dataset.node, n = nodes[i];
    if (!r.hasAttribute('aria-expanded')) return Promise.resolve();
    r.setAttribute('aria-expanded', 'true'); r.firstChild.textContent = '▾'; kids.hidden = false;
    if (kids.dataset.filled) return Promise.resolve();
    kids.dataset.filled = '1';
    var level = +r.getAttribute('aria-level') + 1;
    if (n.options !== null) { fill(kids, i, level); return Promise.resolve(); }
    if (D.served) {
      var wait = el('div', 'note', 'computing its options…'); kids.appendChild(wait);
      return fetchNode(r.dataset.position).then(function () { kids.removeChild(wait); fill(kids, i, level); },
        function (e) { wait.textContent = 'grundy could not compute its options: ' + e.message; });
    }
    kids.appendChild(el('div', 'note', 'Its options are not in this file (it holds the tree '
      + D.depth + ' moves deep, ' + D.max_nodes + ' positions at most). To explore on from here, run: '
      + "grundy explore '" + JSON.stringify(n.position) + "'  (or serve the tree: " + D.command + ' --serve)'));
    return Promise.resolve();
  }
  function close(r) {
    if (r.getAttribute('aria-expanded') !== 'true') return;
    r.setAttribute('aria-expanded', 'false'); r.firstChild.textContent = '▸'; r.nextElementSibling.hidden = true;
  }
  function toggle(r) { return r.getAttribute('aria-expanded') === 'true' ? (close(r), Promise.resolve()) : open(r); }
  function visible() {
    return Array.prototype.filter.call(document.querySelectorAll('.row'), function (r) { return r.offsetParent !== null; });
  }
  function focus(r, still) {
    if (!r) return;
    document.querySelectorAll('.row[tabindex="0"]').forEach(function (x) { x.tabIndex = -1; });
    r.tabIndex = 0; r.focus({preventScroll: !!still});
  }
  function parentRow(r) {
    var g = r.parentNode.parentNode;
    return g.classList.contains('kids') ? g.previousElementSibling : null;
  }
  document.addEventListener('keydown', function (e) {
    if (e.target.tagName === 'INPUT') return;
    if (e.key === '/') { e.preventDefault(); document.getElementById('q').focus(); return; }
    var r = e.target.closest ? e.target.closest('.row') : null;
    if (!r) { if (e.key === 'ArrowDown') { e.preventDefault(); focus(visible()[0]); } return; }
    var rows = visible(), at = rows.indexOf(r);
    if (e.key === 'ArrowDown') focus(rows[at + 1]);
    else if (e.key === 'ArrowUp') focus(rows[at - 1]);
    else if (e.key === 'Home') focus(rows[0]);
    else if (e.key === 'End') focus(rows[rows.length - 1]);
    else if (e.key === 'ArrowRight') {
      if (r.getAttribute('aria-expanded') === 'false') open(r);
      else { var first = r.nextElementSibling.querySelector('.row'); if (first) focus(first); }
    } else if (e.key === 'ArrowLeft') {
      if (r.getAttribute('aria-expanded') === 'true') close(r); else focus(parentRow(r));
    } else if (e.key === 'Enter' || e.key === ' ') toggle(r);
    else return;
    e.preventDefault();
  });
  tree.addEventListener('click', function (e) {
    var r = e.target.closest('.row'); if (r) { focus(r); toggle(r); }
  });
  function path(target) {         /* node numbers from the start to target, breadth first */
    var from = {0: null}, queue = [0];
    while (queue.length) {
      var i = queue.shift();
      if (i === target) break;
      (nodes[i].options || []).forEach(function (o) { if (!(o[1] in from)) { from[o[1]] = i; queue.push(o[1]); } });
    }
    if (!(target in from)) return null;
    var out = [];
    for (var j = target; j !== null; j = from[j]) out.unshift(j);
    return out;
  }
  function reveal(steps) {
    var box = tree, k = 1, r = null;
    function next() {
      if (k >= steps.length) {
        document.querySelectorAll('.row.hit').forEach(function (x) { x.classList.remove('hit'); });
        r.classList.add('hit'); focus(r); r.scrollIntoView({block: 'center'});
        say('found, ' + (steps.length - 1) + ' move' + (steps.length === 2 ? '' : 's') + ' from the start');
        return;
      }
      r = Array.prototype.find.call(box.children, function (b) { return +b.firstChild.dataset.node === steps[k]; }).firstChild;
      k++;
      if (k < steps.length) { box = r.nextElementSibling; open(r).then(next); } else next();
    }
    next();
  }
  document.getElementById('search').addEventListener('submit', function (e) {
    e.preventDefault();
    var text = document.getElementById('q').value.trim(), obj;
    try { obj = JSON.parse(text); } catch (err) { say('not JSON: ' + err.message); return; }
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) { say('give one position: a JSON object'); return; }
    if (!('game' in obj) && 'game' in nodes[0].position) obj.game = nodes[0].position.game;
    var k = key(obj);
    if (k === key(nodes[0].position)) { say('that is the start'); focus(visible()[0]); return; }
    var steps = k in index ? path(index[k]) : null;
    if (steps) { reveal(steps); return; }
    if (D.served) {
      fetchNode(k).then(function (i) {
        var found = document.getElementById('found'), box = item('(searched)', i, 1);
        found.hidden = false; found.appendChild(box); open(box.firstChild); focus(box.firstChild);
        say('not reached in the tree shown; computed on its own below');
      }, function (err) { say(err.message); });
      return;
    }
    say('not among the ' + nodes.length + ' positions in this file: explore it with grundy explore \'' + text + "'");
  });
  fill(tree, 0, 1);
  focus(visible()[0], true);
})();
"""


def render(data: dict[str, Any]) -> str:
    """The page for an explorer's :meth:`~grundy.tools.explorer.Explorer.data`."""
    esc = html.escape
    root = data["nodes"][0]
    pos = root["position"]
    brief = json.dumps(pos)
    moves = root["options"] or []
    winning = sum(1 for _, i in moves if data["nodes"][i]["outcome"] == "P")
    who = "the player to move wins" if root["outcome"] == "N" else "the player to move loses"
    inner = sum(1 for n in data["nodes"] if n["options"] is not None)
    if data["served"]:
        note = ("Served by grundy on this computer: the options of any position are computed when you "
                "open it (stop the server with Ctrl-C in its terminal).")
    else:
        note = (f"This file holds {len(data['nodes'])} positions: the options of {inner} of them are in it "
                f"(the tree {data['depth']} moves deep, {data['max_nodes']} positions at "
                "most). A position at the bottom shows its value and outcome, but a file cannot run grundy: "
                "to open it, run grundy explore on it (its JSON is on its row), or serve this tree with "
                f"{data['command']} --serve, which computes options as you open them.")
    blob = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    return "\n".join([
        "<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>grundy explore: {esc(str(pos.get('game', 'position')))}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>grundy explore: {esc(str(pos.get('game', '')))}</h1>",
        f'<div class="start"><span class="pic">{root["drawing"]}</span><div>'
        f'<div class="big" id="start-value">{esc(data["value_name"])} <b>{root["value"]}</b>, '
        f'outcome <b>{esc(root["outcome"])}</b>: {who}</div>'
        f'<div class="muted">{len(moves)} move{"s" * (len(moves) != 1)}, {winning} winning '
        "(to a P-position)</div>"
        f'<div class="json" title="{esc(brief)}">{esc(brief)}</div></div></div>',
        f'<p class="note" id="note">{esc(note)}</p>',
        '<form id="search" role="search"><label for="q">Find a position</label>'
        '<input id="q" placeholder=\'JSON, e.g. {"heaps": [1, 2]} (the game is the start&#39;s if left out)\'>'
        "<button>find</button></form>",
        '<div id="status" aria-live="polite"></div>',
        '<p class="muted">Each row: a move, the position it leads to, its value G and outcome; '
        "\u2713 winning: a move to a P-position. Keys: \u2191 \u2193 move, \u2192 opens, \u2190 closes, "
        "Enter toggles, / finds.</p>",
        '<div id="tree" role="tree" aria-label="options of the start"></div>',
        '<section id="found" hidden><h2>Searched</h2></section>',
        f'<script type="application/json" id="tree-data">{blob}</script>',
        f"<script>{_JS}</script></body></html>"])
