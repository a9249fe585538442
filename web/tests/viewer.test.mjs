// End-to-end tests of the web viewer: `waymark serve` on a free loopback port, the page in
// Debian's headless Chromium driven by playwright-core. Run by CTest (make test):
//   node viewer.test.mjs WAYMARK_BINARY ARTEFACT_DIR
// Screenshots land in ARTEFACT_DIR; a failing check also saves the page as it was.
import { spawn } from 'node:child_process';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const [waymark, artefacts] = process.argv.slice(2);
if (!waymark || !artefacts) {
  console.error('usage: node viewer.test.mjs WAYMARK_BINARY ARTEFACT_DIR');
  process.exit(2);
}
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
// The launch flags of DEVELOPERS.md; --no-proxy-server keeps loopback off any proxy.
const chromiumFlags = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-proxy-server'];
const WAIT_MS = 20000;
mkdirSync(artefacts, { recursive: true });

/// Starts `waymark serve --port 0` and resolves to {server, url} once it prints its address.
function startServer() {
  const server = spawn(waymark, ['serve', '--port', '0', '--web', path.join(repo, 'web'), '--data', path.join(repo, 'data')],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  server.log = '';
  server.stderr.on('data', (d) => { server.log += d; });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no address from waymark serve: ${out}${server.log}`)), WAIT_MS);
    server.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/[\d.]+:(\d+)\//);
      if (m) {
        clearTimeout(timer);
        resolve({ server, url: `http://127.0.0.1:${m[1]}/` });
      }
    });
    server.on('exit', (code) => reject(new Error(`waymark serve exited ${code}: ${server.log}`)));
  });
}

// ---- helpers on the page ---------------------------------------------------------------------

async function cellCentre(page, canvasId, [x, y]) {
  const box = await page.locator(`#${canvasId}`).boundingBox();
  const { cellPx, canvasWidth } = await page.evaluate((id) => ({
    cellPx: window.viewer.grid.cellPx, canvasWidth: document.getElementById(id).width,
  }), canvasId);
  const scale = box.width / canvasWidth;
  return [box.x + (x + 0.5) * cellPx * scale, box.y + (y + 0.5) * cellPx * scale];
}

async function dragCells(page, cells) {
  const [x0, y0] = await cellCentre(page, 'grid-canvas-a', cells[0]);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  for (const cell of cells.slice(1)) {
    const [x, y] = await cellCentre(page, 'grid-canvas-a', cell);
    await page.mouse.move(x, y, { steps: 2 });
  }
  await page.mouse.up();
}

async function clickCell(page, cell) {
  const [x, y] = await cellCentre(page, 'grid-canvas-a', cell);
  await page.mouse.click(x, y);
}

const stat = (page, side, key) => page.locator(`#grid-stats-${side} td[data-stat=${key}]`);

// ---- the tests ---------------------------------------------------------------------------------

const WALL_X = 12;
const WALL_BOTTOM = 20;  // the wall covers rows 0..20 of column 12; rows 21..23 stay open

async function gridRunAvoidsTheWall(page) {
  await page.selectOption('#grid-map', 'empty:32x24');
  await page.check('input[name=grid-tool][value=wall]');
  const wall = Array.from({ length: WALL_BOTTOM + 1 }, (_, y) => [WALL_X, y]);
  await dragCells(page, wall);
  // Place start and goal by dragging the markers from their corners.
  await dragMarker(page, 'start', [2, 10]);
  await dragMarker(page, 'goal', [25, 10]);
  await page.selectOption('#grid-algorithm', 'astar');
  await page.click('#grid-run');
  await stat(page, 'a', 'status').filter({ hasText: 'success' }).waitFor({ timeout: WAIT_MS });

  const rows = await page.evaluate(() => window.viewer.grid.map.cells.map((r) => r.join('')));
  for (let y = 0; y <= WALL_BOTTOM; ++y) assert.equal(rows[y][WALL_X], '@', `wall drawn at (${WALL_X},${y})`);
  const { start, goal, cells } = await page.evaluate(() => ({
    start: window.viewer.grid.start, goal: window.viewer.grid.goal,
    cells: window.viewer.grid.replays[0].result.path,
  }));
  assert.deepEqual(start, [2, 10]);
  assert.deepEqual(goal, [25, 10]);
  assert.deepEqual(cells[0], start);
  assert.deepEqual(cells[cells.length - 1], goal);
  for (const [x, y] of cells) assert.notEqual(rows[y][x], '@', `path cell (${x},${y}) is a wall`);
  const crossing = cells.filter(([x]) => x === WALL_X);
  assert.ok(crossing.length > 0 && crossing.every(([, y]) => y > WALL_BOTTOM), 'the path goes round the wall');
  const expanded = Number(await stat(page, 'a', 'expanded').textContent());
  const cost = Number(await stat(page, 'a', 'cost').textContent());
  assert.ok(expanded > 0, `expanded ${expanded}`);
  // Around the wall: at least down 11 rows and back, so well over the straight 23.
  assert.ok(cost > 30, `cost ${cost}`);
  await page.screenshot({ path: path.join(artefacts, 'grid.png') });

  // Dragging an end of a shown result searches again at once (no Run).
  await dragMarker(page, 'goal', [25, 4]);
  await page.waitForFunction(() => {
    const p = window.viewer.grid.replays[0]?.result.path;
    return p && p.length > 0 && p[p.length - 1][0] === 25 && p[p.length - 1][1] === 4;
  }, null, { timeout: WAIT_MS });
}

