// Browser test of `solver serve`: Debian's chromium driven by playwright-core loads the page,
// solves a 3x3 puzzle (its length checked against a breadth-first search written here) and a
// 4x4 puzzle, plays both solutions back and checks that the board ends on the goal; cuts a
// picture drawn here into a 3x3 board (each tile checked against its part of the picture),
// solves it to custom goals edited on the goal board and typed (lengths checked by the same
// search, the heuristic named as the page said), opens the puzzle's shared link in another
// page; opens a database's page and checks its histogram chart; and saves two screenshots.
//
// Environment: SERVE_URL (the server's address, e.g. http://127.0.0.1:8080/), CHROMIUM (the
// browser; default /usr/bin/chromium), SCREENSHOT (default target/ci-artifacts/serve.png; the
// picture puzzle's goes beside it as serve-picture.png), DB_NAME (a 3x3 database the server
// has, built for the goal blank-first; optional).
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import assert from "node:assert/strict";

const url = process.env.SERVE_URL;
if (!url) {
  console.error("set SERVE_URL to the address `solver serve` printed");
  process.exit(2);
}
const shot = resolve(process.env.SCREENSHOT || "target/ci-artifacts/serve.png");
const pictureShot = resolve(dirname(shot), "serve-picture.png");
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";

// Exact distance of a 3x3 position to the goal, by breadth-first search from the goal.
function bfsDistance(start, goal) {
  const key = (t) => t.join(",");
  const target = key(start);
  const seen = new Map([[key(goal), 0]]);
  let frontier = [goal];
  for (let d = 0; frontier.length; d++) {
    if (seen.has(target)) return seen.get(target);
    const next = [];
    for (const t of frontier) {
      const b = t.indexOf(0);
      const [r, c] = [Math.floor(b / 3), b % 3];
      for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
        const [nr, nc] = [r + dr, c + dc];
        if (nr < 0 || nr > 2 || nc < 0 || nc > 2) continue;
        const u = t.slice();
        u[b] = u[nr * 3 + nc];
        u[nr * 3 + nc] = 0;
        const k = key(u);
        if (!seen.has(k)) {
          seen.set(k, d + 1);
          next.push(u);
        }
      }
    }
    frontier = next;
  }
  return seen.get(target);
}

