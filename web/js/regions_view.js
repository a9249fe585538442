// Regions view: Dirichlet regions of a grid map (POST /api/regions), one seed per click,
// labelled again after every click.
import { call, canvasPoint, Latest, showStats } from './api.js';

const BOARD_PX = 720;
const GOLDEN_ANGLE = 137.508;
const BLOCKED = new Set(['@', 'O', 'T', 'W']);

export class RegionsView {
  constructor(catalogue) {
    this.$ = (id) => document.getElementById(id);
    this.canvas = this.$('regions-canvas');
    this.seeds = [];
    const maps = [['empty:48x32', 'empty 48×32'], ...catalogue.maps.map((m) => [`map:${m.name}`, m.name])];
    this.$('regions-map').replaceChildren(...maps.map(([value, label]) => new Option(label, value)));
    this.$('regions-map').addEventListener('change', () => this.load());
    this.$('regions-metric').addEventListener('change', () => this.label());
    this.latest = new Latest();  // labels
    this.loads = new Latest();
    this.loading = false;  // a bundled map is on its way: clicks wait
    this.$('regions-clear').addEventListener('click', () => { this.latest.take(); this.seeds = []; this.result = null; this.show(); });
    this.canvas.addEventListener('click', (e) => this.click(e));
  }

  async onShow() {
    if (!this.rows) await this.load();
  }

  async load() {
    const key = this.$('regions-map').value;
    const ticket = this.loads.take();
    this.latest.take();  // a labelling in flight is for the old map
    this.loading = false;
    this.seeds = [];
    this.result = null;
    if (key.startsWith('empty:')) {
      const [w, h] = key.slice(6).split('x').map(Number);
      this.rows = Array.from({ length: h }, () => '.'.repeat(w));
      this.map = { width: w, height: h, rows: this.rows };
    } else {
      this.loading = true;
      const reply = await call(`/api/map?name=${encodeURIComponent(key.slice(4))}`);
      if (!this.loads.is(ticket)) return false;
      this.loading = false;
      if (!reply.ok) return this.error(reply.data.error);
      this.rows = reply.data.rows;
      this.map = { name: key.slice(4) };
    }
    const [w, h] = [this.rows[0].length, this.rows.length];
    this.cellPx = Math.max(1, Math.floor(BOARD_PX / Math.max(w, h)));
    this.canvas.width = w * this.cellPx;
    this.canvas.height = h * this.cellPx;
    this.show();
    return true;
  }

  error(text) {
    this.$('regions-error').textContent = text;
    return false;
  }

  async click(event) {
    if (!this.rows || this.loading) return;
    const [x, y] = canvasPoint(this.canvas, event).map((v) => Math.floor(v / this.cellPx));
    if (BLOCKED.has(this.rows[y]?.[x]) || this.seeds.some(([a, b]) => a === x && b === y)) return;
    const seed = [x, y];
    this.seeds.push(seed);
    await this.label(seed);
  }

  /// Labels the map from the seeds; `added`, the seed just clicked, is taken back if refused.
  async label(added = null) {
    if (this.seeds.length === 0) return;
    const ticket = this.latest.take();
    const reply = await call('/api/regions', { map: this.map, seeds: [...this.seeds], metric: this.$('regions-metric').value });
    if (!this.latest.is(ticket)) return;  // a later click's answer is (or will be) shown instead
    if (!reply.ok) {
      this.seeds = this.seeds.filter((s) => s !== added);
      return this.error(reply.data.error);
    }
    this.error('');
    this.result = reply.data;
    this.show();
    return true;
  }

  show() {
    const r = this.result;
    showStats(this.$('regions-stats'), r ? [
      ['regions', 'regions', r.regions],
      ['sizes', 'cells per region', r.sizes.join(', ')],
      ['time', 'time', `${r.time_us.toFixed(0)} µs`],
    ] : [['regions', 'regions', 0]]);
    const ctx = this.canvas.getContext('2d');
    const s = this.cellPx;
    const w = this.rows[0].length;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    this.rows.forEach((row, y) => Array.from(row).forEach((c, x) => {
      let color = null;
      if (BLOCKED.has(c)) color = '#1b1b1b';
      else if (r) {
        const label = r.labels[y * w + x];
        color = label < 0 ? '#ddd' : `hsl(${(label * GOLDEN_ANGLE) % 360}, 65%, 62%)`;
      }
      if (color) {
        ctx.fillStyle = color;
        ctx.fillRect(x * s, y * s, s, s);
      }
    }));
    for (const [x, y] of this.seeds) {
      ctx.fillStyle = '#fff';
      ctx.strokeStyle = '#000';
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.arc((x + 0.5) * s, (y + 0.5) * s, Math.max(3, 0.45 * s), 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
    }
  }
}