async function dragMarker(page, which, to) {
  const from = await page.evaluate((w) => window.viewer.grid[w], which);
  await dragCells(page, [from, to]);
}

async function stepModeAdvances(page) {
  await page.click('#grid-step');
  await page.locator('#grid-step-index').filter({ hasText: /^1$/ }).waitFor({ timeout: WAIT_MS });
  await page.click('#grid-step');
  await page.click('#grid-step');
  assert.equal(await page.textContent('#grid-step-index'), '3');
  const total = Number(await page.textContent('#grid-step-total'));
  assert.ok(total > 3, `events ${total}`);
  const current = await page.evaluate(() => window.viewer.grid.replays[0].current);
  assert.deepEqual(current, [2, 10], 'the first expansion is the start');
  await page.fill('#grid-speed', '5');
  await page.click('#grid-play');
  await page.waitForFunction(() => Number(document.getElementById('grid-step-index').textContent) > 20,
    null, { timeout: WAIT_MS });
  await page.click('#grid-pause');
  const paused = Number(await page.textContent('#grid-step-index'));
  await page.waitForTimeout(300);
  assert.equal(Number(await page.textContent('#grid-step-index')), paused, 'pause holds the replay');
  await page.screenshot({ path: path.join(artefacts, 'grid-step.png') });
  await page.fill('#grid-speed', '400');
  await page.click('#grid-play');
  await page.waitForFunction(() => document.getElementById('grid-step-index').textContent ===
    document.getElementById('grid-step-total').textContent, null, { timeout: WAIT_MS });
  assert.equal(await stat(page, 'a', 'status').textContent(), 'success');
}

async function compareTwoAlgorithms(page) {
  await page.check('#grid-compare');
  await page.selectOption('#grid-algorithm-b', 'dijkstra');
  await page.click('#grid-run');
  await stat(page, 'b', 'status').filter({ hasText: 'success' }).waitFor({ timeout: WAIT_MS });
  const a = Number(await stat(page, 'a', 'expanded').textContent());
  const b = Number(await stat(page, 'b', 'expanded').textContent());
  assert.equal(await stat(page, 'a', 'cost').textContent(), await stat(page, 'b', 'cost').textContent(),
    'A* and Dijkstra find the same optimal cost');
  assert.ok(b > a, `Dijkstra expands more than A* (${b} vs ${a})`);
  await page.screenshot({ path: path.join(artefacts, 'grid-compare.png'), fullPage: true });
  await page.uncheck('#grid-compare');
}

async function puzzleSolves(page) {
  await page.click('#tabs button[data-view=puzzle]');
  // Five blank moves from the goal (blank first): right, down, down, right, up; Manhattan 5.
  await page.fill('#puzzle-tiles', '1 4 2 3 7 0 6 8 5');
  await page.click('#puzzle-set');
  await page.selectOption('#puzzle-algorithm', 'ida');
  await page.click('#puzzle-solve');
  await page.locator('#puzzle-stats td[data-stat=status]').filter({ hasText: 'success' }).waitFor({ timeout: WAIT_MS });
  assert.equal(await page.textContent('#puzzle-stats td[data-stat=moves]'), '5');
  await page.waitForFunction(() => document.getElementById('puzzle-move-index').textContent === '5', null,
    { timeout: WAIT_MS });
  const shown = await page.$$eval('#puzzle-board div', (cells) => cells.map((c) => c.textContent));
  assert.deepEqual(shown, ['', '1', '2', '3', '4', '5', '6', '7', '8'], 'the animation ends on the goal');
  await page.screenshot({ path: path.join(artefacts, 'puzzle.png') });
  // A shuffled board is solved too, by A* this time.
  await page.click('#puzzle-shuffle');
  await page.selectOption('#puzzle-algorithm', 'astar');
  await page.click('#puzzle-solve');
  await page.locator('#puzzle-stats td[data-stat=status]').filter({ hasText: 'success' }).waitFor({ timeout: WAIT_MS });
  const moves = await page.textContent('#puzzle-stats td[data-stat=moves]');
  await page.waitForFunction((m) => document.getElementById('puzzle-move-index').textContent === m, moves,
    { timeout: WAIT_MS });
  const final = await page.$$eval('#puzzle-board div', (cells) => cells.map((c) => c.textContent));
  assert.deepEqual(final, ['', '1', '2', '3', '4', '5', '6', '7', '8']);
  await page.click('#tabs button[data-view=grid]');
}

