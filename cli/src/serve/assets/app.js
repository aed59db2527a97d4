// solver serve: the page's script. Plain JavaScript, no libraries, no build step.
// The board, scrambles and moves; solving through POST /api/solve?stream=1 with progress and
// cancel; playback of the solution; and, under /db/NAME, a database's header and histogram.
"use strict";

const $ = (id) => document.getElementById(id);
const fmt = (n) => Number(n).toLocaleString("en-US");
const DIRS = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };

let server = null; // GET /api/server
const st = {
  w: 4, h: 4, goalName: "blank-first", goal: [], tiles: [],
  solution: null, // { moves, tiles, start, index, timer }
  controller: null,
};

// ---------- boards ----------

function goalTiles(w, h, name) {
  const n = w * h;
  const t = [];
  for (let i = 0; i < n; i++) t.push(name === "blank-last" ? (i + 1) % n : i);
  return t;
}

// Parity of the permutation that takes the goal to `tiles` (the blank included).
function permParity(tiles, goal) {
  const where = new Map(goal.map((t, i) => [t, i]));
  const p = tiles.map((t) => where.get(t));
  const seen = new Array(p.length).fill(false);
  let parity = 0;
  for (let i = 0; i < p.length; i++) {
    if (seen[i]) continue;
    let len = 0;
    for (let j = i; !seen[j]; j = p[j]) { seen[j] = true; len++; }
    parity ^= (len - 1) & 1;
  }
  return parity;
}

// A position can reach the goal when the permutation's parity equals the parity of the
// blank's Manhattan distance between its two cells.
function solvable(tiles, goal, w) {
  const a = tiles.indexOf(0), b = goal.indexOf(0);
  const dist = Math.abs(Math.floor(a / w) - Math.floor(b / w)) + Math.abs((a % w) - (b % w));
  return permParity(tiles, goal) === (dist & 1);
}

function randomPosition() {
  const t = st.goal.slice();
  for (let i = t.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [t[i], t[j]] = [t[j], t[i]];
  }
  if (!solvable(t, st.goal, st.w)) {
    // Swapping two tiles (not the blank) flips the parity.
    const cells = [];
    for (let i = 0; i < t.length && cells.length < 2; i++) if (t[i] !== 0) cells.push(i);
    [t[cells[0]], t[cells[1]]] = [t[cells[1]], t[cells[0]]];
  }
  return t;
}

function randomWalk(steps) {
  const t = st.goal.slice();
  let last = null;
  for (let k = 0; k < steps; k++) {
    const options = Object.keys(DIRS).filter((d) => d !== opposite(last) && neighbour(t.indexOf(0), d) !== null);
    const d = options[Math.floor(Math.random() * options.length)];
    applyMove(t, d);
    last = d;
  }
  return t;
}

function opposite(d) { return { U: "D", D: "U", L: "R", R: "L" }[d]; }

function neighbour(cell, d) {
  const r = Math.floor(cell / st.w) + DIRS[d][0], c = (cell % st.w) + DIRS[d][1];
  return r < 0 || r >= st.h || c < 0 || c >= st.w ? null : r * st.w + c;
}

// Moves the blank one cell in direction `d` (U D L R); returns the tile that slid, or null.
function applyMove(tiles, d) {
  const b = tiles.indexOf(0), n = neighbour(b, d);
  if (n === null) return null;
  const tile = tiles[n];
  tiles[b] = tile;
  tiles[n] = 0;
  return tile;
}

function setSize(w, h) {
  st.w = w; st.h = h;
  st.goal = goalTiles(w, h, st.goalName);
  st.tiles = st.goal.slice();
  clearSolution();
  fillHeuristics();
  render();
}

function setTiles(tiles) {
  st.tiles = tiles;
  clearSolution();
  render();
}

function render(moved) {
  const board = $("board");
  board.style.gridTemplateColumns = `repeat(${st.w}, var(--tile))`;
  const size = Math.max(34, Math.min(72, Math.floor(420 / Math.max(st.w, st.h))));
  board.style.setProperty("--tile", size + "px");
  board.replaceChildren();
  st.tiles.forEach((t, cell) => {
    const d = document.createElement("div");
    d.className = "tile" + (t === 0 ? " blank" : "") + (t !== 0 && st.goal[cell] === t ? " home" : "") + (t !== 0 && t === moved ? " moved" : "");
    d.textContent = t === 0 ? "" : String(t);
    d.dataset.cell = cell;
    d.setAttribute("role", "gridcell");
    board.appendChild(d);
  });
  const solved = st.tiles.every((t, i) => t === st.goal[i]);
  board.dataset.tiles = st.tiles.join(" ");
  board.dataset.solved = String(solved);
  board.classList.toggle("solved", solved);
  $("tiles-input").value = rows(st.tiles);
}

