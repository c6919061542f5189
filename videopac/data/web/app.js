// The web ledger's page: follows the game over server-sent events and books notation lines.
// Every piece of game data is put into the page as text (textContent), never as markup.
"use strict";

const store = {
  get(key) { try { return localStorage.getItem("ledger." + key); } catch (e) { return null; } },
  set(key, value) { try { localStorage.setItem("ledger." + key, value); } catch (e) { /* private mode */ } },
  drop(key) { try { localStorage.removeItem("ledger." + key); } catch (e) { /* private mode */ } },
};

let WORDS = {};                     // the page's words in the chosen language, from the catalog
let lang = store.get("lang") || (document.documentElement.lang === "de" ? "de" : "en");
let view = null;
let me = { code: store.get("code") || "", role: store.get("role") };   // role null: not joined
let selected = null;                 // the country tapped on the board
let allies = new Set();              // free alliances being chosen
let battle = { aw: null, dw: null, winner: null };
let message = null;                  // {text, bad}

function t(key, params) {
  let text = WORDS[key] || key;
  for (const [name, value] of Object.entries(params || {})) text = text.split("{" + name + "}").join(String(value));
  return text;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "onclick") node.addEventListener("click", value);
    else if (key === "class") node.className = value;
    else if (key === "style") node.style.cssText = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function quote(name) { return /[\s#+"]/.test(name) ? '"' + name + '"' : name; }
function side(names) { return names.map(quote).join("+"); }
function signed(n) { return (n > 0 ? "+" : "") + n; }
function player(name) { return view.players.find((p) => p.name === name); }
function cname(country) { return (view.country_names[lang] || {})[country] || country; }   // German names in German

function badge(name, kind) {
  const p = player(name);
  return el("span", { class: "badge " + kind, style: p ? "--c:" + p.colour : "", title: name + " (" + t(kind + "_mark") + ")" },
    p ? p.letter : "?");
}

// --- who may book ---------------------------------------------------------------------------
function seated() { return me.role !== null && me.role !== undefined; }
function mayBook() {
  if (!view || !seated() || me.role === "viewer") return false;
  if (me.role === "keeper" || view.anyone) return true;
  if (view.movers === null) return true;
  return view.movers.includes(me.role);
}

// --- talking to the server ----------------------------------------------------------------------
async function post(path, body) {
  let response;
  try {
    response = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  } catch (e) {
    return { ok: false, error: t("network") };
  }
  try { return await response.json(); } catch (e) { return { ok: false, error: t("network") }; }
}

async function book(line) {
  if (!view) return;
  const answer = await post("/api/book", { code: me.code, role: me.role, seq: view.seq, line: line, lang: lang });
  if (answer.ok) {
    message = { text: t("booked", { line: answer.line }), bad: false };
    selected = null; allies = new Set(); battle = { aw: null, dw: null, winner: null };
  } else {
    message = { text: t("refused", { reason: answer.error }), bad: true };
  }
  render();
}

async function join(role) {
  const input = document.getElementById("code-input");
  const code = input ? input.value.trim() : me.code;
  if (role !== "viewer") {
    const answer = await post("/api/join", { code: code, role: role, lang: lang });
    if (!answer.ok) { message = { text: t("refused", { reason: answer.error }), bad: true }; render(); return; }
  }
  me = { code: code, role: role };
  store.set("code", code); store.set("role", role);
  message = null;
  render();
}

function leave() { me.role = null; store.drop("role"); render(); }

function connect() {
  const live = document.getElementById("live");
  const source = new EventSource("/api/stream");
  source.addEventListener("view", (e) => {
    const next = JSON.parse(e.data);
    if (view && (next.seq !== view.seq || next.game !== view.game)) { selected = null; allies = new Set(); }
    view = next;
    render();
  });
  source.onopen = () => { live.className = "live on"; live.dataset.t = "online"; live.textContent = t("online"); };
  source.onerror = () => { live.className = "live off"; live.dataset.t = "offline"; live.textContent = t("offline"); };
}

// --- the page -----------------------------------------------------------------------------------
function render() {
  if (!view) return;
  document.documentElement.lang = lang;
  document.body.dataset.seq = view.seq;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  for (const button of document.querySelectorAll(".lang")) button.classList.toggle("chosen", button.dataset.lang === lang);
  if (seated() && me.role !== "keeper" && me.role !== "viewer" && me.role !== "" && !view.players.some((p) => p.name === me.role)) leave();
  if (seated() && me.role === "" && view.players.length) leave();
  renderSeat();
  renderMessage();
  renderNow();
  renderContest();
  renderEndgame();
  renderPlayers();
  renderBoard();
  renderLog();
  const chart = document.getElementById("chart");
  const src = "/chart.svg?seq=" + view.seq + "&game=" + view.game;
  if (chart.getAttribute("src") !== src) chart.setAttribute("src", src);
  chart.alt = t("chart");
}

function roleName(role) {
  if (role === "keeper") return t("keeper");
  if (role === "viewer") return t("viewer");
  if (role === "") return t("setup_seat");
  return role;
}

function renderSeat() {
  const box = document.getElementById("seat");
  box.replaceChildren();
  if (seated()) {
    box.append(el("p", { id: "seat-line" }, t("joined_as", { role: roleName(me.role) }), " ",
      el("button", { type: "button", class: "link", id: "change-seat", onclick: leave }, t("change_seat"))));
    return;
  }
  const roles = view.players.length ? view.players.map((p) => p.name) : [""];
  box.append(el("h2", {}, t("join_title")),
    el("label", { for: "code-input" }, t("code")),
    el("input", { id: "code-input", inputmode: "numeric", autocomplete: "off", value: me.code, maxlength: 32 }),
    el("p", {}, t("join_as")),
    el("div", { class: "buttons" },
      roles.map((r) => el("button", { type: "button", class: "seat", "data-role": r, onclick: () => join(r) }, roleName(r))),
      el("button", { type: "button", class: "seat", "data-role": "keeper", onclick: () => join("keeper") }, t("keeper")),
      el("button", { type: "button", class: "seat", "data-role": "viewer", onclick: () => join("viewer") }, t("viewer"))));
}

function renderMessage() {
  const box = document.getElementById("message");
  box.hidden = !message;
  if (message) { box.textContent = message.text; box.className = message.bad ? "bad" : "good"; }
}

function action(line, label, extra) {
  return el("button", { type: "button", class: "act" + (extra ? " " + extra : ""), "data-line": line,
    disabled: !mayBook(), onclick: () => book(line) }, label);
}

function turnText() {
  const v = view;
  if (v.phase === "over") return v.winner ? t("winner_is", { name: v.winner }) : t("draw_game");
  if (v.phase === "setup") return v.players.length ? t("choose_start") : t("no_players");
  if (v.phase === "homelands") return t("choose_homeland", { name: v.movers[0] });
  if (v.phase === "alliances" && v.legal.allies) {
    const a = v.legal.allies;
    return t("choose_allies", { name: a.player, zone: a.zone, limit: a.limit });
  }
  if (v.phase === "final-round") return t("final_chance", { name: v.turn.attacker });
  if (v.phase === "play") return t("turn_of", { name: v.turn.attacker });
  return t("phase_" + v.phase);
}

function renderNow() {
  const v = view;
  document.getElementById("turn").replaceChildren(
    el("span", { class: "phase" }, t("phase_" + v.phase)), " · ", el("span", { id: "turn-text" }, turnText()));
  const g = v.generals || {};
  document.getElementById("generals").replaceChildren(
    ...(g.latest ? [el("p", { id: "general-why" }, g.latest.why[lang] || g.latest.why.en)] : []),
    ...(g.thinking ? [el("p", { class: "hint", id: "general-thinking" }, t("thinking", { name: g.thinking }))] : []));
  const box = document.getElementById("actions");
  box.replaceChildren();
  if (seated() && me.role !== "viewer") {
    box.append(el("p", { class: "hint", id: "who-books" }, mayBook() ? t("may_book")
      : t("not_your_move", { names: (v.movers || []).join(", ") })));
  } else if (me.role === "viewer") {
    box.append(el("p", { class: "hint" }, t("viewer_note")));
  }
  const L = v.legal;
  const buttons = [];
  if (v.phase === "setup" && !v.players.length) {
    const input = el("input", { id: "names-input", autocomplete: "off", placeholder: t("names"), maxlength: 200 });
    box.append(input, el("button", { type: "button", class: "act", id: "seat-players", disabled: !mayBook(),
      onclick: () => { const names = input.value.trim().split(/[\s,]+/).filter(Boolean); if (names.length) book("players " + names.map(quote).join(" ")); } },
      t("seat_players")));
  }
  for (const name of L.start) buttons.push(action("start " + quote(name), t("starts", { name: name })));
  if (L.allies) {
    const a = L.allies;
    const sum = [...allies].reduce((total, c) => total + countryValue(c), 0);
    box.append(el("p", { id: "allies-sum" }, t("allies_sum", { sum: sum, limit: a.limit })));
    buttons.push(action("allies " + quote(a.player) + " " + ([...allies].map(quote).join(" ") || "-"),
      allies.size ? t("book_allies") : t("no_allies")));
  }
  if (selected) buttons.push(...countryActions(selected));
  else if (L.attack.length || L.ally.length) box.append(el("p", { class: "hint", id: "tap-country" }, t("tap_country")));
  if (L.pass) buttons.push(action("pass " + quote(L.pass), t("pass_btn", { rule: v.phase === "final-round" ? 20 : 14 })));
  if (L.challenge) buttons.push(action("challenge " + L.challenge.map(quote).join(" "), t("challenge_btn", { a: L.challenge[0], b: L.challenge[1] })));
  for (const pair of L.pact) buttons.push(action("pact " + pair.map(quote).join(" "), t("pact_btn", { names: pair.join(" + ") }), "minor"));
  for (const pair of L.break) buttons.push(action("break " + pair.map(quote).join(" "), t("break_btn", { names: pair.join(" + ") }), "minor"));
  if (L.time) buttons.push(action("time up", t("time_btn"), "minor"));
  if (v.undo) buttons.push(action("undo", t("undo_btn"), "undo"));
  const mine = seated() ? player(me.role) : null;       // a seat of the game: the computer may play it
  if (mine && v.phase !== "over") {
    const line = "seat " + quote(mine.name) + (mine.computer ? " person" : " cpu");
    buttons.push(el("button", { type: "button", class: "act minor", "data-line": line, id: "seat-toggle",
      onclick: () => book(line) }, t(mine.computer ? "take_over" : "give_back")));
  }
  box.append(el("div", { class: "buttons" }, buttons));
}

function countryValue(name) {
  for (const zone of view.zones) for (const c of zone.countries) if (c.name === name) return c.value;
  return 0;
}

function countryActions(country) {
  const L = view.legal;
  const out = [];
  if (L.homeland.includes(country)) out.push(action("homeland " + quote(view.movers[0]) + " " + quote(country), t("homeland_btn", { name: view.movers[0] })));
  for (const a of L.attack.filter((x) => x.country === country)) {
    const label = t("attack_btn", { country: cname(country) }) + " (" + t("kind_" + a.kind) + ")" + (a.side.length > 1 ? " " + t("joint", { side: a.side.join(" + ") }) : "");
    out.push(action("attack " + side(a.side) + " " + quote(country), label));
  }
  for (const a of L.ally.filter((x) => x.country === country)) {
    const label = t("ally_btn", { country: cname(country) }) + (a.side.length > 1 ? " " + t("joint", { side: a.side.join(" + ") }) : "");
    out.push(action("ally " + side(a.side) + " " + quote(country), label));
  }
  if (!out.length && !(L.allies && L.allies.free.includes(country))) out.push(el("span", { class: "hint" }, t("nothing_here", { country: cname(country) })));
  return out;
}

function pick(group, value, label, chosen, onpick) {
  return el("button", { type: "button", class: "pick" + (chosen ? " chosen" : ""), "data-group": group, "data-value": value,
    onclick: () => { onpick(value); render(); } }, label);
}

function renderContest() {
  const box = document.getElementById("contest");
  const c = view.contest;
  box.hidden = !c;
  box.replaceChildren();
  if (!c) return;
  const [a, d] = c.kind === "war" ? [c.side[0], c.defenders[0]] : [c.attacker, c.defender];
  if (c.kind === "war") {
    box.append(el("h2", {}, t("war_title", { target: cname(c.target) })),
      el("p", { id: "war-line" }, t("war_line", { attacker: c.side.join(" + "), defender: c.defenders.join(" + "), a: c.wins[0], d: c.wins[1], n: c.battles })));
  } else {
    box.append(el("h2", {}, t("confrontation_title", { a: c.challenger, b: c.opponent })),
      el("p", {}, t("confrontation_line", { attacker: c.attacker })));
  }
  const rows = [a, d].map((n) => el("tr", { "data-player": n }, el("td", {}, badge(n, "conquered"), " ", n),
    el("td", { class: "weapons" }, c.weapons_left[n].map((w) => t("weapon_" + w)).join(", ") || "–"),
    el("td", { class: "num energy", "data-player": n }, c.energy[n])));
  box.append(el("table", { class: "fighters" },
    el("tr", {}, el("th", {}, ""), el("th", {}, t("weapons_left")), el("th", {}, t("energy_type"))), rows));
  const fought = view.war ? view.war.battles : [];
  if (fought.length) {
    box.append(el("ol", { id: "battles" }, fought.map((b) => el("li", {},
      b.weapons.map((w) => t("weapon_" + w)).join(" – ") + ": " + (b.winner || t("draw"))
      + (b.energies ? " (" + b.energies.join(" / ") + ")" : "")))));
  }
  const L = view.legal;
  if (L.battle) {
    const weapons = (n) => c.weapons_left[n];
    const winners = L.battle.winners;
    const form = el("div", { class: "form", id: "battle-form" }, el("h3", {}, t("battle")),
      el("p", {}, t("attacker_weapon", { name: a })), el("div", { class: "buttons" }, "PST".split("").map((w) =>
        weapons(a).includes(w) ? pick("aw", w, t("weapon_" + w), battle.aw === w, (x) => { battle.aw = x; }) : null)),
      el("p", {}, t("defender_weapon", { name: d })), el("div", { class: "buttons" }, "PST".split("").map((w) =>
        weapons(d).includes(w) ? pick("dw", w, t("weapon_" + w), battle.dw === w, (x) => { battle.dw = x; }) : null)),
      el("p", {}, t("winner")), el("div", { class: "buttons" }, winners.map((w) =>
        pick("winner", w || "draw", w || t("draw"), battle.winner === (w || "draw"), (x) => { battle.winner = x; }))),
      el("p", {}, t("energies_left")),
      el("div", { class: "pair" }, el("input", { id: "energy-a", type: "number", inputmode: "numeric", min: 0, placeholder: a }),
        el("input", { id: "energy-d", type: "number", inputmode: "numeric", min: 0, placeholder: d })));
    const ready = battle.aw && battle.dw && battle.winner;
    const bookBattle = el("button", { type: "button", class: "act", id: "book-battle", disabled: !mayBook() || !ready,
      onclick: () => {
        const ea = document.getElementById("energy-a").value.trim(), ed = document.getElementById("energy-d").value.trim();
        const energies = ea !== "" && ed !== "" ? " " + ea + " " + ed : "";
        book("battle " + battle.aw + " " + battle.dw + " " + (battle.winner === "draw" ? "draw" : quote(battle.winner)) + energies);
      } }, t("book_battle"));
    form.append(bookBattle);
    box.append(form);
  }
  const results = L.war ? L.war.map((r) => ({ verb: "war", name: r.winner, most: r.most }))
    : (L.survivor || []).map((r) => ({ verb: "survivor", name: r.player, most: r.most }));
  if (results.length) {
    const form = el("div", { class: "form", id: "result-form" }, el("h3", {}, t(L.war ? "war_result" : "survivor")));
    for (const r of results) {
      const input = el("input", { type: "number", inputmode: "numeric", min: 0, max: r.most, value: r.most === 0 ? 0 : "",
        class: "result-energy", "data-player": r.name, placeholder: "0–" + r.most, "aria-label": t(L.war ? "loser_energy" : "survivor_energy") });
      form.append(el("div", { class: "pair" }, input, el("button", { type: "button", class: "act", "data-result": r.name, disabled: !mayBook(),
        onclick: () => { if (input.value.trim() !== "") book(r.verb + " " + quote(r.name) + " " + input.value.trim()); } },
      t(L.war ? "book_war" : "book_survivor", { name: r.name }))));
    }
    box.append(form);
  }
}

function renderEndgame() {
  const box = document.getElementById("endgame");
  const e = view.endgame;
  box.hidden = !e;
  box.replaceChildren();
  if (!e) return;
  box.append(el("h2", {}, t("endgame_title")), el("p", {}, t("challenge_order")),
    el("ol", { id: "challenge-order" }, e.order.map(([n, p]) => el("li", {}, badge(n, "conquered"), " ", n + " " + p))));
  if (e.fought.length) box.append(el("p", {}, t("fought", { names: e.fought.join(", ") })));
  if (e.expected) {
    box.append(el("p", {}, t("next_challenge", { a: e.expected[0], b: e.expected[1] })),
      el("p", { id: "endgame-energies" }, t("energies", { list: Object.entries(e.energies).map(([n, x]) => n + " " + x).join(", ") })));
  }
}

function renderPlayers() {
  document.getElementById("chest").textContent = t("war_chest", { amount: signed(view.war_chest) });
  const table = document.getElementById("players");
  table.replaceChildren(el("tr", {}, ["", "col_player", "col_homeland", "col_chips", "col_pbr"].map((k) => el("th", {}, k ? t(k) : ""))));
  for (const p of view.players) {
    const notes = [];
    if (p.eliminated) notes.push(t("out"));
    if (p.pact.length) notes.push(t("allied_with", { names: p.pact.join(", ") }));
    if (p.seat) notes.push(p.seat[lang] || p.seat.en);
    table.append(el("tr", { "data-player": p.name, class: p.eliminated ? "out" : "" },
      el("td", {}, el("span", { class: "badge homeland", style: "--c:" + p.colour }, p.letter)),
      el("td", { class: "name" }, p.name, notes.length ? el("small", {}, " " + notes.join("; ")) : null),
      el("td", {}, p.homeland ? cname(p.homeland) : "–"),
      el("td", { class: "num chips" }, p.chips),
      el("td", { class: "num pbr" }, p.pbr)));
  }
}

function renderBoard() {
  const board = document.getElementById("board");
  board.replaceChildren();
  const L = view.legal;
  for (const zone of view.zones) {
    const tiles = zone.countries.map((c) => {
      const marks = [];
      if (c.homeland) marks.push(badge(c.homeland, "homeland"));
      for (const [n, kind] of c.holders) marks.push(badge(n, kind));
      const free = L.allies && L.allies.free.includes(c.name);
      const classes = ["country"];
      if (selected === c.name) classes.push("selected");
      if (allies.has(c.name)) classes.push("chosen");
      if (free) classes.push("free");
      return el("button", { type: "button", class: classes.join(" "), "data-country": c.name,
        onclick: () => {
          if (free) { if (allies.has(c.name)) allies.delete(c.name); else allies.add(c.name); }
          selected = selected === c.name ? null : c.name;
          render();
        } },
        el("span", { class: "cname" }, cname(c.name)), el("span", { class: "cvalue" }, c.value), el("span", { class: "marks" }, marks));
    });
    board.append(el("div", { class: "zone", "data-zone": zone.zone }, el("h3", {}, t("zone", { n: zone.zone })), el("div", { class: "tiles" }, tiles)));
  }
}

function renderLog() {
  const log = document.getElementById("log");
  log.replaceChildren(...view.log.map((entry) => el("li", { value: entry.n, "data-n": entry.n },
    el("code", {}, entry.line), entry.text[lang] ? el("div", { class: "effects" }, entry.text[lang]) : null)));
}

// --- start -----------------------------------------------------------------------------------------
async function loadWords() {
  try { WORDS = await (await fetch("/api/words?lang=" + lang)).json(); } catch (e) { /* the keys stay readable */ }
}

async function start() {
  await loadWords();
  for (const button of document.querySelectorAll(".lang")) {
    button.addEventListener("click", async () => { lang = button.dataset.lang; store.set("lang", lang); await loadWords(); render(); });
  }
  connect();
}

start();