async function roadQueryCompares(page) {
  await page.click('#tabs button[data-view=roads]');
  await page.waitForFunction(() => window.viewer.roads.pixels !== undefined, null, { timeout: WAIT_MS });
  const box = await page.locator('#roads-canvas').boundingBox();
  const [a, b] = await page.evaluate(() => {
    const p = window.viewer.roads.pixels;
    return [p[10], p[5000]];
  });
  const scale = box.width / 720;
  await page.mouse.click(box.x + a[0] * scale, box.y + a[1] * scale);
  await page.mouse.click(box.x + b[0] * scale, box.y + b[1] * scale);
  assert.equal(await page.textContent('#roads-from'), '10');
  assert.equal(await page.textContent('#roads-to'), '5000');
  await page.click('#roads-run');
  await page.locator('#roads-results tr[data-algorithm=ch]').waitFor({ timeout: WAIT_MS });
  const rows = await page.$$eval('#roads-results tr[data-algorithm]', (trs) => trs.map((tr) => ({
    algorithm: tr.dataset.algorithm,
    cost: tr.querySelector('td[data-stat=cost]').textContent,
    settled: Number(tr.querySelector('td[data-stat=settled]').textContent),
  })));
  assert.deepEqual(rows.map((r) => r.algorithm), ['dijkstra', 'bidijkstra', 'astar', 'alt', 'ch']);
  for (const r of rows) assert.equal(r.cost, rows[0].cost, `${r.algorithm} finds Dijkstra's cost`);
  const settled = Object.fromEntries(rows.map((r) => [r.algorithm, r.settled]));
  assert.ok(settled.ch < settled.dijkstra && settled.alt < settled.dijkstra, JSON.stringify(settled));
  await page.check('input[name=roads-shown][value=alt]');
  await page.screenshot({ path: path.join(artefacts, 'roads.png') });
  await page.click('#tabs button[data-view=grid]');
}

async function navmeshQueryShowsAPath(page) {
  await page.click('#tabs button[data-view=navmesh]');
  await page.waitForFunction(() => Boolean(window.viewer.navmesh.level), null, { timeout: WAIT_MS });
  // RecastDemo's first nav_test query (data/meshes/nav_mesh_test.txt), clicked in plan (x, z).
  const box = await page.locator('#navmesh-canvas').boundingBox();
  const ends = await page.evaluate(() => [[-1.564062, 0, -20.452827], [19.181122, 0, 3.011776]]
    .map((p) => window.viewer.navmesh.toPixel(p)));
  const scale = box.width / 720;
  for (const [x, y] of ends) await page.mouse.click(box.x + x * scale, box.y + y * scale);
  await page.locator('#navmesh-results tr[data-mode=funnel]').waitFor({ timeout: WAIT_MS });
  const rows = await page.$$eval('#navmesh-results tr[data-mode]', (trs) => Object.fromEntries(trs.map((tr) => [
    tr.dataset.mode, { status: tr.querySelector('td[data-stat=status]').textContent,
      length: Number(tr.querySelector('td[data-stat=length]').textContent),
      corners: Number(tr.querySelector('td[data-stat=corners]').textContent) }])));
  assert.equal(rows.shortest.status, 'success');
  assert.equal(rows.funnel.status, 'success');
  assert.ok(rows.shortest.corners >= 2 && rows.funnel.corners >= 2);
  // Straight-line distance in plan is about 31.2; a path on the mesh is no shorter, and the
  // shortest is never longer than the funnel's.
  assert.ok(rows.shortest.length >= 31 && rows.shortest.length <= rows.funnel.length + 1e-3, JSON.stringify(rows));
  await page.screenshot({ path: path.join(artefacts, 'navmesh.png') });
  await page.click('#tabs button[data-view=grid]');
}

