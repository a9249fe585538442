// Live steering simulation: the server keeps a Simulation (POST /api/sim/start) on a grid map
// or a navmesh level, that the page steps while running (/api/sim/step), grows by clicks
// (/api/sim/add), and changes while it runs: doors painted closed or open (/api/sim/edit),
// crates dropped and taken away (/api/sim/obstacle), selected agents given orders
// (/api/sim/order). The picture: sim_draw.js.
import { call, canvasPoint, Latest, showStats } from './api.js';
import { drawSimulation, drawWorld, Frame } from './sim_draw.js';

const BOARD_PX = 720;
const MARGIN_PX = 12;
const TICKS_PER_FRAME = 1;
const MAX_PATHS = 64;  // the server's max_sim_paths_shown
const PICK_PX = 6;  // a click this close to an agent's disc picks it
const DRAG_PX = 4;  // a press that moves further is a drag
const CRATE = 1;  // a crate's side, world units (a cell on a grid)

export class SimView {
  constructor(catalogue) {
    this.$ = (id) => document.getElementById(id);
    this.canvas = this.$('sim-canvas');
    this.running = false;
    this.pendingStart = null;
    this.selected = new Set();
    this.obstacles = new Map();
    this.trails = [];
    this.latest = new Latest();  // starts
    this.loops = new Latest();  // run loops
    this.changes = Promise.resolve();  // world changes and orders, one at a time, in order
    this.inFlight = 0;  // of those, not answered yet
    this.fillLevels(catalogue);
    this.$('sim-new').addEventListener('click', () => this.start());
    this.$('sim-run').addEventListener('click', () => this.run());
    this.$('sim-stop').addEventListener('click', () => {
      this.running = false;
      this.loops.take();  // a step still out is not shown: Stop holds the picture at once
    });
    this.$('sim-random').addEventListener('click', () => this.addRandom(10));
    for (const order of ['stop', 'resume', 'remove']) {
      this.$(`sim-order-${order}`).addEventListener('click', () => this.order(order));
    }
    this.canvas.addEventListener('mousedown', (e) => this.press(e));
    this.canvas.addEventListener('mousemove', (e) => this.drag(e));
    this.canvas.addEventListener('mouseup', (e) => this.release(e));
    this.canvas.addEventListener('contextmenu', (e) => {
      e.preventDefault();  // right-click: the selection's new goal
      if (this.id !== undefined) this.order('goal', this.worldAt(e));
    });
  }

  /// The level picker: grid maps (an empty world and the bundled maps), then navmesh levels.
  fillLevels(catalogue) {
    const group = (label, entries) => {
      const g = document.createElement('optgroup');
      g.label = label;
      g.append(...entries.map(([value, text]) => new Option(text, value)));
      return g;
    };
    this.$('sim-map').replaceChildren(
      group('grid maps', [['empty:32x24', 'empty 32×24'], ...catalogue.maps.map((m) => [`map:${m.name}`, m.name])]),
      group('navmesh levels', (catalogue.meshes ?? []).map((name) => [`level:${name}`, name])));
  }

  tool() { return document.querySelector('input[name=sim-tool]:checked').value; }

  async onShow() {
    if (this.id === undefined) await this.start();
  }

  // ---- the simulation and its world ------------------------------------------------------------

  async start() {
    this.running = false;
    const ticket = this.latest.take();
    const old = this.id;
    this.id = undefined;  // clicks, steps and adds wait for the new simulation
    this.pendingStart = null;
    if (old !== undefined) await call('/api/sim/stop', { id: old });
    const key = this.$('sim-map').value;
    const name = key.slice(key.indexOf(':') + 1);
    let request;
    if (key.startsWith('empty:')) {
      const [w, h] = name.split('x').map(Number);
      request = { map: { width: w, height: h, rows: Array.from({ length: h }, () => '.'.repeat(w)) } };
    } else {
      request = key.startsWith('level:') ? { level: name } : { map: { name } };
    }
    const reply = await call('/api/sim/start', { ...request, agents: [] });
    if (!this.latest.is(ticket)) {  // a later start won: this simulation is nobody's
      if (reply.ok) call('/api/sim/stop', { id: reply.data.id });
      return false;
    }
    if (!reply.ok) return this.error(reply.data.error);
    const id = reply.data.id;
    const [world, level] = await Promise.all([
      call('/api/sim/world', { id }),
      reply.data.kind === 'navmesh' ? call(`/api/navmesh?name=${encodeURIComponent(name)}`) : null,
    ]);
    if (!this.latest.is(ticket)) return false;
    if (!world.ok || (level && !level.ok)) return this.error((level?.ok === false ? level : world).data.error);
    this.error('');
    this.id = id;
    this.level = level?.data;
    this.frame = this.frameFor(reply.data);
    this.cellPx = this.frame.scale;  // grid worlds: pixels per cell
    this.selected.clear();
    this.trails = [];
    this.state = undefined;
    this.world = undefined;
    this.setWorld(world.data);
    this.show(reply.data);
    return true;
  }

