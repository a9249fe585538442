// Visibility view: a bundled polygon file's obstacles, inflated by the agent's radius, the
// points of visibility and the edges between them, and the shortest path between two clicks
// (POST /api/visibility).
import { call, canvasPoint, fillSelect, Latest, nextEnds, showStats } from './api.js';

const MARGIN_PX = 12;
const COLORS = { obstacle: '#1b1b1b', part: '#c8ccd2', edge: 'rgba(28, 100, 214, 0.18)', point: '#1c64d6',
  path: '#e8590c', from: '#1fae3a', to: '#d92121' };

export class VisibilityView {
  constructor(catalogue) {
    this.$ = (id) => document.getElementById(id);
    this.canvas = this.$('visibility-canvas');
    this.latest = new Latest();
    fillSelect(this.$('visibility-file'), catalogue.polygons ?? [], 'rooms');
    this.$('visibility-file').addEventListener('change', () => { this.from = this.to = null; this.load(); });
    this.$('visibility-radius').addEventListener('change', () => this.load());
    this.$('visibility-edges').addEventListener('change', () => this.draw());
    this.canvas.addEventListener('click', (e) => this.pick(e));
    this.from = null;
    this.to = null;
  }

  async onShow() {
    if (!this.graph) await this.load();
  }

  /// Builds the graph (and the path, when both ends are set) on the server.
  async load() {
    const request = { name: this.$('visibility-file').value, radius: Number(this.$('visibility-radius').value) };
    if (this.from && this.to) Object.assign(request, { from: this.from, to: this.to });
    const ticket = this.latest.take();
    const reply = await call('/api/visibility', request);
    if (!this.latest.is(ticket)) return;
    // Clicks since the request changed the ends: its path is not theirs.
    if (request.from !== this.from || request.to !== this.to) delete reply.data.path;
    if (!reply.ok) {
      this.$('visibility-error').textContent = reply.data.error;
      return;
    }
    this.$('visibility-error').textContent = '';
    this.graph = reply.data;
    const all = this.graph.bounds ?? this.extent();
    const [[x0, y0], [x1, y1]] = all;
    const scale = (this.canvas.width - 2 * MARGIN_PX) / Math.max(x1 - x0, y1 - y0, 1e-9);
    this.toPixel = ([x, y]) => [MARGIN_PX + (x - x0) * scale, MARGIN_PX + (y - y0) * scale];
    this.toWorld = (px, py) => [x0 + (px - MARGIN_PX) / scale, y0 + (py - MARGIN_PX) / scale];
    const p = this.graph.path;
    showStats(this.$('visibility-stats'), [
      ['points', 'points of visibility', this.graph.points.length],
      ['edges', 'edges', this.graph.edges.length],
      ...(p ? [['status', 'status', p.reason ? `${p.status} (${p.reason})` : p.status],
        ['length', 'path length', p.length.toFixed(3)], ['time', 'time', `${p.time_us.toFixed(1)} µs`]] : []),
    ]);
    this.draw();
  }

  /// The box around every obstacle when the file gives no bounds.
  extent() {
    const pts = this.graph.parts.flat();
    const xs = pts.map((q) => q[0]);
    const ys = pts.map((q) => q[1]);
    return [[Math.min(...xs) - 1, Math.min(...ys) - 1], [Math.max(...xs) + 1, Math.max(...ys) + 1]];
  }

  async pick(event) {
    if (!this.graph) return;
    ({ from: this.from, to: this.to } = nextEnds(this, this.toWorld(...canvasPoint(this.canvas, event))));
    this.graph.path = undefined;
    if (this.to) await this.load();
    else this.draw();
  }

  draw() {
    const ctx = this.canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    if (!this.graph) return;
    const fill = (polys, color) => {
      ctx.fillStyle = color;
      for (const poly of polys) {
        ctx.beginPath();
        poly.forEach((q, i) => (i ? ctx.lineTo : ctx.moveTo).call(ctx, ...this.toPixel(q)));
        ctx.closePath();
        ctx.fill();
      }
    };
    fill(this.graph.parts, COLORS.part);
    fill(this.graph.obstacles, COLORS.obstacle);
    if (this.$('visibility-edges').checked) {
      ctx.strokeStyle = COLORS.edge;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (const [a, b] of this.graph.edges) {
        ctx.moveTo(...this.toPixel(this.graph.points[a]));
        ctx.lineTo(...this.toPixel(this.graph.points[b]));
      }
      ctx.stroke();
    }
    ctx.fillStyle = COLORS.point;
    for (const q of this.graph.points) {
      const [x, y] = this.toPixel(q);
      ctx.fillRect(x - 2, y - 2, 4, 4);
    }
    const path = this.graph.path;
    if (path && path.points.length > 1) {
      ctx.strokeStyle = COLORS.path;
      ctx.lineWidth = 3;
      ctx.beginPath();
      path.points.forEach((q, i) => (i ? ctx.lineTo : ctx.moveTo).call(ctx, ...this.toPixel(q)));
      ctx.stroke();
    }
    for (const [q, color] of [[this.from, COLORS.from], [this.to, COLORS.to]]) {
      if (!q) continue;
      ctx.fillStyle = color;
      ctx.beginPath();
      ctx.arc(...this.toPixel(q), 6, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
}