async function simulationRunsAndAgentsMove(page) {
  await page.click('#tabs button[data-view=sim]');
  await page.waitForFunction(() => window.viewer.sim.id !== undefined, null, { timeout: WAIT_MS });
  // Two agents on the empty 32×24 world, added by clicking start then goal, crossing paths.
  const box = await page.locator('#sim-canvas').boundingBox();
  const cellPx = await page.evaluate(() => window.viewer.sim.cellPx);
  const scale = box.width / await page.evaluate(() => document.getElementById('sim-canvas').width);
  const at = ([x, y]) => [box.x + x * cellPx * scale, box.y + y * cellPx * scale];
  for (const [start, goal] of [[[3.5, 12.5], [28.5, 12.5]], [[28.5, 11.5], [3.5, 11.5]]]) {
    await page.mouse.click(...at(start));
    await page.mouse.click(...at(goal));
  }
  await page.locator('#sim-stats td[data-stat=agents]').filter({ hasText: /^2$/ }).waitFor({ timeout: WAIT_MS });
  const before = await page.evaluate(() => window.viewer.sim.state.agents.map(([x, y]) => [x, y]));
  await page.click('#sim-run');
  await page.waitForFunction(() => window.viewer.sim.state.tick >= 40, null, { timeout: WAIT_MS });
  await page.click('#sim-stop');
  const after = await page.evaluate(() => window.viewer.sim.state.agents.map(([x, y]) => [x, y]));
  for (let i = 0; i < 2; ++i) {
    const moved = Math.hypot(after[i][0] - before[i][0], after[i][1] - before[i][1]);
    assert.ok(moved > 2, `agent ${i} moved ${moved}`);
  }
  // Heading for each other's start: the one that started on the left goes right, the other
  // left. (Told apart by where they started: the two adds may reach the server's threads in
  // either order, so the agents' order in the state is not the clicks'.)
  for (let i = 0; i < 2; ++i) {
    const rightwards = before[i][0] < 16;
    assert.ok(rightwards ? after[i][0] > before[i][0] : after[i][0] < before[i][0],
              `agent ${i} from x=${before[i][0]} to x=${after[i][0]}`);
  }
  await page.waitForTimeout(200);
  const stopped = await page.evaluate(() => window.viewer.sim.state.tick);
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.viewer.sim.state.tick), stopped, 'Stop holds the simulation');
  assert.equal(await page.textContent('#sim-stats td[data-stat=collisions]'), '0');
  await page.click('#sim-random');
  await page.locator('#sim-stats td[data-stat=agents]').filter({ hasText: /^12$/ }).waitFor({ timeout: WAIT_MS });
  await page.click('#sim-run');
  await page.waitForFunction((t) => window.viewer.sim.state.tick >= t + 40, stopped, { timeout: WAIT_MS });
  await page.click('#sim-stop');
  await page.screenshot({ path: path.join(artefacts, 'simulation.png') });
  await page.click('#tabs button[data-view=grid]');
}

async function regionsColourTheMap(page) {
  await page.click('#tabs button[data-view=regions]');
  await page.waitForFunction(() => window.viewer.regions.rows !== undefined, null, { timeout: WAIT_MS });
  const box = await page.locator('#regions-canvas').boundingBox();
  const cellPx = await page.evaluate(() => window.viewer.regions.cellPx);
  const scale = box.width / await page.evaluate(() => document.getElementById('regions-canvas').width);
  for (const [x, y] of [[5, 5], [40, 5], [24, 28]]) {
    await page.mouse.click(box.x + (x + 0.5) * cellPx * scale, box.y + (y + 0.5) * cellPx * scale);
  }
  await page.locator('#regions-stats td[data-stat=regions]').filter({ hasText: /^3$/ }).waitFor({ timeout: WAIT_MS });
  const r = await page.evaluate(() => window.viewer.regions.result);
  // An empty 48×32 grid: every cell in a region, each seed's own cell in its own.
  assert.equal(r.sizes.reduce((a, b) => a + b, 0), 48 * 32);
  assert.equal(r.labels[5 * 48 + 5], 0);
  assert.equal(r.labels[5 * 48 + 40], 1);
  assert.equal(r.labels[28 * 48 + 24], 2);
  await page.screenshot({ path: path.join(artefacts, 'regions.png') });
  await page.click('#tabs button[data-view=grid]');
}

async function visibilityPathAmongObstacles(page) {
  await page.click('#tabs button[data-view=visibility]');
  await page.waitForFunction(() => window.viewer.visibility.graph !== undefined, null, { timeout: WAIT_MS });
  // The query of `waymark visibility` in the README: (2,2) to (38,28) among rooms.json's walls.
  const box = await page.locator('#visibility-canvas').boundingBox();
  const ends = await page.evaluate(() => [[2, 2], [38, 28]].map((q) => window.viewer.visibility.toPixel(q)));
  const scale = box.width / 720;
  for (const [x, y] of ends) await page.mouse.click(box.x + x * scale, box.y + y * scale);
  await page.locator('#visibility-stats td[data-stat=status]').filter({ hasText: 'success' }).waitFor({ timeout: WAIT_MS });
  const { path: p, edges } = await page.evaluate(() => window.viewer.visibility.graph);
  assert.ok(edges.length > 0);
  assert.ok(p.points.length >= 2);
  // No shorter than the straight line from the clicked start to the clicked goal.
  const [a, b] = [p.points[0], p.points[p.points.length - 1]];
  assert.ok(p.length >= Math.hypot(b[0] - a[0], b[1] - a[1]) - 1e-9);
  await page.screenshot({ path: path.join(artefacts, 'visibility.png') });
  await page.click('#tabs button[data-view=grid]');
}