let passed = 0, failed = 0;
async function check(name, f) {
  const t0 = Date.now();
  try {
    await f();
    passed++;
    console.log(`ok - ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    failed++;
    console.log(`not ok - ${name}: ${e.stack || e}`);
  }
}

const tilesOf = async (page) => (await page.getAttribute("#board", "data-tiles")).split(" ").map(Number);

// Scrambles, solves, plays back at full speed; returns [start, length].
async function solveAndPlay(page, size, scramble, moves) {
  await page.selectOption("#size", size);
  await page.selectOption("#scramble-kind", scramble);
  if (moves) await page.fill("#scramble-moves", String(moves));
  await page.click("#scramble");
  const start = await tilesOf(page);
  assert.equal(await page.getAttribute("#board", "data-solved"), "false", "a scramble leaves the goal");
  await page.click("#solve");
  await page.waitForSelector("#result:not([hidden])", { timeout: 120_000 });
  const length = Number(await page.textContent("#move-count"));
  assert.ok(length > 0, "a solution with moves");
  // Full speed, then play to the end.
  await page.$eval("#speed", (e) => { e.value = e.max; e.dispatchEvent(new Event("input")); });
  await page.click("#play");
  await page.waitForFunction((n) => document.getElementById("move-index").textContent === String(n), length, { timeout: 60_000 });
  assert.equal(await page.getAttribute("#board", "data-solved"), "true", "the played-back board is the goal");
  const goal = await tilesOf(page);
  return [start, length, goal];
}

// Draws a 300x300 picture in the page (colours that change across it in both directions, a
// sun and hills) and returns it as PNG bytes.
async function drawPicture(page) {
  const url = await page.evaluate(() => {
    const c = document.createElement("canvas");
    c.width = 300;
    c.height = 300;
    const g = c.getContext("2d");
    const across = g.createLinearGradient(0, 0, 300, 0);
    across.addColorStop(0, "#0b2a8f");
    across.addColorStop(1, "#f05a50");
    g.fillStyle = across;
    g.fillRect(0, 0, 300, 300);
    const down = g.createLinearGradient(0, 0, 0, 300);
    down.addColorStop(0, "rgba(255, 220, 80, 0)");
    down.addColorStop(1, "rgba(255, 220, 80, 0.55)");
    g.fillStyle = down;
    g.fillRect(0, 0, 300, 300);
    g.fillStyle = "#ffe066";
    g.beginPath();
    g.arc(205, 105, 48, 0, 2 * Math.PI);
    g.fill();
    g.fillStyle = "#2f6b3a";
    g.beginPath();
    g.moveTo(0, 300);
    g.quadraticCurveTo(90, 230, 170, 285);
    g.quadraticCurveTo(240, 250, 300, 275);
    g.lineTo(300, 300);
    g.fill();
    return c.toDataURL("image/png");
  });
  return Buffer.from(url.split(",")[1], "base64");
}

// The colour at the centre of each of the w x h parts of the image at `url` (in the page).
async function partColours(page, url, w, h) {
  return page.evaluate(async ([url, w, h]) => {
    const img = new Image();
    await new Promise((ok, fail) => { img.onload = ok; img.onerror = fail; img.src = url; });
    const c = document.createElement("canvas");
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    const g = c.getContext("2d");
    g.drawImage(img, 0, 0);
    const out = [];
    for (let p = 0; p < w * h; p++) {
      const x = Math.floor(((p % w) + 0.5) * c.width / w), y = Math.floor((Math.floor(p / w) + 0.5) * c.height / h);
      out.push([...g.getImageData(x, y, 1, 1).data.slice(0, 3)]);
    }
    return out;
  }, [url, w, h]);
}

const near = (a, b) => a.every((v, i) => Math.abs(v - b[i]) <= 16);

// Drags the goal board's tile at cell `from` onto the one at cell `to`.
async function dragGoal(page, from, to) {
  const box = async (cell) => (await page.$(`#goal-board .tile[data-cell="${cell}"]`)).boundingBox();
  const [a, b] = [await box(from), await box(to)];
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 4 });
  await page.mouse.up();
}

// Scrambles, solves and checks the length against the breadth-first search; returns the
// start, the goal and the answer's heuristic.
async function solveToGoal(page) {
  await page.selectOption("#scramble-kind", "random");
  await page.click("#scramble");
  const start = await tilesOf(page);
  const goal = (await page.getAttribute("#goal-board", "data-tiles")).split(" ").map(Number);
  await page.click("#solve");
  await page.waitForSelector("#result:not([hidden])", { timeout: 60_000 });
  const length = Number(await page.textContent("#move-count"));
  assert.equal(length, bfsDistance(start, goal), `the optimal length of ${start.join(" ")} to ${goal.join(" ")}`);
  return [start, goal, await page.textContent("#used-heuristic")];
}