  /// The canvas's frame: a grid's cells at a whole number of pixels each, a level's bounds
  /// fitted into the board with a margin.
  frameFor(started) {
    if (started.kind === 'grid') {
      const cellPx = Math.max(1, Math.floor(BOARD_PX / Math.max(started.width, started.height)));
      this.canvas.width = started.width * cellPx;
      this.canvas.height = started.height * cellPx;
      return new Frame([0, 0], cellPx);
    }
    const [[x0, z0], [x1, z1]] = started.bounds;
    const scale = (BOARD_PX - 2 * MARGIN_PX) / Math.max(x1 - x0, z1 - z0, 1e-9);
    this.canvas.width = Math.ceil((x1 - x0) * scale) + 2 * MARGIN_PX;
    this.canvas.height = Math.ceil((z1 - z0) * scale) + 2 * MARGIN_PX;
    return new Frame([x0 - MARGIN_PX / scale, z0 - MARGIN_PX / scale], scale);
  }

  /// The world as POST /api/sim/world gives it: the map's cells or the level, the crates.
  setWorld(data) {
    if (this.world && data.world < this.world.version) return;  // an older read
    this.world = { kind: data.kind, version: data.world, width: data.width, height: data.height, level: this.level };
    if (data.kind === 'grid') {
      this.world.blocked = Uint8Array.from(data.rows.join(''), (c) => (c === '@' ? 1 : 0));
    }
    this.obstacles = new Map(data.obstacles.map((o) => [o.id, o]));
    this.background = drawWorld(this.world, this.frame, this.canvas.width, this.canvas.height);
  }

  /// Runs `request` (a change of the world or an order) after those before it, counted as in
  /// flight meanwhile (steps then do not refetch the world they change).
  enqueue(request) {
    ++this.inFlight;
    const done = this.changes.then(request).finally(() => --this.inFlight);
    this.changes = done.catch(() => {});
    return done;
  }

  /// An answer that changed the world to `version`: applied at once when it is the next
  /// change, else the world is read again (another page changed it too).
  async worldChanged(version, apply) {
    if (version === this.world.version) return;
    if (version === this.world.version + 1) {
      apply();
      this.world.version = version;
      this.background = drawWorld(this.world, this.frame, this.canvas.width, this.canvas.height);
      this.draw();
      return;
    }
    await this.refetchWorld();
  }

  async refetchWorld() {
    if (this.refetching) return;  // one read at a time
    this.refetching = true;
    const id = this.id;
    const reply = await call('/api/sim/world', { id }).finally(() => { this.refetching = false; });
    if (this.id !== id || !reply.ok) return;
    this.setWorld(reply.data);
    this.draw();
  }

  error(text) {
    this.$('sim-error').textContent = text;
    return false;
  }

  // ---- the mouse -------------------------------------------------------------------------------

  worldAt(event) { return this.frame.toWorld(canvasPoint(this.canvas, event)); }

  press(event) {
    if (this.id === undefined || event.button !== 0) return;
    const p = this.worldAt(event);
    this.pressed = { at: canvasPoint(this.canvas, event), world: p, moved: false };
    if (this.tool() === 'door' && this.world.kind === 'grid') {
      const cell = this.cellAt(p);
      if (!cell) return;
      // The first cell decides: a drag from a blocked cell opens, from a free one blocks.
      this.paint = { blocked: !this.world.blocked[cell[1] * this.world.width + cell[0]], done: new Set() };
      this.paintCell(cell);
    }
  }

  drag(event) {
    if (!this.pressed) return;
    if (event.buttons === 0) {  // released outside the canvas
      this.pressed = null;
      this.paint = null;
      this.dragBox = null;
      return;
    }
    const [px, py] = canvasPoint(this.canvas, event);
    const [ax, ay] = this.pressed.at;
    if (Math.hypot(px - ax, py - ay) > DRAG_PX) this.pressed.moved = true;
    const p = this.worldAt(event);
    if (this.paint) {
      const cell = this.cellAt(p);
      if (cell) this.paintCell(cell);
    } else if (this.tool() === 'select' && this.pressed.moved) {
      this.dragBox = [this.pressed.world, p];
      this.draw();
    }
  }