/// The navmesh view's results table: {mode: {status, length}}.
async function navmeshRows(page) {
  return page.$$eval('#navmesh-results tr[data-mode]', (trs) => Object.fromEntries(trs.map((tr) => [
    tr.dataset.mode, { status: tr.querySelector('td[data-stat=status]').textContent,
      length: Number(tr.querySelector('td[data-stat=length]').textContent) }])));
}

async function navmeshObstacleChangesThePath(page) {
  await page.click('#tabs button[data-view=navmesh]');
  await page.waitForFunction(() => Boolean(window.viewer.navmesh.level), null, { timeout: WAIT_MS });
  const box = await page.locator('#navmesh-canvas').boundingBox();
  const scale = box.width / 720;
  const click = async ([x, y], options) => page.mouse.click(box.x + x * scale, box.y + y * scale, options);
  const settled = (obstacles) => page.waitForFunction((n) => {
    const v = window.viewer.navmesh;
    return !v.busy && v.level.obstacles.length === n && v.result !== null;
  }, obstacles, { timeout: WAIT_MS });
  await page.check('input[name=navmesh-tool][value=path]');
  // RecastDemo's first nav_test query again (a third click starts over).
  const ends = await page.evaluate(() => [[-1.564062, 0, -20.452827], [19.181122, 0, 3.011776]]
    .map((p) => window.viewer.navmesh.toPixel(p)));
  for (const p of ends) await click(p);
  await page.locator('#navmesh-results tr[data-mode=funnel]').waitFor({ timeout: WAIT_MS });
  const first = await navmeshRows(page);
  assert.equal(first.shortest.status, 'success');
  // The level is drawn tiled: several tiles hold polygons.
  assert.ok(await page.evaluate(() => new Set(window.viewer.navmesh.level.poly_tiles).size) > 1);

  // A barrel on the middle of the shortest path's first stretch.
  const middle = await page.evaluate(() => {
    const [a, b] = window.viewer.navmesh.result.shortest.corners;
    return window.viewer.navmesh.toPixel([(a[0] + b[0]) / 2, 0, (a[2] + b[2]) / 2]);
  });
  await page.check('input[name=navmesh-tool][value=cylinder]');
  await click(middle);
  await settled(1);
  const around = await navmeshRows(page);
  for (const mode of ['shortest', 'funnel']) {
    const r = around[mode];
    assert.ok(r.status !== 'success' || r.length > first[mode].length + 1e-3,
      `${mode}: ${JSON.stringify(r)} after ${JSON.stringify(first[mode])}`);
  }
  await page.screenshot({ path: path.join(artefacts, 'navmesh-obstacle.png') });

  // Taken away by a right-click: the first paths again.
  await page.check('input[name=navmesh-tool][value=path]');
  await click(middle, { button: 'right' });
  await settled(0);
  assert.deepEqual(await navmeshRows(page), first);

  // One edit at a time: a second drop sent before the first's reply is dropped (it would open
  // a second copy of the level on the server), so one obstacle stands; then the copy is let go.
  const twice = await page.evaluate(async () => {
    const v = window.viewer.navmesh;
    const [a, b] = v.result.shortest.corners;
    const drop = (p) => v.change('/api/navmesh/obstacle', { mesh: v.level.name, shape: 'cylinder', at: [p[0], p[2]], radius: 1, height: 2 });
    const both = Promise.all([drop(a.map((c, k) => 0.75 * c + 0.25 * b[k])), drop(a.map((c, k) => 0.25 * c + 0.75 * b[k]))]);
    const busyDuringFirst = v.busy;
    await both;
    return { busyDuringFirst, obstacles: v.level.obstacles.length, session: v.session };
  });
  assert.equal(twice.busyDuringFirst, true);
  assert.equal(twice.obstacles, 1);
  assert.notEqual(twice.session, null);
  await page.evaluate(() => window.viewer.navmesh.clear());
  await settled(0);
  assert.equal(await page.evaluate(() => window.viewer.navmesh.session), null);

  // An off-mesh link (the bundled levels have none: one is put into the drawn level) is an arc
  // of the link colour through the point a quadratic with the view's bend has at its middle.
  const onArc = await page.evaluate(() => {
    const v = window.viewer.navmesh;
    const [a, b] = v.result.shortest.corners;
    const kept = v.result;
    v.level.links = [{ start: a, end: b, bidirectional: true, radius: 0.5 }];
    v.result = null;  // the paths would cover it
    v.draw();
    const [pa, pb] = [v.toPixel(a), v.toPixel(b)];
    const bend = [(pa[0] + pb[0]) / 2 - 0.3 * (pb[1] - pa[1]), (pa[1] + pb[1]) / 2 + 0.3 * (pb[0] - pa[0])];
    const mid = [0, 1].map((k) => 0.25 * pa[k] + 0.5 * bend[k] + 0.25 * pb[k]);
    const pixels = v.canvas.getContext('2d').getImageData(Math.round(mid[0]) - 1, Math.round(mid[1]) - 1, 3, 3).data;
    let found = false;
    for (let i = 0; i < pixels.length; i += 4) found ||= pixels[i] === 0x0a && pixels[i + 1] === 0x9e && pixels[i + 2] === 0x9e;
    v.level.links = [];
    v.result = kept;
    v.draw();
    return found;
  });
  assert.ok(onArc, 'the link is drawn as an arc');
  await page.click('#tabs button[data-view=grid]');
}

