// Grid view: a Moving AI map or an empty grid to draw on, start and goal to drag, and a search
// run by the server (POST /api/path) whose events replay here step by step.
import { call, canvasPoint, fillSelect, Latest, showStats } from './api.js';

const BOARD_PX = 720;  // the longer canvas side
const EMPTY_MAPS = [['empty:32x24', 32, 24], ['empty:64x48', 64, 48], ['empty:128x96', 128, 96]];
const FREE = '.';
const TILE = { wall: '@', erase: FREE, swamp: 'S', water: 'W' };
const COLORS = {
  free: '#ffffff', wall: '#1b1b1b', swamp: '#9cbf7a', water: '#7fb3e6',
  open: '#2a7d2a', current: '#ffd400', path: '#666666', smooth: '#e8590c',
  start: '#1fae3a', goal: '#d92121', grid: '#e4e4e4',
};
const BLOCKED = new Set(['@', 'O', 'T']);

/// One search's replay: the events, how many are applied, and what they built.
class Replay {
  constructor(map, result) {
    this.result = result;
    this.events = result.events ?? [];
    this.applied = 0;
    this.order = new Int32Array(map.width * map.height).fill(-1);  // expansion index per cell
    this.open = new Uint8Array(map.width * map.height);
    this.expanded = 0;
    this.current = null;
    this.width = map.width;
  }

  get done() { return this.applied >= this.events.length; }

  /// Applies up to `n` more events.
  advance(n) {
    const end = Math.min(this.events.length, this.applied + n);
    for (; this.applied < end; ++this.applied) {
      const e = this.events[this.applied];
      if (!e.node) continue;
      const i = e.node[1] * this.width + e.node[0];
      if (e.event === 'open') {
        this.open[i] = 1;
      } else if (e.event === 'expand') {
        this.open[i] = 0;
        this.order[i] = this.expanded++;
        this.current = e.node;
      }
    }
  }
}

export class GridView {
  constructor(catalogue) {
    this.catalogue = catalogue;
    this.$ = (id) => document.getElementById(id);
    this.replays = [];
    this.playing = false;
    this.latest = new Latest();  // runs: only the newest is shown
    this.loads = new Latest();  // map loads: only the newest is kept
    this.loading = false;  // a bundled map is on its way: the mouse waits, runs wait
    fillSelect(this.$('grid-algorithm'), catalogue.algorithms, 'astar');
    fillSelect(this.$('grid-algorithm-b'), catalogue.algorithms, 'dijkstra');
    fillSelect(this.$('grid-diagonal'), catalogue.diagonals, 'no-corner-cutting');
    for (const h of catalogue.heuristics) this.$('grid-heuristic').append(new Option(h, h));
    const maps = this.$('grid-map');
    for (const [key, w, h] of EMPTY_MAPS) maps.append(new Option(`empty ${w}×${h}`, key));
    for (const m of catalogue.maps) maps.append(new Option(`${m.name} (${m.width}×${m.height})`, `map:${m.name}`));
    maps.addEventListener('change', () => { this.ready = this.loadMap(maps.value); });
    this.$('grid-run').addEventListener('click', () => this.run({ animate: false }));
    this.$('grid-play').addEventListener('click', () => this.play());
    this.$('grid-pause').addEventListener('click', () => { this.playing = false; });
    this.$('grid-step').addEventListener('click', () => this.step());
    this.$('grid-compare').addEventListener('change', () => {
      this.$('grid-figure-b').hidden = !this.$('grid-compare').checked;
      this.clearResults();
    });
    for (const id of ['grid-algorithm', 'grid-algorithm-b', 'grid-heuristic', 'grid-diagonal', 'grid-weight',
      'grid-smooth', 'grid-terrain']) {
      this.$(id).addEventListener('change', () => this.clearResults());
    }
    this.bindMouse(this.$('grid-canvas-a'));
    this.bindMouse(this.$('grid-canvas-b'));
    this.ready = this.loadMap(maps.value);
  }

  // ---- the map ---------------------------------------------------------------------------

  async loadMap(key) {
    this.playing = false;
    const ticket = this.loads.take();
    this.loading = false;
    if (key.startsWith('empty:')) {
      const [w, h] = key.slice(6).split('x').map(Number);
      this.setMap({ width: w, height: h, rows: Array.from({ length: h }, () => FREE.repeat(w)) });
      return;
    }
    this.loading = true;
    const reply = await call(`/api/map?name=${encodeURIComponent(key.slice(4))}`);
    if (!this.loads.is(ticket)) return;
    this.loading = false;
    if (!reply.ok) {
      this.showError(reply.data.error);
      return;
    }
    this.setMap(reply.data);
  }

  setMap({ width, height, rows }) {
    this.map = { width, height, cells: rows.map((r) => Array.from(r)) };
    this.cellPx = Math.max(1, Math.floor(BOARD_PX / Math.max(width, height)));
    for (const canvas of [this.$('grid-canvas-a'), this.$('grid-canvas-b')]) {
      canvas.width = width * this.cellPx;
      canvas.height = height * this.cellPx;
    }
    this.start = this.firstFree(0, 0, 1);
    this.goal = this.firstFree(width - 1, height - 1, -1);
    this.clearResults();
  }

