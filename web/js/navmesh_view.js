// Navmesh view: a bundled level's Recast navmesh seen from above (GET /api/navmesh), heights
// shaded, portals drawn; two clicked points joined by the shortest path (Polyanya) and the
// funnel path (POST /api/navmesh/path).
import { call, canvasPoint, fillSelect, Latest, nextEnds } from './api.js';

const MARGIN_PX = 12;
const COLORS = { wall: '#333', portal: '#c9d3de', shortest: '#e8590c', funnel: '#1c64d6', from: '#1fae3a', to: '#d92121' };

/// Draws a level (GET /api/navmesh's answer) from above with `toPixel` ([x, y, z] to canvas
/// pixels): its polygons, lower ones darker (floors and ramps still show), and its portals.
export function drawLevel(ctx, level, toPixel) {
  const { vertices, polys, portals, bounds: [[, lo], [, top]] } = level;
  const hi = Math.max(top, lo + 1e-9);
  for (const poly of polys) {
    const mean = poly.reduce((sum, v) => sum + vertices[v][1], 0) / poly.length;
    const shade = Math.round(150 + 95 * (mean - lo) / (hi - lo));
    ctx.fillStyle = `rgb(${shade - 20}, ${shade}, ${shade - 40})`;
    ctx.strokeStyle = COLORS.wall;
    ctx.lineWidth = 1;
    ctx.beginPath();
    poly.forEach((v, i) => (i ? ctx.lineTo : ctx.moveTo).call(ctx, ...toPixel(vertices[v])));
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
  }
  ctx.strokeStyle = COLORS.portal;
  ctx.beginPath();
  for (const [a, b] of portals) {
    ctx.moveTo(...toPixel(vertices[a]));
    ctx.lineTo(...toPixel(vertices[b]));
  }
  ctx.stroke();
}

export class NavmeshView {
  constructor(catalogue) {
    this.$ = (id) => document.getElementById(id);
    this.canvas = this.$('navmesh-canvas');
    this.latest = new Latest();
    fillSelect(this.$('navmesh-level'), catalogue.meshes ?? [], 'nav_test');
    this.$('navmesh-level').addEventListener('change', () => this.load());
    this.canvas.addEventListener('click', (e) => this.pick(e));
  }

  async onShow() {
    if (!this.level) await this.load();
  }

  async load() {
    this.from = null;
    this.to = null;
    this.result = null;
    this.level = null;  // no clicks on the old level meanwhile
    const ticket = this.latest.take();
    const reply = await call(`/api/navmesh?name=${encodeURIComponent(this.$('navmesh-level').value)}`);
    if (!this.latest.is(ticket)) return;
    if (!reply.ok) {
      this.$('navmesh-error').textContent = reply.data.error;
      return;
    }
    this.level = reply.data;
    const [[x0, , z0], [x1, , z1]] = this.level.bounds;
    const scale = (this.canvas.width - 2 * MARGIN_PX) / Math.max(x1 - x0, z1 - z0, 1e-9);
    this.toPixel = ([x, , z]) => [MARGIN_PX + (x - x0) * scale, MARGIN_PX + (z - z0) * scale];
    this.toPlan = (px, py) => [x0 + (px - MARGIN_PX) / scale, z0 + (py - MARGIN_PX) / scale];
    this.showEnds();
    this.draw();
  }

  async pick(event) {
    if (!this.level) return;
    ({ from: this.from, to: this.to } = nextEnds(this, this.toPlan(...canvasPoint(this.canvas, event))));
    this.result = null;
    if (this.to) await this.run();
    this.showEnds();
    this.draw();
  }

  async run() {
    this.$('navmesh-error').textContent = '';
    const ticket = this.latest.take();
    const reply = await call('/api/navmesh/path', { mesh: this.level.name, from: this.from, to: this.to });
    if (!this.latest.is(ticket)) return;
    if (!reply.ok) {
      this.$('navmesh-error').textContent = reply.data.error;
      this.result = null;
      return;
    }
    this.result = reply.data;
    const rows = [['shortest', reply.data.shortest], ['funnel', reply.data.funnel]];
    const table = this.$('navmesh-results');
    const head = document.createElement('tr');
    for (const h of ['path', 'status', 'length', 'corners', 'time']) {
      const th = document.createElement('th');
      th.textContent = h;
      head.append(th);
    }
    table.replaceChildren(head, ...rows.map(([mode, r]) => {
      const tr = document.createElement('tr');
      tr.dataset.mode = mode;
      const values = { path: mode, status: r.partial ? 'partial' : r.status, length: r.length.toFixed(3),
        corners: r.corners.length, time: `${r.time_us.toFixed(1)} µs` };
      for (const key of Object.keys(values)) {
        const td = document.createElement('td');
        td.dataset.stat = key;
        td.textContent = values[key];
        tr.append(td);
      }
      return tr;
    }));
  }

  showEnds() {
    const text = (p) => (p ? p.map((c) => c.toFixed(2)).join(', ') : '–');
    this.$('navmesh-from').textContent = text(this.from);
    this.$('navmesh-to').textContent = text(this.to);
    if (!this.result) this.$('navmesh-results').replaceChildren();
  }

  draw() {
    const ctx = this.canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    if (!this.level) return;
    drawLevel(ctx, this.level, this.toPixel);
    if (this.result) {
      this.polyline(ctx, this.result.funnel.corners, COLORS.funnel, 4);
      this.polyline(ctx, this.result.shortest.corners, COLORS.shortest, 2.5);
    }
    for (const [p, color] of [[this.from, COLORS.from], [this.to, COLORS.to]]) {
      if (!p) continue;
      ctx.fillStyle = color;
      ctx.beginPath();
      ctx.arc(...this.toPixel([p[0], 0, p[1]]), 6, 0, 2 * Math.PI);
      ctx.fill();
    }
  }

  polyline(ctx, corners, color, width) {
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.lineJoin = 'round';
    ctx.beginPath();
    corners.forEach((c, i) => (i ? ctx.lineTo : ctx.moveTo).call(ctx, ...this.toPixel(c)));
    ctx.stroke();
  }
}
