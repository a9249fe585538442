// Live steering simulation: the server keeps a Simulation (POST /api/sim/start) that the page
// steps while running (/api/sim/step) and grows by clicks (/api/sim/add).
import { call, canvasPoint, Latest, showStats } from './api.js';

const BOARD_PX = 720;
const TICKS_PER_FRAME = 1;
const COLORS = { free: '#fff', wall: '#1b1b1b', agent: '#1c64d6', arrived: '#1fae3a', pending: '#d92121', trail: '#9db7e0' };
const BLOCKED = new Set(['@', 'O', 'T', 'W']);

export class SimView {
  constructor(catalogue) {
    this.$ = (id) => document.getElementById(id);
    this.canvas = this.$('sim-canvas');
    this.running = false;
    this.pendingStart = null;
    this.latest = new Latest();  // starts
    this.loops = new Latest();  // run loops
    const maps = [['empty:32x24', 'empty 32×24'], ...catalogue.maps.map((m) => [`map:${m.name}`, m.name])];
    const select = this.$('sim-map');
    select.replaceChildren(...maps.map(([value, label]) => new Option(label, value)));
    this.$('sim-new').addEventListener('click', () => this.start());
    this.$('sim-run').addEventListener('click', () => this.run());
    this.$('sim-stop').addEventListener('click', () => {
      this.running = false;
      this.loops.take();  // a step still out is not shown: Stop holds the picture at once
    });
    this.$('sim-random').addEventListener('click', () => this.addRandom(10));
    this.canvas.addEventListener('click', (e) => this.click(e));
  }

  async onShow() {
    if (this.id === undefined) await this.start();
  }

  async start() {
    this.running = false;
    const ticket = this.latest.take();
    const old = this.id;
    this.id = undefined;  // clicks, steps and adds wait for the new simulation
    this.pendingStart = null;
    if (old !== undefined) await call('/api/sim/stop', { id: old });
    const key = this.$('sim-map').value;
    let rows;
    let map;
    if (key.startsWith('empty:')) {
      const [w, h] = key.slice(6).split('x').map(Number);
      rows = Array.from({ length: h }, () => '.'.repeat(w));
      map = { width: w, height: h, rows };
    } else {
      const reply = await call(`/api/map?name=${encodeURIComponent(key.slice(4))}`);
      if (!this.latest.is(ticket)) return false;
      if (!reply.ok) return this.error(reply.data.error);
      rows = reply.data.rows;
      map = { name: key.slice(4) };
    }
    const reply = await call('/api/sim/start', { map, agents: [] });
    if (!this.latest.is(ticket)) {  // a later start won: this simulation is nobody's
      if (reply.ok) call('/api/sim/stop', { id: reply.data.id });
      return false;
    }
    if (!reply.ok) return this.error(reply.data.error);
    this.error('');
    this.id = reply.data.id;
    this.rows = rows;
    this.cellPx = Math.max(1, Math.floor(BOARD_PX / Math.max(reply.data.width, reply.data.height)));
    this.canvas.width = reply.data.width * this.cellPx;
    this.canvas.height = reply.data.height * this.cellPx;
    this.trails = [];
    this.state = undefined;
    this.show(reply.data);
    return true;
  }

  error(text) {
    this.$('sim-error').textContent = text;
    return false;
  }

  worldAt(event) {
    return canvasPoint(this.canvas, event).map((v) => v / this.cellPx);
  }

  async click(event) {
    if (this.id === undefined) return;
    const p = this.worldAt(event);
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

  /// Agents between random free cells (the server refuses none: both ends are free).
  async addRandom(n) {
    const id = this.id;
    if (id === undefined) return false;
    const free = [];
    this.rows.forEach((row, y) => Array.from(row).forEach((c, x) => { if (!BLOCKED.has(c)) free.push([x, y]); }));
    for (let i = 0; i < n && free.length > 1; ++i) {
      const [a, b] = [free[Math.floor(Math.random() * free.length)], free[Math.floor(Math.random() * free.length)]];
      const reply = await call('/api/sim/add', { id, start: [a[0] + 0.5, a[1] + 0.5], goal: [b[0] + 0.5, b[1] + 0.5] });
      if (this.id !== id) return false;
      if (!reply.ok) return this.error(reply.data.error);
      this.show(reply.data);
    }
    return true;
  }

  run() {
    if (this.running || this.id === undefined) return;
    this.running = true;
    const id = this.id;
    const loop = this.loops.take();  // Stop then Run while a step is out: only this loop goes on
    const frame = async () => {
      if (!this.running || !this.loops.is(loop)) return;
      const reply = await call('/api/sim/step', { id, ticks: TICKS_PER_FRAME });
      if (this.id !== id || !this.loops.is(loop)) return;  // a new simulation or loop meanwhile
      if (!reply.ok) {
        this.running = false;
        this.error(reply.data.error);
        return;
      }
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
    showStats(this.$('sim-stats'), [
      ['agents', 'agents', s.agents],
      ['arrived', 'arrived', s.arrived],
      ['waiting', 'waiting for a path', s.waiting],
      ['collisions', 'collisions', s.collisions],
      ['clearance', 'min clearance', s.min_clearance.toFixed(3)],
      ['tick_us', 'mean tick', `${s.mean_tick_us.toFixed(1)} µs`],
    ]);
    this.draw();
  }

  draw() {
    const ctx = this.canvas.getContext('2d');
    const s = this.cellPx;
    ctx.fillStyle = COLORS.free;
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    if (!this.rows) return;
    ctx.fillStyle = COLORS.wall;
    this.rows.forEach((row, y) => Array.from(row).forEach((c, x) => { if (BLOCKED.has(c)) ctx.fillRect(x * s, y * s, s, s); }));
    ctx.strokeStyle = COLORS.trail;
    ctx.lineWidth = 1;
    for (const trail of this.trails) {
      ctx.beginPath();
      trail.forEach(([x, y], i) => (i ? ctx.lineTo : ctx.moveTo).call(ctx, x * s, y * s));
      ctx.stroke();
    }
    for (const [x, y, arrived] of this.state?.agents ?? []) {
      ctx.fillStyle = arrived ? COLORS.arrived : COLORS.agent;
      ctx.beginPath();
      ctx.arc(x * s, y * s, Math.max(2, 0.35 * s), 0, 2 * Math.PI);
      ctx.fill();
    }
    if (this.pendingStart) {
      ctx.strokeStyle = COLORS.pending;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(this.pendingStart[0] * s, this.pendingStart[1] * s, Math.max(3, 0.4 * s), 0, 2 * Math.PI);
      ctx.stroke();
    }
  }
}