// ---- the simulation while it runs: doors, crates, orders, a navmesh level ----------------------

/// Where world point `p` of the simulation's canvas is on the page.
async function simPoint(page, p) {
  const box = await page.locator('#sim-canvas').boundingBox();
  const [px, py, width] = await page.evaluate((q) => [...window.viewer.sim.frame.toPixel(q),
    document.getElementById('sim-canvas').width], p);
  const scale = box.width / width;
  return [box.x + px * scale, box.y + py * scale];
}

async function simClick(page, p, options = {}) {
  await page.mouse.click(...await simPoint(page, p), options);
}

/// A new simulation on the picker's `key` ('empty:32x24', 'level:nav_test', ...), no agents.
async function newSimulation(page, key) {
  await page.click('#tabs button[data-view=sim]');
  await page.waitForFunction(() => window.viewer.sim.id !== undefined, null, { timeout: WAIT_MS });
  await page.click('#sim-stop');
  await page.selectOption('#sim-map', key);
  await page.click('#sim-new');
  await page.waitForFunction(() => window.viewer.sim.id !== undefined && window.viewer.sim.state?.agents.length === 0,
    null, { timeout: WAIT_MS });
}

/// Agents added with the agent tool: a click on each start, then its goal.
async function addAgents(page, pairs) {
  await page.check('input[name=sim-tool][value=agent]');
  for (const [i, [start, goal]] of pairs.entries()) {
    await simClick(page, start);
    await simClick(page, goal);
    await page.waitForFunction((n) => window.viewer.sim.state.agents.length === n, i + 1, { timeout: WAIT_MS });
  }
}

const simState = (page) => page.evaluate(() => window.viewer.sim.state);

async function simDoorReroutes(page) {
  await newSimulation(page, 'empty:32x24');
  await addAgents(page, [[[3.5, 12.5], [28.5, 12.5]]]);
  await page.check('input[name=sim-tool][value=select]');
  await simClick(page, [3.5, 12.5]);
  assert.deepEqual(await page.evaluate(() => [...window.viewer.sim.selected]), [0]);
  await page.click('#sim-run');
  await page.waitForFunction(() => window.viewer.sim.state.paths[0]?.points.length > 0, null, { timeout: WAIT_MS });
  // Held while the door is painted (a drag takes a while on a loaded machine; the agent must
  // not have walked past the door before it is closed), then run on.
  await page.click('#sim-stop');
  const before = (await simState(page)).paths[0].points;
  assert.ok((await simState(page)).agents[0][0] < 20, 'the agent is still before the door');
  // Close a door across its route: column 22, rows 4 to 20, painted by a drag.
  await page.check('input[name=sim-tool][value=door]');
  await page.mouse.move(...await simPoint(page, [22.5, 4.5]));
  await page.mouse.down();
  for (let y = 5; y <= 20; ++y) await page.mouse.move(...await simPoint(page, [22.5, y + 0.5]), { steps: 2 });
  await page.mouse.up();
  await page.waitForFunction(() => {
    const w = window.viewer.sim.world;
    return Array.from({ length: 17 }, (_, k) => w.blocked[(4 + k) * w.width + 22]).every((b) => b === 1);
  }, null, { timeout: WAIT_MS });
  await page.click('#sim-run');
  // Its path changes and goes round the door (no point of it in column 22 between rows 4 and 20).
  await page.waitForFunction((old) => {
    const s = window.viewer.sim.state;
    const points = s.paths[0]?.points ?? [];
    if (points.length === 0 || JSON.stringify(points) === JSON.stringify(old)) return false;
    let [px, py] = s.agents[0];
    for (const [qx, qy] of points) {
      for (let t = 0; t <= 1; t += 0.005) {
        const [x, y] = [px + (qx - px) * t, py + (qy - py) * t];
        if (x >= 22 && x < 23 && y >= 4 && y < 21) return false;
      }
      [px, py] = [qx, qy];
    }
    return true;
  }, before, { timeout: WAIT_MS });
  await page.screenshot({ path: path.join(artefacts, 'simulation-door.png') });
  await page.waitForFunction(() => window.viewer.sim.state.status[0] === 'arrived', null, { timeout: 3 * WAIT_MS });
  await page.click('#sim-stop');
  const s = await simState(page);
  assert.ok(Math.hypot(s.agents[0][0] - 28.5, s.agents[0][1] - 12.5) < 0.5, `arrived at ${s.agents[0]}`);
  assert.ok(s.stats.edit_replans >= 1, `re-plans after edits: ${s.stats.edit_replans}`);
  assert.equal(await page.textContent('#sim-stats td[data-stat=collisions]'), '0');
}