  release(event) {
    const pressed = this.pressed;
    this.pressed = null;
    this.paint = null;
    if (!pressed || this.id === undefined || event.button !== 0) return;
    const p = this.worldAt(event);
    switch (this.tool()) {
      case 'agent': if (!pressed.moved) this.clickAgentEnd(p); break;
      case 'select':
        if (this.dragBox) this.selectBox(this.dragBox, event.shiftKey);
        else this.selectAt(p, event.shiftKey);
        this.dragBox = null;
        this.draw();
        break;
      case 'goal': this.order('goal', p); break;
      case 'crate': if (!pressed.moved) this.crateAt(p); break;
      default: break;
    }
  }

  cellAt([x, y]) {
    const c = [Math.floor(x), Math.floor(y)];
    return c[0] >= 0 && c[1] >= 0 && c[0] < this.world.width && c[1] < this.world.height ? c : null;
  }

  /// Closes or opens one cell (as the drag's first cell decided), once per drag.
  paintCell([x, y]) {
    const key = y * this.world.width + x;
    const { blocked, done } = this.paint;
    if (done.has(key) || Boolean(this.world.blocked[key]) === blocked) return;
    done.add(key);
    const id = this.id;
    this.enqueue(async () => {
      const reply = await call('/api/sim/edit', { id, [blocked ? 'block' : 'open']: [x, y, x + 1, y + 1] });
      if (this.id !== id) return;
      if (!reply.ok) return this.error(reply.data.error);
      await this.worldChanged(reply.data.world, () => {
        const [x0, y0, x1, y1] = reply.data.area;
        for (let cy = y0; cy < y1; ++cy) this.world.blocked.fill(blocked ? 1 : 0, cy * this.world.width + x0, cy * this.world.width + x1);
      });
    });
  }

  /// Takes away the crate under `p`, or drops one there (on a grid: on the cell).
  crateAt(p) {
    const hit = [...this.obstacles.values()].find((o) => (o.box
      ? p[0] >= o.box[0] && p[0] <= o.box[2] && p[1] >= o.box[1] && p[1] <= o.box[3]
      : Math.hypot(p[0] - o.circle[0], p[1] - o.circle[1]) <= o.circle[2]));
    const [x, y] = this.world.kind === 'grid' ? p.map(Math.floor) : p.map((v) => v - CRATE / 2);
    const request = hit ? { remove: hit.id } : { box: [x, y, x + CRATE, y + CRATE] };
    const id = this.id;
    return this.enqueue(async () => {
      const reply = await call('/api/sim/obstacle', { id, ...request });
      if (this.id !== id) return;
      if (!reply.ok) return this.error(reply.data.error);
      this.error('');
      await this.worldChanged(reply.data.world, () => {
        if (hit) this.obstacles.delete(hit.id);
        else this.obstacles.set(reply.data.added.id, reply.data.added);
      });
    });
  }

  /// The live agent whose disc is under the canvas point of `p`, or undefined.
  agentAt(p) {
    const [px, py] = this.frame.toPixel(p);
    let best;
    let bestDistance = Infinity;
    (this.state?.agents ?? []).forEach(([x, y], i) => {
      if (this.state.status[i] === 'removed') return;
      const [ax, ay] = this.frame.toPixel([x, y]);
      const d = Math.hypot(ax - px, ay - py);
      if (d < bestDistance) [best, bestDistance] = [i, d];
    });
    return bestDistance <= Math.max(2.5, 0.35 * this.frame.scale) + PICK_PX ? best : undefined;
  }

  selectAt(p, shift) {
    const hit = this.agentAt(p);
    if (!shift) this.selected.clear();
    if (hit === undefined) return;
    if (shift && this.selected.has(hit)) this.selected.delete(hit);
    else this.selected.add(hit);
    this.showSelection();
  }

  selectBox([[ax, ay], [bx, by]], shift) {
    if (!shift) this.selected.clear();
    (this.state?.agents ?? []).forEach(([x, y], i) => {
      if (this.state.status[i] !== 'removed' && x >= Math.min(ax, bx) && x <= Math.max(ax, bx) &&
          y >= Math.min(ay, by) && y <= Math.max(ay, by)) this.selected.add(i);
    });
    this.showSelection();
  }

  showSelection() { this.$('sim-selected').textContent = this.selected.size; }

