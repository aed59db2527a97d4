// solver serve: the page's script. Plain JavaScript, no libraries, no build step.
// The start and goal boards (any goal: tiles swapped on the goal board or typed), scrambles and
// moves; a picture cut into the tiles (read and cropped in the browser, never sent); the
// position in the page's address, to share; solving through POST /api/solve?stream=1 with
// progress and cancel; playback of the solution; and, under /db/NAME, a database's header
// and histogram.
"use strict";

const $ = (id) => document.getElementById(id);
const fmt = (n) => Number(n).toLocaleString("en-US");
const DIRS = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };

let server = null; // GET /api/server
const st = {
  w: 4, h: 4, goalName: "blank-first", goal: [], tiles: [],
  solution: null, // { moves, tiles, start, index, timer }
  controller: null,
  picture: null, // { img, cx, cy, zoom, url, pieces }: pieces[cell] = the tile whose piece it is
  pick: null, // the goal board's cell picked by a first click, waiting for the second
  drag: null, // the goal board's cell a drag started on
};

// ---------- boards ----------

function goalTiles(w, h, name) {
  const n = w * h;
  const t = [];
  for (let i = 0; i < n; i++) t.push(name === "blank-last" ? (i + 1) % n : i);
  return t;
}

// The name of a goal: blank-first, blank-last, or custom.
function goalNameOf(tiles, w, h) {
  for (const name of ["blank-first", "blank-last"]) {
    if (goalTiles(w, h, name).every((t, i) => t === tiles[i])) return name;
  }
  return "custom";
}

// The goal as the API reads it: its name, or its tiles.
function goalSpec() {
  return st.goalName === "custom" ? st.goal.join(" ") : st.goalName;
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
  if (st.goalName === "custom") st.goalName = "blank-first";
  $("goal").value = st.goalName;
  st.goal = goalTiles(w, h, st.goalName);
  st.tiles = st.goal.slice();
  st.pick = null;
  clearSolution();
  fillHeuristics();
  if (st.picture) { st.picture.pieces = st.goal.slice(); drawCrop(); cutPicture(); }
  render();
}

function setTiles(tiles) {
  st.tiles = tiles;
  clearSolution();
  render();
}

// A new goal: its name shown, the heuristics that serve it offered, the start checked.
function setGoal(tiles) {
  st.goal = tiles;
  st.goalName = goalNameOf(tiles, st.w, st.h);
  $("goal").value = st.goalName;
  st.pick = null;
  clearSolution();
  fillHeuristics();
  status(solvable(st.tiles, st.goal, st.w) ? "" : "this start cannot reach this goal: swap two tiles of either, or scramble");
  render();
}

function tileSize() {
  return Math.max(34, Math.min(72, Math.floor(420 / Math.max(st.w, st.h))));
}

function render(moved) {
  const size = tileSize();
  const board = $("board");
  drawBoard(board, st.tiles, size, moved);
  const solved = st.tiles.every((t, i) => t === st.goal[i]);
  board.dataset.tiles = st.tiles.join(" ");
  board.dataset.solved = String(solved);
  board.classList.toggle("solved", solved);
  const goal = $("goal-board");
  drawBoard(goal, st.goal, Math.max(22, Math.floor(size * 0.6)), null);
  goal.dataset.tiles = st.goal.join(" ");
  $("tiles-input").value = rows(st.tiles);
  $("goal-input").value = rows(st.goal);
  showAddress();
}

