// Browser test of `solver serve`: Debian's chromium driven by playwright-core loads the page,
// solves a 3x3 puzzle (its length checked against a breadth-first search written here) and a
// 4x4 puzzle, plays both solutions back and checks that the board ends on the goal, opens a
// database's page and checks its histogram chart, and saves a screenshot.
//
// Environment: SERVE_URL (the server's address, e.g. http://127.0.0.1:8080/), CHROMIUM (the
// browser; default /usr/bin/chromium), SCREENSHOT (default target/ci-artifacts/serve.png),
// DB_NAME (a 3x3 database the server has, for the database page; optional).
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
  await page.screenshot({ path: shot });
  console.log(`screenshot: ${shot}`);
} finally {
  await browser.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
