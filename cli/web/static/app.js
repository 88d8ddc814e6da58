// The big screen: draws the view the server sends (cli/web/view.py) and redraws it on
// every new one (server-sent events). Read-only: the only request it makes besides
// reading is stepping a replay. Text from the game goes in as text, never as markup.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const ROW_LENGTHS = [4, 5, 6, 7, 6, 5, 4];
const R = 10;  // hex radius in SVG units
const W = Math.sqrt(3) * R;  // hex width (pointy top)

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined) node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function hexPoints(cx, cy, r) {
  const points = [];
  for (let i = 0; i < 6; i++) {
    const angle = Math.PI / 180 * (60 * i - 30);
    points.push(`${(cx + r * Math.cos(angle)).toFixed(2)},${(cy + r * Math.sin(angle)).toFixed(2)}`);
  }
  return points.join(" ");
}

// One hex: a tile (its code on its colour) or an empty space (colour letter and die).
function hex(cx, cy, space) {
  const tile = space.tile;
  const colour = tile ? tile.colour : (space.colour || "none");
  const classes = ["hex", tile ? "tile" : "space", `c-${colour}`];
  if (space.changed) classes.push("changed");
  const label = tile ? tile.code : (space.letter ? `${space.letter}${space.die}` : "");
  const group = svg("g", {class: classes.join(" ")});
  group.append(svg("polygon", {points: hexPoints(cx, cy, R * 0.94)}));
  if (label) {
    const size = label.length > 3 ? 4.6 : 5.4;
    group.append(svg("text", {x: cx.toFixed(2), y: (cy + size * 0.36).toFixed(2),
                              "font-size": size}, label));
  }
  if (space.post) {
    group.append(svg("circle", {class: "post", cx: cx.toFixed(2), cy: (cy - R * 0.62).toFixed(2),
                                r: 1.3}));
  }
  if (tile) group.append(svg("title", {}, tile.name));
  return group;
}

function estateSvg(spaces) {
  const height = R * 2 + R * 1.5 * 6;
  const halves = 1 + Math.max(...spaces.map(space => space.half));  // a team board: two
  const board = svg("svg", {viewBox: `0 0 ${(7 * W * halves).toFixed(2)} ${height}`,
                            class: "board", role: "img"});
  for (const space of spaces) {
    const cx = (space.half * 7 + space.col + (7 - ROW_LENGTHS[space.row]) / 2 + 0.5) * W;
    const cy = R + space.row * R * 1.5;
    board.append(hex(cx, cy, space));
  }
  return board;
}

// A row of tiles (depots, storage), each a hex of the slot's colour.
function tileRow(slots, cls) {
  const row = svg("svg", {viewBox: `0 0 ${(Math.max(slots.length, 1) * W).toFixed(2)} ${2 * R}`,
                          class: cls, role: "img"});
  slots.forEach((slot, i) => row.append(hex((i + 0.5) * W, R, slot)));
  return row;
}

function goodsList(goods, changed) {
  const list = el("span", {class: changed ? "goods changed" : "goods"});
  for (const g of goods) list.append(el("span", {class: `good g${g}`}, String(g)));
  return list;
}

function playerCard(player, view) {
  const classes = ["estate", `piece-${player.colour}`];
  if (player.toMove) classes.push("to-move");
  if (player.seat === view.mover) classes.push("last-mover");
  const head = el("div", {class: "who"},
    el("span", {class: "dot"}),
    el("span", {class: "name"}, player.name),
    player.place !== null ? el("span", {class: "place"}, `#${player.place + 1}`) : null,
    player.toMove ? el("span", {class: "badge"}, "to move") : null,
    ...player.flags.map(flag => el("span", {class: "flag"}, flag)),
    el("span", {class: "vp"}, `${player.vp} VP`));
  const stats = el("div", {class: "stats"},
    el("span", {}, `silver ${player.silver}`),
    el("span", {}, `workers ${player.workers}`),
    player.dice.length ? el("span", {class: "dice"}, "dice ",
      ...player.dice.map(d => el("span", {class: d.used ? "die used" : "die"}, String(d.value))))
      : null,
    el("span", {}, `sold ${player.sold}`));
  const goods = [];
  for (const g of player.goods) for (let i = 0; i < g.count; i++) goods.push(g.type);
  const supplies = el("div", {class: "supplies"},
    el("span", {class: player.storageChanged ? "label changed" : "label"}, "storage"),
    player.storage.length ? tileRow(player.storage.map(t => ({tile: t})), "storage")
      : el("span", {class: "none"}, "empty"),
    el("span", {class: "label"}, "goods"),
    goods.length ? goodsList(goods, player.goodsChanged) : el("span", {class: "none"}, "none"));
  const extras = [];
  if (player.bonuses.length) extras.push(`bonus ${player.bonuses.join(", ")}`);
  if (player.knowledge.length) extras.push(`knowledge ${player.knowledge.map(n => "#" + n).join(" ")}`);
  if (player.shields.length) extras.push(`shields ${player.shields.map(n => "#" + n).join(" ")}`);
  if (player.route) extras.push(`trade route ${player.route}`);
  if (player.choosing) extras.push("choosing a board");
  return el("article", {class: classes.join(" "), "data-seat": player.seat},
    head, stats, supplies,
    extras.length ? el("div", {class: "extras"}, extras.join(" · ")) : null,
    estateSvg(player.estate));
}