function rows(tiles) {
  const out = [];
  for (let r = 0; r < st.h; r++) out.push(tiles.slice(r * st.w, (r + 1) * st.w).join(" "));
  return out.join("\n");
}

// A click slides every tile between the clicked one and the blank (same row or column).
function clickCell(cell) {
  const b = st.tiles.indexOf(0);
  const [br, bc, r, c] = [Math.floor(b / st.w), b % st.w, Math.floor(cell / st.w), cell % st.w];
  let d = null, k = 0;
  if (br === r && bc !== c) { d = c > bc ? "R" : "L"; k = Math.abs(c - bc); }
  if (bc === c && br !== r) { d = r > br ? "D" : "U"; k = Math.abs(r - br); }
  if (!d) return;
  const t = st.tiles.slice();
  for (let i = 0; i < k; i++) applyMove(t, d);
  setTiles(t);
}

// ---------- solving ----------

function fillHeuristics() {
  const sel = $("heuristic");
  const keep = sel.value;
  sel.replaceChildren();
  const add = (value, text) => { const o = new Option(text, value); sel.add(o); };
  add("auto", "auto (every database that fits, else linear conflict)");
  for (const db of (server ? server.databases : [])) {
    if (db.width === st.w && db.height === st.h && db.goals.includes(st.goalName)) add("db:" + db.name, "database " + db.name + " (" + db.patterns + ")");
  }
  add("linear-conflict", "manhattan + linear conflict");
  add("manhattan", "manhattan");
  add("hamming", "misplaced tiles");
  if ([...sel.options].some((o) => o.value === keep)) sel.value = keep;
  const hasDb = [...sel.options].some((o) => o.value.startsWith("db:"));
  const kind = st.w * st.h <= 9 || hasDb ? "random" : "walk";
  $("scramble-kind").value = kind;
  $("scramble-moves").hidden = kind !== "walk";
}

function request() {
  const body = {
    puzzle: st.tiles,
    board: st.w + "x" + st.h,
    goal: st.goalName,
    algorithm: $("algorithm").value,
  };
  const h = $("heuristic").value;
  if (h.startsWith("db:")) { body.heuristic = "pdb"; body.databases = [h.slice(3)]; } else body.heuristic = h;
  const t = parseFloat($("timeout").value);
  if (t > 0) body.timeout = t;
  return body;
}

function status(text, ok) {
  $("status").textContent = text;
  $("status").classList.toggle("ok", !!ok);
}

async function solve() {
  clearSolution();
  status("");
  const start = st.tiles.slice();
  const controller = new AbortController();
  st.controller = controller;
  busy(true);
  $("progress-text").textContent = "waiting for the server…";
  try {
    const res = await fetch("/api/solve?stream=1", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request()),
      signal: controller.signal,
    });
    if (!res.ok) {
      const e = await res.json().catch(() => ({ error: res.statusText }));
      status(`${e.error} (HTTP ${res.status})`);
      return;
    }
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    let buf = "", last = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (!line.trim()) continue;
        const ev = JSON.parse(line);
        if (ev.event === "tick") $("progress-text").textContent = progressText(ev.seconds, last);
        else if (ev.event === "iteration") { last = ev; $("progress-text").textContent = progressText(ev.total_seconds, last); }
        else if (ev.event === "done") finish(ev, start);
      }
    }
  } catch (e) {
    if (e.name === "AbortError") status("cancelled", true);
    else status("the server could not be reached: " + e.message);
  } finally {
    if (st.controller === controller) st.controller = null;
    busy(false);
  }
}

function progressText(seconds, it) {
  let s = `searching… ${seconds.toFixed(1)} s`;
  if (it) s += ` — iteration ${it.iteration} (bound ${it.bound}) done, ${fmt(it.total_nodes)} nodes; next bound ${it.next_bound}`;
  return s;
}

function finish(ev, start) {
  const b = ev.body;
  if (ev.status !== 200) {
    const msg = b.error;
    status(`${msg} (HTTP ${ev.status})`);
    return;
  }
  $("length").textContent = `${b.length} moves` + (b.optimal ? " (optimal)" : " (not proven optimal)");
  $("nodes").textContent = fmt(b.nodes) + " generated";
  $("time").textContent = b.seconds.toFixed(3) + " s";
  $("used-heuristic").textContent = `${b.algorithm}, ${b.heuristic}`;
  st.solution = { moves: b.moves, tiles: b.tiles, start, index: 0, timer: null };
  $("move-count").textContent = b.length;
  $("result").hidden = false;
  status(b.length === 0 ? "already solved" : "solved: press play", true);
  showMove();
}

function busy(on) {
  $("solve").disabled = on;
  $("cancel").hidden = !on;
  $("progress").hidden = !on;
}