// Draws `tiles` into `board` with tiles of `size` pixels: numbers, or pieces of the picture
// (each tile shows the piece of its cell in the goal the picture was cut for).
function drawBoard(board, tiles, size, moved) {
  const goalBoard = board.id === "goal-board";
  const pic = st.picture && st.picture.url;
  board.style.gridTemplateColumns = `repeat(${st.w}, var(--tile))`;
  board.style.setProperty("--tile", size + "px");
  board.classList.toggle("nonum", !!pic && !$("numbers").checked);
  if (pic) {
    board.style.setProperty("--pic", `url("${pic}")`);
    board.style.setProperty("--pic-size", `${st.w * size}px ${st.h * size}px`);
  }
  const solved = !goalBoard && tiles.every((t, i) => t === st.goal[i]);
  board.replaceChildren();
  tiles.forEach((t, cell) => {
    const d = document.createElement("div");
    const home = !goalBoard && t !== 0 && st.goal[cell] === t;
    d.className = "tile" + (t === 0 ? " blank" : "") + (home ? " home" : "") + (t !== 0 && t === moved ? " moved" : "") + (goalBoard && st.pick === cell ? " picked" : "");
    d.textContent = t === 0 ? "" : String(t);
    d.dataset.cell = cell;
    if (pic && (t !== 0 || solved)) {
      const piece = st.picture.pieces.indexOf(t);
      d.classList.add("pic");
      d.dataset.piece = piece;
      d.style.backgroundPosition = `${-(piece % st.w) * size}px ${-Math.floor(piece / st.w) * size}px`;
    }
    d.setAttribute("role", "gridcell");
    board.appendChild(d);
  });
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

// The goal board: a click picks a tile and a second click swaps it with the first; a drag
// from one tile onto another swaps them.
function goalPointerDown(e) {
  const t = e.target.closest(".tile");
  if (!t) return;
  e.preventDefault();
  st.drag = Number(t.dataset.cell);
}

function goalPointerUp(e) {
  const t = e.target.closest && e.target.closest("#goal-board .tile");
  const from = st.drag;
  st.drag = null;
  if (!t || from === null) return;
  const cell = Number(t.dataset.cell);
  if (cell !== from) { swapGoal(from, cell); return; }
  if (st.pick === null) { st.pick = cell; render(); return; }
  if (st.pick === cell) { st.pick = null; render(); return; }
  swapGoal(st.pick, cell);
}

function swapGoal(a, b) {
  const g = st.goal.slice();
  [g[a], g[b]] = [g[b], g[a]];
  setGoal(g);
}

// ---------- pictures ----------

// Reads the chosen image in the browser (a data: address; nothing is uploaded).
function loadPicture(file) {
  if (!file) return;
  if (!/^image\//.test(file.type)) { status("choose an image file (PNG, JPEG, …)"); return; }
  const reader = new FileReader();
  reader.onload = () => {
    const img = new Image();
    img.onload = () => {
      st.picture = { img, cx: img.naturalWidth / 2, cy: img.naturalHeight / 2, zoom: 1, url: null, pieces: st.goal.slice() };
      $("crop-zoom").value = 100;
      $("crop").hidden = false;
      $("no-picture").hidden = false;
      drawCrop();
      cutPicture();
      render();
    };
    img.onerror = () => status("the browser cannot read this file as an image");
    img.src = reader.result;
  };
  reader.readAsDataURL(file);
}

// The part of the picture shown, in the image's pixels: the board's shape, as large as the
// frame size allows, around the chosen centre and inside the image.
function cropRect() {
  const p = st.picture, iw = p.img.naturalWidth, ih = p.img.naturalHeight, aspect = st.w / st.h;
  let w = iw, h = iw / aspect;
  if (h > ih) { h = ih; w = ih * aspect; }
  w *= p.zoom; h *= p.zoom;
  const x = Math.max(0, Math.min(iw - w, p.cx - w / 2)), y = Math.max(0, Math.min(ih - h, p.cy - h / 2));
  return { x, y, w, h };
}

// The preview: the picture, darkened outside the frame, the frame cut into the board's pieces.
function drawCrop() {
  const p = st.picture, c = $("crop-canvas");
  const scale = Math.min(320 / p.img.naturalWidth, 240 / p.img.naturalHeight);
  c.width = Math.max(1, Math.round(p.img.naturalWidth * scale));
  c.height = Math.max(1, Math.round(p.img.naturalHeight * scale));
  p.scale = scale;
  const ctx = c.getContext("2d");
  ctx.drawImage(p.img, 0, 0, c.width, c.height);
  const r = cropRect(), [x, y, w, h] = [r.x * scale, r.y * scale, r.w * scale, r.h * scale];
  ctx.fillStyle = "rgba(0, 0, 0, 0.5)";
  ctx.fillRect(0, 0, c.width, y);
  ctx.fillRect(0, y + h, c.width, c.height - y - h);
  ctx.fillRect(0, y, x, h);
  ctx.fillRect(x + w, y, c.width - x - w, h);
  ctx.strokeStyle = "rgba(255, 255, 255, 0.7)";
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let i = 1; i < st.w; i++) { ctx.moveTo(x + (w * i) / st.w, y); ctx.lineTo(x + (w * i) / st.w, y + h); }
  for (let i = 1; i < st.h; i++) { ctx.moveTo(x, y + (h * i) / st.h); ctx.lineTo(x + w, y + (h * i) / st.h); }
  ctx.stroke();
  ctx.strokeStyle = "#fff";
  ctx.lineWidth = 2;
  ctx.strokeRect(x, y, w, h);
}

// Cuts the framed part into the board's picture (96 pixels a tile).
function cutPicture() {
  const p = st.picture, r = cropRect(), px = 96;
  const c = document.createElement("canvas");
  c.width = st.w * px;
  c.height = st.h * px;
  c.getContext("2d").drawImage(p.img, r.x, r.y, r.w, r.h, 0, 0, c.width, c.height);
  p.url = c.toDataURL("image/jpeg", 0.92);
}

function wireCrop() {
  const c = $("crop-canvas");
  let from = null;
  c.addEventListener("pointerdown", (e) => {
    if (!st.picture) return;
    c.setPointerCapture(e.pointerId);
    const r = cropRect();
    from = { x: e.clientX, y: e.clientY, cx: r.x + r.w / 2, cy: r.y + r.h / 2 };
  });
  c.addEventListener("pointermove", (e) => {
    if (!from) return;
    const p = st.picture;
    p.cx = from.cx + (e.clientX - from.x) / p.scale;
    p.cy = from.cy + (e.clientY - from.y) / p.scale;
    drawCrop();
  });
  const done = () => {
    if (!from) return;
    from = null;
    const r = cropRect();
    st.picture.cx = r.x + r.w / 2;
    st.picture.cy = r.y + r.h / 2;
    cutPicture();
    render();
  };
  c.addEventListener("pointerup", done);
  c.addEventListener("pointercancel", done);
  $("crop-zoom").addEventListener("input", () => {
    if (!st.picture) return;
    st.picture.zoom = Number($("crop-zoom").value) / 100;
    drawCrop();
  });
  $("crop-zoom").addEventListener("change", () => { if (st.picture) { cutPicture(); render(); } });
  $("picture").addEventListener("change", () => loadPicture($("picture").files[0]));
  $("numbers").addEventListener("change", () => render());
  $("no-picture").addEventListener("click", () => {
    st.picture = null;
    $("picture").value = "";
    $("crop").hidden = true;
    $("no-picture").hidden = true;
    render();
  });
}

// ---------- the address: board, start and goal, to share ----------

// "#board=3x3&start=1.2.3.4.5.6.7.0.8&goal=blank-first" (goal: a name or the tiles).
function address() {
  const goal = st.goalName === "custom" ? st.goal.join(".") : st.goalName;
  // While a solution is shown, the puzzle is its start, wherever the playback stands.
  const start = st.solution ? st.solution.start : st.tiles;
  return `#board=${st.w}x${st.h}&start=${start.join(".")}&goal=${goal}`;
}

function showAddress() {
  const a = address();
  if (location.hash !== a) history.replaceState(null, "", a);
  $("share-url").value = location.href;
}

// The puzzle of an address, or an error message; null when the address names none.
function readAddress(hash) {
  const q = new URLSearchParams(hash.replace(/^#/, ""));
  if (!q.has("board") && !q.has("start")) return null;
  const m = /^([2-8])x([2-8])$/.exec(q.get("board") || "");
  if (!m) return "the link's board is not WxH with sides 2 to 8";
  const [w, h] = [Number(m[1]), Number(m[2])], n = w * h;
  const perm = (text) => {
    const t = (text || "").split(".").map(Number);
    const ok = t.length === n && t.every((x) => Number.isInteger(x) && x >= 0 && x < n) && new Set(t).size === n;
    return ok ? t : null;
  };
  const g = q.get("goal") || "blank-first";
  const goal = g === "blank-first" || g === "blank-last" ? goalTiles(w, h, g) : perm(g);
  if (!goal) return `the link's goal is not blank-first, blank-last or the numbers 0 to ${n - 1} once each`;
  const tiles = q.has("start") ? perm(q.get("start")) : goal.slice();
  if (!tiles) return `the link's start is not the numbers 0 to ${n - 1} once each`;
  return { w, h, tiles, goal };
}

// Opens the puzzle of the address, if it names one; says what is wrong with it otherwise.
function openAddress() {
  const p = readAddress(location.hash);
  if (p === null) return false;
  if (typeof p === "string") { status(p); return false; }
  showSize(p.w, p.h);
  setSize(p.w, p.h);
  setGoal(p.goal);
  setTiles(p.tiles);
  if (!solvable(p.tiles, p.goal, p.w)) status("this start cannot reach this goal: swap two tiles of either, or scramble");
  return true;
}

// The size controls set to show a WxH board.
function showSize(w, h) {
  const named = `${w}x${h}`;
  $("size").value = w === h && w >= 3 && w <= 5 ? named : "custom";
  $("width").value = w;
  $("height").value = h;
  $("custom-size").hidden = $("size").value !== "custom";
}

// ---------- solving ----------

// The blank's cell in the goal a database was built for ("blank-first", "blank-last" or a
// quoted tile list).
function dbBlank(db) {
  if (db.goal === "blank-first") return 0;
  if (db.goal === "blank-last") return db.width * db.height - 1;
  return db.goal.replace(/"/g, "").trim().split(/\s+/).map(Number).indexOf(0);
}

// The cells a symmetry of the WxH board takes `cell` to (mirrors; on a square, also the
// transposes and quarter turns).
function orbit(cell, w, h) {
  const r = Math.floor(cell / w), c = cell % w;
  const pts = [[r, c], [r, w - 1 - c], [h - 1 - r, c], [h - 1 - r, w - 1 - c]];
  if (w === h) pts.push(...pts.map(([a, b]) => [b, a]));
  return new Set(pts.map(([a, b]) => a * w + b));
}

// Whether database `db` serves the current goal: same board, and a symmetry takes the goal's
// blank cell to the blank cell of the goal it was built for (the server maps the rest).
function dbServes(db) {
  return db.width === st.w && db.height === st.h && orbit(dbBlank(db), st.w, st.h).has(st.goal.indexOf(0));
}

function fillHeuristics() {
  const sel = $("heuristic");
  const keep = sel.value;
  sel.replaceChildren();
  const add = (value, text) => { const o = new Option(text, value); sel.add(o); };
  add("auto", "auto (see below)");
  for (const db of (server ? server.databases : [])) {
    if (dbServes(db)) add("db:" + db.name, "database " + db.name + " (" + db.patterns + ")");
  }
  add("linear-conflict", "manhattan + linear conflict");
  add("manhattan", "manhattan");
  add("hamming", "misplaced tiles");
  if ([...sel.options].some((o) => o.value === keep)) sel.value = keep;
  const hasDb = [...sel.options].some((o) => o.value.startsWith("db:"));
  const kind = st.w * st.h <= 9 || hasDb ? "random" : "walk";
  $("scramble-kind").value = kind;
  $("scramble-moves").hidden = kind !== "walk";
  heuristicNote();
}

// Says which heuristic a search with the chosen one will use for this goal.
function heuristicNote() {
  const h = $("heuristic").value;
  const dbs = (server ? server.databases : []).filter(dbServes).map((d) => d.name);
  let text = "";
  if (h === "auto") {
    text = dbs.length
      ? `auto: database${dbs.length > 1 ? "s" : ""} ${dbs.join(", ")} serve${dbs.length > 1 ? "" : "s"} this goal`
      : "auto: no database serves this goal, so the classic heuristics are used (manhattan + linear conflict)";
  } else if (h.startsWith("db:")) {
    text = `database ${h.slice(3)}` + (st.goalName === "custom" ? ", mapped onto this goal" : "");
  } else {
    text = "a classic heuristic: no database is used";
  }
  $("heuristic-note").textContent = text;
}

function request() {
  const body = {
    puzzle: st.tiles,
    board: st.w + "x" + st.h,
    goal: goalSpec(),
    algorithm: $("algorithm").value,
  };
  // The multi-tile metric takes its own heuristics (the server's class tables for the board,
  // else the walking distance): auto chooses them.
  if ($("metric").value === "mtm") body.metric = "mtm";
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
  const multi = b.metric === "mtm" ? ` multi-tile, ${b.moves.length} steps` : "";
  $("length").textContent = `${b.length} moves${multi}` + (b.optimal ? " (optimal)" : " (not proven optimal)");
  $("nodes").textContent = fmt(b.nodes) + " generated";
  $("time").textContent = b.seconds.toFixed(3) + " s";
  $("used-heuristic").textContent = `${b.algorithm}, ${b.heuristic}`;
  st.solution = { moves: b.moves, tiles: b.tiles, start, index: 0, timer: null };
  // The player steps through the blank's single steps (as many as the moves in stm).
  $("move-count").textContent = b.moves.length;
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

// Tiles typed row by row for the current board (0 or _ for the blank), or what is wrong.
function readTiles(text) {
  const parts = text.trim().split(/[\s,]+/).filter((x) => x !== "");
  const n = st.w * st.h;
  if (parts.length !== n) return `expected ${n} tiles for a ${st.w}x${st.h} board, found ${parts.length}`;
  const t = parts.map((x) => (x === "_" ? 0 : Number(x)));
  const ok = t.every((x) => Number.isInteger(x) && x >= 0 && x < n) && new Set(t).size === n;
  return ok ? t : `give each of the numbers 0 to ${n - 1} once (0 or _ for the blank)`;
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
  $("goal").addEventListener("change", () => {
    const v = $("goal").value;
    // "custom" keeps the goal as it is, for editing on the goal board.
    if (v === "custom") {
      $("goal").value = st.goalName;
      status("edit the goal board: click two tiles (or drag one onto another) to swap them, or type the goal below", true);
      return;
    }
    setGoal(goalTiles(st.w, st.h, v));
  });
  $("goal-board").addEventListener("pointerdown", goalPointerDown);
  document.addEventListener("pointerup", goalPointerUp);
  $("goal-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const t = readTiles($("goal-input").value);
    if (typeof t === "string") { status(t); return; }
    setGoal(t);
  });
  $("heuristic").addEventListener("change", heuristicNote);
  $("share").addEventListener("click", async () => {
    showAddress();
    $("share-url").select();
    try {
      await navigator.clipboard.writeText(location.href);
      status("link copied", true);
    } catch (e) {
      status("copy the selected link", true);
    }
  });
  window.addEventListener("hashchange", () => { if (location.hash !== address()) openAddress(); });
  wireCrop();
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
    const text = $("tiles-input").value;
    const parts = text.trim().split(/[\s,]+/).filter((x) => x !== "");
    const side = Math.round(Math.sqrt(parts.length));
    if (parts.length !== st.w * st.h && side * side === parts.length && side >= 2 && side <= 8) {
      // A square count names its board: switch to it.
      showSize(side, side);
      setSize(side, side);
    }
    const t = readTiles(text);
    if (typeof t === "string") { status(t); return; }
    status(solvable(t, st.goal, st.w) ? "" : "this position cannot reach the goal (try another goal)");
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
  if (!openAddress()) setSize(4, 4);
}

main();