  /// The first passable cell scanning rows from (x, y) in direction `dir` (±1).
  firstFree(x, y, dir) {
    const { width, height } = this.map;
    for (let i = 0; i < width * height; ++i) {
      const k = dir > 0 ? y * width + x + i : y * width + x - i;
      const cell = [k % width, Math.floor(k / width)];
      if (this.passable(cell)) return cell;
    }
    return [x, y];
  }

  tile([x, y]) { return this.map.cells[y][x]; }

  passable(cell) {
    const t = this.tile(cell);
    if (BLOCKED.has(t)) return false;
    return t !== 'W' || this.$('grid-terrain').checked;
  }

  // ---- drawing with the mouse ------------------------------------------------------------

  cellAt(canvas, event) {
    const [x, y] = canvasPoint(canvas, event).map((v) => Math.floor(v / this.cellPx));
    if (x < 0 || y < 0 || x >= this.map.width || y >= this.map.height) return null;
    return [x, y];
  }

  bindMouse(canvas) {
    let dragging = null;  // 'start', 'goal', or a drawing tool
    let rerun = false;  // a result was shown when the drag began
    const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
    const apply = (cell) => {
      if (!cell) return;
      if (dragging === 'start' || dragging === 'goal') {
        if (BLOCKED.has(this.tile(cell)) || same(cell, dragging === 'start' ? this.goal : this.start)) return;
        this[dragging] = cell;
      } else {
        if (same(cell, this.start) || same(cell, this.goal)) return;
        this.map.cells[cell[1]][cell[0]] = TILE[dragging];
        if (dragging === 'swamp' || dragging === 'water') this.$('grid-terrain').checked = true;
      }
      this.clearResults();
    };
    canvas.addEventListener('mousedown', (event) => {
      const cell = this.cellAt(canvas, event);
      if (!cell || this.loading) return;
      const tool = document.querySelector('input[name=grid-tool]:checked').value;
      rerun = this.lastRun;
      dragging = same(cell, this.start) ? 'start' : same(cell, this.goal) ? 'goal' : tool;
      this.playing = false;
      apply(cell);
    });
    canvas.addEventListener('mousemove', (event) => {
      if (dragging) apply(this.cellAt(canvas, event));
    });
    const stop = () => {
      const moved = dragging === 'start' || dragging === 'goal';
      dragging = null;
      if (moved && rerun) this.run({ animate: false });  // a dragged endpoint re-runs at once
      rerun = false;
    };
    canvas.addEventListener('mouseup', stop);
    canvas.addEventListener('mouseleave', stop);
  }

  // ---- searching -------------------------------------------------------------------------

  request(algorithm) {
    const weight = Number(this.$('grid-weight').value);
    return {
      map: { width: this.map.width, height: this.map.height, rows: this.map.cells.map((r) => r.join('')) },
      from: this.start,
      to: this.goal,
      algorithm,
      diagonal: this.$('grid-diagonal').value,
      heuristic: this.$('grid-heuristic').value || undefined,
      // Only wastar takes a weight (the API refuses one elsewhere); 1.5 is its default.
      weight: algorithm === 'wastar' && Number.isFinite(weight) ? weight : undefined,
      smooth: this.$('grid-smooth').checked,
      terrain: this.$('grid-terrain').checked,
      trace: true,
    };
  }

  algorithms() {
    const list = [this.$('grid-algorithm').value];
    if (this.$('grid-compare').checked) list.push(this.$('grid-algorithm-b').value);
    return list;
  }

  /// Runs the search(es); shown whole, or replayed from the first event when `animate`.
  async run({ animate }) {
    this.playing = false;
    await this.ready;  // the map chosen last is the one searched
    this.showError('');
    const ticket = this.latest.take();
    const replies = await Promise.all(this.algorithms().map((a) => call('/api/path', this.request(a))));
    if (!this.latest.is(ticket)) return false;  // the map, the ends or the choice changed meanwhile
    const failed = replies.find((r) => !r.ok);
    if (failed) {
      this.clearResults();
      this.showError(failed.data.error);
      return false;
    }
    this.replays = replies.map((r) => new Replay(this.map, r.data));
    this.lastRun = true;
    if (!animate) for (const r of this.replays) r.advance(r.events.length);
    this.draw();
    return true;
  }

  /// Whether the next step or play starts a new replay (nothing shown, or the last one ended).
  needsRun() { return this.replays.length === 0 || this.replays.every((r) => r.done); }

  async step() {
    this.playing = false;
    if (this.needsRun() && !(await this.run({ animate: true }))) return;
    for (const r of this.replays) r.advance(1);
    this.draw();
  }