function clearSolution() {
  if (st.solution && st.solution.timer) clearInterval(st.solution.timer);
  st.solution = null;
  $("result").hidden = true;
  $("play").textContent = "▶ play";
}

// ---------- playback ----------

function showMove() {
  const s = st.solution;
  const t = s.start.slice();
  let moved = null;
  for (let i = 0; i < s.index; i++) moved = applyMove(t, s.moves[i]);
  st.tiles = t;
  render(moved);
  $("move-index").textContent = s.index;
  const m = $("moves");
  m.replaceChildren();
  s.tiles.forEach((tile, i) => {
    const span = document.createElement("span");
    span.textContent = tile + " ";
    if (i < s.index - 1) span.className = "done";
    if (i === s.index - 1) span.className = "now";
    m.appendChild(span);
  });
}

function step(k) {
  const s = st.solution;
  if (!s) return;
  s.index = Math.max(0, Math.min(s.moves.length, s.index + k));
  showMove();
  if (s.index >= s.moves.length) pause();
}

function play() {
  const s = st.solution;
  if (!s) return;
  if (s.timer) { pause(); return; }
  if (s.index >= s.moves.length) s.index = 0;
  $("play").textContent = "❚❚ pause";
  const tick = () => step(1);
  s.timer = setInterval(tick, 1000 / Number($("speed").value));
}

function pause() {
  const s = st.solution;
  if (s && s.timer) { clearInterval(s.timer); s.timer = null; }
  $("play").textContent = "▶ play";
}

// ---------- database pages ----------

async function showDatabase(name) {
  $("db-view").hidden = false;
  $("db-name").textContent = "database " + name;
  document.title = name + " — solver";
  const res = await fetch("/api/databases/" + encodeURIComponent(name));
  const d = await res.json();
  if (!res.ok) { $("db-description").textContent = d.error; return; }
  $("db-description").textContent = d.description;
  const fields = $("db-fields");
  const add = (k, v) => { const dt = document.createElement("dt"); dt.textContent = k; const dd = document.createElement("dd"); dd.textContent = v; fields.append(dt, dd); };
  add("board", d.board);
  add("built for goal", d.goal);
  add("serves goals", d.goals.join(", ") || "other goals only");
  add("kind", d.zero_aware ? "zero-aware (the blank's region counts)" : "zero-unaware");
  add("covers every tile", d.complete ? "yes" : "no");
  add("file", d.file + " (" + fmt(d.file_bytes) + " bytes)");
  add("loaded in", d.load_seconds.toFixed(3) + " s");
  const box = $("db-tables");
  for (const t of d.table_list) {
    const h = document.createElement("h3");
    h.textContent = `table ${t.table}: tiles ${t.pattern}`;
    const p = document.createElement("p");
    p.textContent = `${t.tiles} tiles, ${t.kind}, ${fmt(t.entries)} entries as ${t.encoding} (${t.compression}, ${fmt(t.stored_bytes)} bytes stored), largest value ${t.max_value}` + (t.histogram ? `, mean ${t.histogram.mean.toFixed(3)}` : "");
    box.append(h, p);
    if (t.histogram) box.append(chart(t.histogram));
    else { const n = document.createElement("p"); n.textContent = t.note; box.append(n); }
  }
}