async function pictureTest(page) {
  await page.selectOption("#size", "3x3");
  await page.selectOption("#goal", "blank-first");
  await page.selectOption("#heuristic", "auto");
  const png = await drawPicture(page);
  await page.setInputFiles("#picture", { name: "generated.png", mimeType: "image/png", buffer: png });
  await page.waitForSelector("#board .tile.pic");
  await page.waitForSelector("#crop:not([hidden])");
  // Each tile shows the part of the picture of its cell in the goal: the part's centre has
  // the colour of that part of the picture drawn above (which differs from part to part).
  const source = await partColours(page, "data:image/png;base64," + png.toString("base64"), 3, 3);
  for (let i = 0; i < 9; i++) for (let j = 0; j < i; j++) assert.ok(!near(source[i], source[j]), `the test picture's parts differ: ${i} ${source[i]}, ${j} ${source[j]}`);
  const cut = await page.evaluate(() => getComputedStyle(document.getElementById("board")).getPropertyValue("--pic").trim().replace(/^url\(["']?/, "").replace(/["']?\)$/, ""));
  assert.match(cut, /^data:image\//, "the picture stays in the page (a data: address)");
  const parts = await partColours(page, cut, 3, 3);
  parts.forEach((c, p) => assert.ok(near(c, source[p]), `part ${p}: ${c} against ${source[p]}`));
  const pieces = await page.$$eval("#board .tile.pic", (ts) => ts.map((t) => [Number(t.textContent), Number(t.dataset.piece)]));
  assert.equal(pieces.length, 9, "on the goal, the blank's part completes the picture");
  for (const [tile, piece] of pieces) assert.equal(piece, tile, `tile ${tile} shows the part of its goal cell`);
  await page.uncheck("#numbers");
  assert.equal(await page.$eval("#board", (b) => b.classList.contains("nonum")), true, "numbers off");
  await page.check("#numbers");

  // A custom goal edited on the goal board: tiles 1 and 2 swapped by a drag; the blank stays
  // in its corner, so the database (built for blank-first) serves it.
  await dragGoal(page, 1, 2);
  assert.equal(await page.getAttribute("#goal-board", "data-tiles"), "0 2 1 3 4 5 6 7 8");
  assert.equal(await page.inputValue("#goal"), "custom");
  const db = process.env.DB_NAME;
  if (db) assert.match(await page.textContent("#heuristic-note"), new RegExp(`database ${db} serves this goal`));
  const [, , used] = await solveToGoal(page);
  if (db) assert.match(used, new RegExp(`pdb ${db}`));

  // Two clicks swap two tiles: the blank to the centre, where no database serves the goal.
  await page.click('#goal-board .tile[data-cell="4"]');
  await page.click('#goal-board .tile[data-cell="0"]');
  assert.equal(await page.getAttribute("#goal-board", "data-tiles"), "4 2 1 3 0 5 6 7 8");
  assert.match(await page.textContent("#heuristic-note"), /no database serves this goal.*manhattan \+ linear conflict/);
  // Typed: the same goal with tiles 1 and 2 back in place.
  await page.fill("#goal-input", "4 1 2\n3 0 5\n6 7 8");
  await page.click("#set-goal");
  const [start, goal, classic] = await solveToGoal(page);
  assert.deepEqual(goal, [4, 1, 2, 3, 0, 5, 6, 7, 8]);
  assert.match(classic, /linear conflict \(no database fits\)/);

  // The link opens the same board, start and goal in another page.
  const link = await page.inputValue("#share-url");
  assert.match(link, /#board=3x3&start=[0-9.]+&goal=[0-9.]+$/);
  const other = await browser.newPage({ viewport: { width: 1100, height: 760 } });
  await other.goto(link);
  await other.waitForSelector("#solve-view:not([hidden])");
  assert.deepEqual(await tilesOf(other), start, "the shared start");
  assert.equal(await other.getAttribute("#goal-board", "data-tiles"), goal.join(" "), "the shared goal");
  assert.equal(await other.inputValue("#size"), "3x3");
  assert.equal(await other.inputValue("#goal"), "custom");
  await other.close();

  // Played back to the goal; the screenshot halfway.
  await page.$eval("#speed", (e) => { e.value = e.max; e.dispatchEvent(new Event("input")); });
  await page.click("#play");
  const n = Number(await page.textContent("#move-count"));
  await page.waitForFunction((n) => document.getElementById("move-index").textContent === String(n), n, { timeout: 60_000 });
  assert.equal(await page.getAttribute("#board", "data-solved"), "true");
  assert.equal(await page.inputValue("#share-url"), link, "the link keeps the start during playback");
  await page.click("#first");
  for (let i = 0; i < Math.floor(n / 2); i++) await page.click("#step");
  mkdirSync(dirname(pictureShot), { recursive: true });
  await page.screenshot({ path: pictureShot, fullPage: true });
  console.log(`screenshot: ${pictureShot}`);
  await page.click("#no-picture");
  await page.selectOption("#goal", "blank-first");
}

// As root in a closed network: no sandbox, and none of the browser's own connections.
const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
const errors = [];
page.on("pageerror", (e) => errors.push(String(e)));
page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
try {
  await check("the page loads with its controls", async () => {
    await page.goto(url);
    await page.waitForSelector("#solve-view:not([hidden])");
    assert.ok((await page.$$("#algorithm option")).length >= 8, "every algorithm is offered");
  });

  await check("a 3x3 puzzle is solved optimally and played back to the goal", async () => {
    const [start, length, goal] = await solveAndPlay(page, "3x3", "random");
    assert.deepEqual(goal, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    assert.equal(length, bfsDistance(start, goal), `the optimal length of ${start.join(" ")}`);
  });

  await check("a 4x4 puzzle is solved and played back to the goal", async () => {
    const [start, length, goal] = await solveAndPlay(page, "4x4", "walk", 30);
    assert.deepEqual(goal, [...Array(16).keys()]);
    assert.ok(length <= 30, `at most the 30 scrambling moves, found ${length} for ${start.join(" ")}`);
    assert.match(await page.textContent("#length"), /\(optimal\)/);
  });

  await check("a 3x3 puzzle is solved in the multi-tile metric and played back", async () => {
    await page.selectOption("#metric", "mtm");
    await page.selectOption("#algorithm", "ida");
    await page.selectOption("#heuristic", "auto");
    const [start, steps, goal] = await solveAndPlay(page, "3x3", "random");
    const text = await page.textContent("#length");
    assert.match(text, /multi-tile/);
    const length = Number(text.split(" ")[0]);
    assert.ok(length > 0 && length <= steps, `${length} multi-tile moves of ${steps} steps`);
    assert.ok(length <= bfsDistance(start, goal), `never more than the single-tile optimum for ${start.join(" ")}`);
    await page.selectOption("#metric", "stm");
  });

  await check("a pasted position sets the board (and its size)", async () => {
    await page.selectOption("#size", "4x4");
    await page.fill("#tiles-input", "1 2 3\n4 5 6\n7 0 8");
    await page.click("#set-tiles");
    assert.deepEqual(await tilesOf(page), [1, 2, 3, 4, 5, 6, 7, 0, 8]);
    assert.equal(await page.inputValue("#size"), "3x3");
    await page.selectOption("#goal", "blank-last");
    await page.fill("#tiles-input", "1 2 3 4 5 6 7 0 8");
    await page.click("#set-tiles");
    await page.click("#solve");
    await page.waitForSelector("#result:not([hidden])");
    assert.equal(await page.textContent("#move-count"), "1");
    await page.click("#step");
    assert.equal(await page.getAttribute("#board", "data-solved"), "true");
    await page.selectOption("#goal", "blank-first");
  });

  await check("keyboard moves and cancelling a search", async () => {
    await page.click("#reset-board");
    await page.focus("#board");
    await page.keyboard.press("ArrowLeft"); // the tile right of the blank slides left
    const t = await tilesOf(page);
    assert.deepEqual(t.slice(0, 2), [1, 0]);
    // A hard 5x5 position with misplaced tiles: long enough to cancel.
    await page.selectOption("#size", "5x5");
    await page.selectOption("#scramble-kind", "random");
    await page.click("#scramble");
    await page.selectOption("#heuristic", "hamming");
    await page.click("#solve");
    await page.waitForSelector("#cancel:not([hidden])");
    await page.waitForSelector("#progress:not([hidden])");
    await page.click("#cancel");
    await page.waitForFunction(() => document.getElementById("status").textContent === "cancelled");
    await page.selectOption("#size", "4x4");
  });

  await check("a picture puzzle is solved to custom goals and shared by its link", async () => {
    await pictureTest(page);
  });

  const db = process.env.DB_NAME;
  if (db) {
    await check(`the page of database ${db} shows its header and histogram`, async () => {
      const p = await browser.newPage();
      await p.goto(new URL("/db/" + encodeURIComponent(db), url).href);
      await p.waitForSelector("svg.chart rect.bar");
      assert.ok((await p.$$("svg.chart rect.bar")).length > 5, "bars for the values");
      assert.match(await p.textContent("#db-description"), /3x3/);
      await p.close();
    });
  }

  await check("the page raised no script errors", async () => {
    assert.deepEqual(errors, []);
  });

  // The screenshot: a 4x4 solution half played back.
  await page.selectOption("#size", "4x4");
  await page.selectOption("#heuristic", "auto");
  await solveAndPlay(page, "4x4", "walk", 30);
  await page.click("#first");
  const n = Number(await page.textContent("#move-count"));
  for (let i = 0; i < Math.floor(n / 2); i++) await page.click("#step");
  mkdirSync(dirname(shot), { recursive: true });
  await page.screenshot({ path: shot, fullPage: true });
  console.log(`screenshot: ${shot}`);
} finally {
  await browser.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