  async play() {
    if (this.playing) return;
    if (this.needsRun() && !(await this.run({ animate: true }))) return;
    this.playing = true;
    const frame = () => {
      if (!this.playing) return;
      const n = Number(this.$('grid-speed').value);
      for (const r of this.replays) r.advance(n);
      this.draw();
      if (this.replays.every((r) => r.done)) this.playing = false;
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }

  clearResults() {
    this.latest.take();
    this.replays = [];
    this.lastRun = false;
    this.draw();
  }

  showError(text) { this.$('grid-error').textContent = text; }

  // ---- pictures --------------------------------------------------------------------------

  draw() {
    const boards = [['a', this.replays[0]], ['b', this.replays[1]]];
    for (const [side, replay] of boards) {
      this.drawBoard(this.$(`grid-canvas-${side}`), replay);
      this.showReplayStats(this.$(`grid-stats-${side}`), replay);
    }
    const first = this.replays[0];
    this.$('grid-step-index').textContent = first ? first.applied : 0;
    this.$('grid-step-total').textContent = first ? first.events.length : 0;
  }

  drawBoard(canvas, replay) {
    const ctx = canvas.getContext('2d');
    const { width, height, cells } = this.map;
    const s = this.cellPx;
    ctx.fillStyle = COLORS.free;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    const total = replay ? Math.max(1, replay.expanded) : 1;
    for (let y = 0; y < height; ++y) {
      for (let x = 0; x < width; ++x) {
        const t = cells[y][x];
        let color = null;
        if (BLOCKED.has(t)) color = COLORS.wall;
        else if (t === 'S') color = COLORS.swamp;
        else if (t === 'W') color = this.$('grid-terrain').checked ? COLORS.water : COLORS.wall;
        const order = replay ? replay.order[y * width + x] : -1;
        if (order >= 0) {
          // Earlier expansions light, later ones darker.
          const k = order / total;
          color = `rgb(${Math.round(190 - 110 * k)}, ${Math.round(215 - 90 * k)}, ${Math.round(245 - 40 * k)})`;
        }
        if (color) {
          ctx.fillStyle = color;
          ctx.fillRect(x * s, y * s, s, s);
        }
        if (replay && replay.open[y * width + x] && s >= 3) {
          ctx.strokeStyle = COLORS.open;
          ctx.lineWidth = Math.max(1, s / 8);
          ctx.strokeRect(x * s + 0.5, y * s + 0.5, s - 1, s - 1);
        }
      }
    }
    if (s >= 8) {
      ctx.strokeStyle = COLORS.grid;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let x = 0; x <= width; ++x) { ctx.moveTo(x * s + 0.5, 0); ctx.lineTo(x * s + 0.5, height * s); }
      for (let y = 0; y <= height; ++y) { ctx.moveTo(0, y * s + 0.5); ctx.lineTo(width * s, y * s + 0.5); }
      ctx.stroke();
    }
    if (replay?.current && !replay.done) {
      ctx.fillStyle = COLORS.current;
      ctx.fillRect(replay.current[0] * s, replay.current[1] * s, s, s);
    }
    if (replay?.done) {
      this.polyline(ctx, replay.result.path, COLORS.path, Math.max(2, s * 0.35));
      if (replay.result.smoothed) this.polyline(ctx, replay.result.smoothed.path, COLORS.smooth, Math.max(2, s * 0.2));
    }
    this.marker(ctx, this.start, COLORS.start);
    this.marker(ctx, this.goal, COLORS.goal);
  }

  polyline(ctx, cells, color, width) {
    if (!cells || cells.length === 0) return;
    const s = this.cellPx;
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    ctx.beginPath();
    cells.forEach(([x, y], i) => (i ? ctx.lineTo : ctx.moveTo).call(ctx, (x + 0.5) * s, (y + 0.5) * s));
    ctx.stroke();
  }

  marker(ctx, [x, y], color) {
    const s = this.cellPx;
    ctx.fillStyle = color;
    ctx.beginPath();
    ctx.arc((x + 0.5) * s, (y + 0.5) * s, Math.max(3, s * 0.45), 0, 2 * Math.PI);
    ctx.fill();
  }

  showReplayStats(table, replay) {
    if (!replay) {
      table.replaceChildren();
      return;
    }
    const r = replay.result;
    const cost = r.smoothed ? r.smoothed.cost : r.cost;
    showStats(table, [
      ['algorithm', 'algorithm', r.algorithm],
      ['status', 'status', r.reason ? `${r.status} (${r.reason})` : r.status],
      ['expanded', 'expanded', r.stats.expanded],
      ['cost', 'cost', cost === null ? '–' : cost.toFixed(3)],
      ['length', 'path length', (r.smoothed ? r.smoothed.length : r.stats.length).toFixed(3)],
      ['steps', 'steps', r.stats.steps],
      ['time', 'time', `${r.stats.time_us.toFixed(1)} µs`],
      ['events', 'events', `${replay.events.length}${r.events_truncated ? ' (truncated)' : ''}`],
    ]);
  }
}