// The value histogram as an inline SVG bar chart.
function chart(hist) {
  const NS = "http://www.w3.org/2000/svg";
  const el = (tag, attrs, text) => { const e = document.createElementNS(NS, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); if (text !== undefined) e.textContent = text; return e; };
  const counts = hist.counts;
  const W = 640, H = 240, L = 70, B = 30, T = 12, R = 10;
  const max = Math.max(1, ...counts);
  const bw = (W - L - R) / counts.length;
  const svg = el("svg", { class: "chart", width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img" });
  svg.append(el("title", {}, "entries per value"));
  for (let k = 0; k <= 4; k++) {
    const y = T + (H - T - B) * (1 - k / 4);
    svg.append(el("line", { x1: L, x2: W - R, y1: y, y2: y, stroke: "#e3e6ee" }));
    svg.append(el("text", { x: L - 6, y: y + 4, "text-anchor": "end" }, fmt(Math.round(max * k / 4))));
  }
  const every = Math.ceil(counts.length / 20);
  counts.forEach((c, v) => {
    const h = (H - T - B) * c / max;
    const r = el("rect", { class: "bar", x: L + v * bw + 1, y: H - B - h, width: Math.max(1, bw - 2), height: h });
    r.append(el("title", {}, `value ${v}: ${fmt(c)} entries`));
    svg.append(r);
    if (v % every === 0) svg.append(el("text", { x: L + (v + 0.5) * bw, y: H - B + 14, "text-anchor": "middle" }, String(v)));
  });
  svg.append(el("text", { x: (L + W) / 2, y: H - 2, "text-anchor": "middle" }, "value (moves of the pattern's tiles)"));
  return svg;
}

// ---------- wiring ----------

function sizeFromControls() {
  const v = $("size").value;
  $("custom-size").hidden = v !== "custom";
  if (v === "custom") {
    const clamp = (x) => Math.max(2, Math.min(8, Math.floor(Number(x)) || 2));
    return [clamp($("width").value), clamp($("height").value)];
  }
  return v.split("x").map(Number);
}

function wire() {
  $("size").addEventListener("change", () => setSize(...sizeFromControls()));
  $("width").addEventListener("change", () => setSize(...sizeFromControls()));
  $("height").addEventListener("change", () => setSize(...sizeFromControls()));
  $("goal").addEventListener("change", () => { st.goalName = $("goal").value; setSize(st.w, st.h); });
  $("scramble-kind").addEventListener("change", () => { $("scramble-moves").hidden = $("scramble-kind").value !== "walk"; });
  $("scramble").addEventListener("click", () => {
    if ($("scramble-kind").value === "walk") setTiles(randomWalk(Math.max(1, Math.min(1000, Number($("scramble-moves").value) || 40))));
    else setTiles(randomPosition());
  });
  $("reset-board").addEventListener("click", () => setTiles(st.goal.slice()));
  $("board").addEventListener("click", (e) => { const c = e.target.dataset && e.target.dataset.cell; if (c !== undefined) clickCell(Number(c)); });
  $("board").addEventListener("keydown", (e) => {
    // An arrow slides the tile that moves that way: the blank moves the opposite way.
    const d = { ArrowLeft: "R", ArrowRight: "L", ArrowUp: "D", ArrowDown: "U" }[e.key];
    if (!d) return;
    e.preventDefault();
    const t = st.tiles.slice();
    if (applyMove(t, d) !== null) setTiles(t);
  });
  $("tiles-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const parts = $("tiles-input").value.trim().split(/[\s,]+/).filter((x) => x !== "");
    const side = Math.round(Math.sqrt(parts.length));
    if (parts.length !== st.w * st.h && side * side === parts.length && side >= 2 && side <= 8) {
      // A square count names its board: switch to it.
      $("size").value = ["3x3", "4x4", "5x5"].includes(`${side}x${side}`) ? `${side}x${side}` : "custom";
      $("width").value = side;
      $("height").value = side;
      $("custom-size").hidden = $("size").value !== "custom";
      setSize(side, side);
    }
    const n = st.w * st.h;
    if (parts.length !== n) { status(`expected ${n} tiles for a ${st.w}x${st.h} board, found ${parts.length}`); return; }
    const t = parts.map((x) => (x === "_" ? 0 : Number(x)));
    const ok = t.every((x) => Number.isInteger(x) && x >= 0 && x < n) && new Set(t).size === n;
    if (!ok) { status(`give each of the numbers 0 to ${n - 1} once (0 or _ for the blank)`); return; }
    status(solvable(t, st.goal, st.w) ? "" : "this position cannot reach the goal (try the other goal)");
    setTiles(t);
  });
  $("solve").addEventListener("click", solve);
  $("cancel").addEventListener("click", () => st.controller && st.controller.abort());
  $("play").addEventListener("click", play);
  $("step").addEventListener("click", () => { pause(); step(1); });
  $("back").addEventListener("click", () => { pause(); step(-1); });
  $("first").addEventListener("click", () => { pause(); if (st.solution) { st.solution.index = 0; showMove(); } });
  $("speed").addEventListener("input", () => {
    $("speed-text").textContent = $("speed").value;
    const s = st.solution;
    if (s && s.timer) { pause(); play(); }
  });
}

async function main() {
  try {
    server = await (await fetch("/api/server")).json();
  } catch (e) {
    server = { databases: [], algorithms: [{ name: "ida" }] };
  }
  const links = $("db-links");
  links.replaceChildren("databases: ");
  if (!server.databases.length) links.append("none loaded");
  server.databases.forEach((d, i) => {
    const a = document.createElement("a");
    a.href = "/db/" + encodeURIComponent(d.name);
    a.textContent = d.name;
    if (i) links.append(", ");
    links.append(a);
  });
  const m = location.pathname.match(/^\/db\/(.+)$/);
  if (m) { showDatabase(decodeURIComponent(m[1])); return; }
  for (const a of server.algorithms) $("algorithm").add(new Option(a.name + (a.optimal ? "" : " (not optimal)"), a.name));
  $("timeout").value = Math.min(30, server.limits ? server.limits.max_seconds : 30);
  wire();
  $("solve-view").hidden = false;
  setSize(4, 4);
}

main();