async function simCrateDroppedAndTaken(page) {
  await page.check('input[name=sim-tool][value=crate]');
  await simClick(page, [8.5, 5.5]);
  await page.waitForFunction(() => window.viewer.sim.obstacles.size === 1, null, { timeout: WAIT_MS });
  const crate = await page.evaluate(() => [...window.viewer.sim.obstacles.values()][0]);
  assert.deepEqual(crate.box, [8, 5, 9, 6], 'a crate fills the clicked cell');
  // The server has it too.
  const world = await page.evaluate((id) => fetch('/api/sim/world', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id }),
  }).then((r) => r.json()), await page.evaluate(() => window.viewer.sim.id));
  assert.deepEqual(world.obstacles, [crate]);
  await page.screenshot({ path: path.join(artefacts, 'simulation-crate.png') });
  await simClick(page, [8.5, 5.5]);  // a click on the crate takes it away
  await page.waitForFunction(() => window.viewer.sim.obstacles.size === 0, null, { timeout: WAIT_MS });
}

async function simOrdersForSelectedAgents(page) {
  await newSimulation(page, 'empty:32x24');
  await addAgents(page, [[[3.5, 3.5], [3.5, 20.5]], [[5.5, 3.5], [5.5, 20.5]], [[20.5, 20.5], [25.5, 20.5]]]);
  // A box round the first two selects them, not the third.
  await page.check('input[name=sim-tool][value=select]');
  await page.mouse.move(...await simPoint(page, [2, 2]));
  await page.mouse.down();
  await page.mouse.move(...await simPoint(page, [7, 5]), { steps: 4 });
  await page.mouse.up();
  const ids = await page.evaluate(() => [...window.viewer.sim.selected].sort());
  assert.equal(ids.length, 2, `selected ${ids}`);
  assert.equal(await page.textContent('#sim-selected'), '2');
  // Right-click: their new goal, far right; their remaining paths end there (where the click
  // lands, to the pixel).
  await simClick(page, [28.5, 3.5], { button: 'right' });
  await page.waitForFunction((sel) => {
    const s = window.viewer.sim.state;
    return sel.every((i) => {
      const p = s.paths.find((q) => q.id === i)?.points;
      return p && p.length > 0 && Math.hypot(p[p.length - 1][0] - 28.5, p[p.length - 1][1] - 3.5) < 0.1;
    });
  }, ids, { timeout: WAIT_MS });
  await page.click('#sim-run');
  await page.waitForFunction(() => window.viewer.sim.state.tick >= 40, null, { timeout: WAIT_MS });
  let s = await simState(page);
  for (const i of ids) assert.ok(s.agents[i][0] > 6.5 && s.agents[i][1] < 6, `agent ${i} heads right: ${s.agents[i]}`);
  await page.screenshot({ path: path.join(artefacts, 'simulation-orders.png') });
  await page.click('#sim-order-stop');
  await page.waitForFunction((sel) => sel.every((i) => window.viewer.sim.state.status[i] === 'stopped'), ids,
    { timeout: WAIT_MS });
  assert.notEqual((await simState(page)).status[2], 'stopped', 'the unselected agent goes on');
  await page.click('#sim-order-resume');
  await page.waitForFunction((sel) => sel.every((i) => window.viewer.sim.state.status[i] !== 'stopped'), ids,
    { timeout: WAIT_MS });
  await page.click('#sim-stop');  // held still for the next clicks
  // Shift-click takes the first out of the selection; Remove takes the other out of the world.
  await page.keyboard.down('Shift');
  await simClick(page, (await simState(page)).agents[ids[0]].slice(0, 2));
  await page.keyboard.up('Shift');
  assert.deepEqual(await page.evaluate(() => [...window.viewer.sim.selected]), [ids[1]]);
  await page.click('#sim-order-remove');
  await page.waitForFunction((i) => window.viewer.sim.state.status[i] === 'removed', ids[1], { timeout: WAIT_MS });
  await page.click('#sim-stop');
  s = await simState(page);
  assert.equal(s.stats.agents, 2);
}