  /// An order for the selected agents: 'goal' (at `goal`), 'stop', 'resume' or 'remove'.
  order(order, goal) {
    if (this.id === undefined || this.selected.size === 0) return Promise.resolve(false);
    const id = this.id;
    const agents = [...this.selected];
    return this.enqueue(async () => {
      const reply = await call('/api/sim/order', { id, agents, order, ...(goal ? { goal } : {}), paths: this.paths() });
      if (this.id !== id) return false;
      if (!reply.ok) return this.error(reply.data.error);
      this.error('');
      if (order === 'remove') agents.forEach((a) => this.selected.delete(a));
      this.showSelection();
      this.show(reply.data);
      return true;
    });
  }

  /// Click a start, then a goal: a new agent.
  async clickAgentEnd(p) {
    if (!this.pendingStart) {
      this.pendingStart = p;
      this.draw();
      return;
    }
    const start = this.pendingStart;
    this.pendingStart = null;  // before the await: the next click may come first
    const id = this.id;
    const reply = await call('/api/sim/add', { id, start, goal: p });
    if (this.id !== id) return;
    if (!reply.ok) {
      this.error(reply.data.error);
      this.draw();
      return;
    }
    this.error('');
    this.show(reply.data);
  }

  /// Places where an agent may stand: free cell centres, or the level's polygon centroids.
  freePoints() {
    if (this.world.kind === 'navmesh') {
      const { vertices, polys } = this.level;
      return polys.map((poly) => [0, 2].map((k) => poly.reduce((s, v) => s + vertices[v][k], 0) / poly.length));
    }
    const free = [];
    this.world.blocked.forEach((b, i) => {
      if (!b) free.push([(i % this.world.width) + 0.5, Math.floor(i / this.world.width) + 0.5]);
    });
    return free;
  }

  /// Agents between random free points (the server refuses none on a grid: both ends are free;
  /// on a level, two points may lie on islands apart: the agent is then unreachable).
  async addRandom(n) {
    const id = this.id;
    if (id === undefined) return false;
    const free = this.freePoints();
    const pick = () => free[Math.floor(Math.random() * free.length)];
    for (let i = 0; i < n && free.length > 1; ++i) {
      const reply = await call('/api/sim/add', { id, start: pick(), goal: pick() });
      if (this.id !== id) return false;
      if (!reply.ok) return this.error(reply.data.error);
      this.show(reply.data);
    }
    return true;
  }

  // ---- running and showing ---------------------------------------------------------------------

  /// The selected agents whose remaining paths the answers should carry.
  paths() { return [...this.selected].slice(0, MAX_PATHS); }

  run() {
    if (this.running || this.id === undefined) return;
    this.running = true;
    const id = this.id;
    const loop = this.loops.take();  // Stop then Run while a step is out: only this loop goes on
    const frame = async () => {
      if (!this.running || !this.loops.is(loop)) return;
      const reply = await call('/api/sim/step', { id, ticks: TICKS_PER_FRAME, paths: this.paths() });
      if (this.id !== id || !this.loops.is(loop)) return;  // a new simulation or loop meanwhile
      if (!reply.ok) {
        this.running = false;
        this.error(reply.data.error);
        return;
      }
      // Another page changed the world: read it again (not while our own changes are out).
      if (reply.data.world > this.world.version && this.inFlight === 0) this.refetchWorld();
      this.show(reply.data);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }

  show(state) {
    // Adds and steps answered out of order: an older state (fewer ticks, or as many ticks and
    // fewer agents; a simulation only grows) never replaces a newer one.
    const shown = this.state;
    if (shown && (state.tick < shown.tick || (state.tick === shown.tick && state.agents.length < shown.agents.length))) return;
    this.state = state;
    state.agents.forEach(([x, y], i) => {
      (this.trails[i] ??= []).push([x, y]);
      if (this.trails[i].length > 400) this.trails[i].shift();
    });
    this.$('sim-tick').textContent = state.tick;
    const s = state.stats;
    const count = (name) => state.status.filter((v) => v === name).length;
    showStats(this.$('sim-stats'), [
      ['agents', 'agents', s.agents],
      ['arrived', 'arrived', s.arrived],
      ['waiting', 'waiting for a path', s.waiting],
      ['unreachable', 'unreachable', count('unreachable')],
      ['stopped', 'stopped', count('stopped')],
      ['collisions', 'collisions', s.collisions],
      ['clearance', 'min clearance', s.min_clearance.toFixed(3)],
      ['edits', 'world edits', s.edits],
      ['edit_replans', 're-plans after edits', s.edit_replans],
      ['tick_us', 'mean tick', `${s.mean_tick_us.toFixed(1)} µs`],
    ]);
    this.draw();
  }

  draw() {
    if (!this.background) return;
    drawSimulation(this.canvas.getContext('2d'), this);
  }
}