function depots(view) {
  const box = el("div", {class: "depot-grid"});
  for (const depot of view.depots.numbered) {
    box.append(el("div", {class: "depot"},
      el("span", {class: "number"}, String(depot.depot)),
      tileRow(depot.slots, "slots"),
      goodsList(depot.goods, depot.goodsChanged),
      depot.shields.length ? el("span", {class: "shields"}, depot.shields.map(n => "#" + n).join(" "))
        : null));
  }
  const black = el("div", {class: "depot black"},
    el("span", {class: "number"}, "black"),
    tileRow(view.depots.black, "slots"),
    view.depots.inns ? el("span", {class: view.depots.innsChanged ? "inns changed" : "inns"},
                          `inns ×${view.depots.inns}`) : null);
  const toCome = view.goodsToCome.length ? `goods to come: ${view.goodsToCome.join(" ")}` : "";
  return [el("h2", {}, "Depots"), box, black,
          el("p", {class: "note"}, [toCome, view.whiteDie ? `white die ${view.whiteDie}` : ""]
            .filter(Boolean).join(" · "))];
}

function scores(view) {
  const seats = view.ranking.length ? view.ranking : (view.order.length ? view.order
    : view.players.map(p => p.seat));
  const players = seats.map(s => view.players[s]);
  const table = el("table", {},
    el("thead", {}, el("tr", {}, el("th", {}, ""),
      ...players.map(p => el("th", {class: `piece-${p.colour}`}, el("span", {class: "dot"}), p.name)))));
  const body = el("tbody");
  const categories = players.length ? players[0].breakdown.map(b => b.category) : [];
  categories.forEach((category, i) => {
    body.append(el("tr", {}, el("th", {}, category),
      ...players.map(p => el("td", {}, String(p.breakdown[i].vp)))));
  });
  body.append(el("tr", {class: "total"}, el("th", {}, "total"),
    ...players.map(p => el("td", {}, String(p.vp)))));
  table.append(body);
  return [el("h2", {}, view.ranking.length ? "Final scores" : "Scores (turn order)"), table,
          view.result ? el("p", {class: "result"}, view.result) : null];
}

function logLines(view) {
  const list = el("ol");
  for (const line of view.log) {
    const seat = line.seat === null ? null : view.players[line.seat];
    list.append(el("li", {class: [`k-${line.kind}`, line.recent ? "recent" : "",
                                   seat ? `piece-${seat.colour}` : ""].join(" ").trim()},
                   line.text));
  }
  return [el("h2", {}, "Log"), list];
}

// The newest lines that fit the log's box, whole: the oldest go first.
function trimLog(list) {
  while (list.children.length > 1 && list.scrollHeight > list.clientHeight + 1) {
    list.firstElementChild.remove();
  }
}

function lobby(view) {
  const list = el("ul", {class: "members"});
  for (const member of view.players) {
    list.append(el("li", {class: `piece-${member.colour}`}, el("span", {class: "dot"}), member.name));
  }
  for (let seat = view.players.length; seat < view.seats; seat++) {
    list.append(el("li", {class: "free"}, el("span", {class: "dot"}), "(a free seat)"));
  }
  return el("article", {class: "lobby"}, el("h2", {}, "At the table"), list,
            el("p", {class: "note"}, "The game shows here as soon as it starts."));
}

function render(view) {
  document.getElementById("title").textContent = view.title;
  document.getElementById("status").textContent = view.status || "";
  document.getElementById("rules").textContent = view.rules || "";
  document.body.classList.toggle("over", Boolean(view.over));
  document.body.classList.toggle("waiting", Boolean(view.lobby));
  document.body.dataset.players = String(view.players.length);
  const estates = document.getElementById("estates");
  const sections = ["depots", "scores", "log"].map(id => document.getElementById(id));
  if (view.lobby) {
    estates.replaceChildren(lobby(view));
    sections.forEach(s => s.replaceChildren());
  } else {
    estates.replaceChildren(...view.players.map(p => playerCard(p, view)));
    sections[0].replaceChildren(...depots(view));
    sections[1].replaceChildren(...scores(view).filter(Boolean));
    sections[2].replaceChildren(...logLines(view));
    trimLog(sections[2].querySelector("ol"));
  }
  const nav = document.getElementById("replay");
  nav.hidden = !view.replay;
  if (view.replay) {
    document.getElementById("position").textContent =
      `step ${view.replay.position} of ${view.replay.total}`;
  }
  document.body.dataset.version = String((Number(document.body.dataset.version) || 0) + 1);
}

function step(by, delta) {
  fetch("step", {method: "POST", body: new URLSearchParams({by, delta: String(delta)})});
}

const KEYS = {",": ["action", -1], ".": ["action", 1], "<": ["turn", -1], ">": ["turn", 1],
              "[": ["round", -1], "]": ["round", 1]};

function connect() {
  const offline = document.getElementById("offline");
  const events = new EventSource("events");
  events.onmessage = message => {
    offline.hidden = true;
    render(JSON.parse(message.data));
  };
  events.onerror = () => { offline.hidden = false; };
}

document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("#replay button")) {
    button.addEventListener("click", () => step(button.dataset.by, Number(button.dataset.delta)));
  }
  document.addEventListener("keydown", event => {
    const move = KEYS[event.key];
    if (move && !document.getElementById("replay").hidden) step(...move);
  });
  connect();
});