async function simOnANavmeshLevel(page) {
  await newSimulation(page, 'level:nav_test');
  assert.equal(await page.evaluate(() => window.viewer.sim.world.kind), 'navmesh');
  // RecastDemo's first nav_test query (data/meshes/nav_mesh_test.txt), in plan (x, z).
  await addAgents(page, [[[-1.564062, -20.452827], [19.181122, 3.011776]]]);
  const before = (await simState(page)).agents[0];
  await page.click('#sim-run');
  await page.waitForFunction(() => window.viewer.sim.state.tick >= 40, null, { timeout: WAIT_MS });
  await page.click('#sim-stop');
  const s = await simState(page);
  const moved = Math.hypot(s.agents[0][0] - before[0], s.agents[0][1] - before[1]);
  assert.ok(moved > 2, `moved ${moved}`);
  assert.ok(['moving', 'arrived'].includes(s.status[0]), s.status[0]);
  // A crate on the level; painting doors is for grids (the tool does nothing here).
  await page.check('input[name=sim-tool][value=crate]');
  await simClick(page, [5, 0]);
  await page.waitForFunction(() => window.viewer.sim.obstacles.size === 1, null, { timeout: WAIT_MS });
  await page.screenshot({ path: path.join(artefacts, 'simulation-navmesh.png') });
  await page.selectOption('#sim-map', 'empty:32x24');
  await page.click('#sim-new');
  await page.waitForFunction(() => window.viewer.sim.world?.kind === 'grid', null, { timeout: WAIT_MS });
  await page.click('#tabs button[data-view=grid]');
}

const tests = [
  ['grid: draw a wall, place start and goal, run A*, the path avoids the wall', gridRunAvoidsTheWall],
  ['grid: step mode advances, play and pause', stepModeAdvances],
  ['grid: two algorithms side by side', compareTwoAlgorithms],
  ['navmesh: two clicks show the shortest and the funnel path', navmeshQueryShowsAPath],
  ['navmesh: an obstacle dropped on the path changes it; taken away, the first path again', navmeshObstacleChangesThePath],
  ['simulation: agents added by clicking run, move and stop', simulationRunsAndAgentsMove],
  ['simulation: a door painted closed on an agent\'s route: it re-routes and arrives', simDoorReroutes],
  ['simulation: a crate dropped on a cell and taken away', simCrateDroppedAndTaken],
  ['simulation: selected agents get a new goal, stop, resume and removal', simOrdersForSelectedAgents],
  ['simulation: agents move on a navmesh level', simOnANavmeshLevel],
  ['visibility: a path among inflated obstacles', visibilityPathAmongObstacles],
  ['regions: three clicked seeds colour the map', regionsColourTheMap],
  ['roads: two clicked vertices, five algorithms, one cost', roadQueryCompares],
  ['8-puzzle: a typed and a shuffled board solved and animated to the goal', puzzleSolves],
];

// ---- running ------------------------------------------------------------------------------------

const { server, url } = await startServer();
const profile = mkdtempSync(path.join(tmpdir(), 'waymark-chromium-'));
let context;
let failures = 0;
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath, headless: true, args: chromiumFlags, viewport: { width: 1280, height: 900 },
  });
  const page = context.pages()[0] ?? await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  // Replies to a loopback browser go as they are (docs/viewer.md): compressing them cost more
  // than sending them. Chromium offers gzip, deflate, br and zstd with every request.
  const encoded = [];
  page.on('response', (r) => {
    const encoding = r.headers()['content-encoding'];  // synchronous: counted before the next check
    if (encoding) encoded.push(`${r.url()}: ${encoding}`);
  });
  await page.goto(url);
  await page.waitForSelector('body[data-ready=true]', { timeout: WAIT_MS });
  for (const [name, test] of tests) {
    try {
      await test(page);
      assert.deepEqual(pageErrors, [], 'no script errors on the page');
      assert.deepEqual(encoded, [], 'no reply compressed on loopback');
      console.log(`PASS ${name}`);
    } catch (e) {
      ++failures;
      console.log(`FAIL ${name}\n  ${e.stack ?? e}`);
      const file = path.join(artefacts, `failed-${tests.findIndex(([n]) => n === name)}.png`);
      await page.screenshot({ path: file, fullPage: true }).catch(() => {});
      console.log(`  page saved as ${file}`);
    }
  }
} finally {
  await context?.close();
  rmSync(profile, { recursive: true, force: true });
  server.kill('SIGINT');
  const code = server.exitCode ?? await new Promise((resolve) => server.on('exit', (c) => resolve(c)));
  if (code !== 0) {
    ++failures;
    console.log(`FAIL waymark serve stopped with ${code} after Ctrl-C\n${server.log}`);
  } else if (!/stopping \(signal 2\)/.test(server.log)) {
    ++failures;
    console.log('FAIL waymark serve did not log its stop');
  }
}
console.log(`${tests.length - Math.min(failures, tests.length)}/${tests.length} passed; screenshots in ${artefacts}`);
process.exit(failures === 0 ? 0 : 1);
