// Road graph view: Oldenburg drawn from its coordinates (GET /api/graph); two clicked vertices
// routed by Dijkstra, bidirectional Dijkstra, A*, ALT and CH (POST /api/route), each showing
// the vertices it settled, its cost and its time.
import { call, canvasPoint, Latest, nextEnds } from './api.js';

const MARGIN_PX = 12;
const COLORS = { edge: '#b9bec6', settled: '#3b6fb6', path: '#e8590c', from: '#1fae3a', to: '#d92121' };

export class RoadsView {
  constructor() {
    this.$ = (id) => document.getElementById(id);
    this.latest = new Latest();
    this.from = null;
    this.to = null;
    this.results = [];
    this.shownIndex = 0;
    this.canvas = this.$('roads-canvas');
    this.canvas.addEventListener('click', (e) => this.pick(e));
    this.$('roads-run').addEventListener('click', () => this.run());
  }

  /// Loads the graph the first time the tab is shown.
  async onShow() {
    if (this.graph) return;
    const reply = await call('/api/graph?name=oldenburg');
    if (!reply.ok) {
      this.$('roads-error').textContent = reply.data.error;
      return;
    }
    this.graph = reply.data;
    const xs = this.graph.vertices.map((v) => v[0]);
    const ys = this.graph.vertices.map((v) => v[1]);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const size = this.canvas.width - 2 * MARGIN_PX;
    const scale = size / Math.max(x1 - x0, y1 - y0, 1e-9);
    // North up: y grows upward in the file, downward on the canvas.
    this.pixels = this.graph.vertices.map(([x, y]) => [MARGIN_PX + (x - x0) * scale, MARGIN_PX + (y1 - y) * scale]);
    this.draw();
  }

  /// The vertex nearest a canvas point.
  nearest(px, py) {
    let best = 0;
    let bestD = Infinity;
    this.pixels.forEach(([x, y], i) => {
      const d = (x - px) ** 2 + (y - py) ** 2;
      if (d < bestD) { bestD = d; best = i; }
    });
    return best;
  }

  pick(event) {
    if (!this.pixels) return;
    ({ from: this.from, to: this.to } = nextEnds(this, this.nearest(...canvasPoint(this.canvas, event))));
    this.results = [];
    this.latest.take();  // a route in flight is for the old ends
    this.$('roads-from').textContent = this.from ?? '–';
    this.$('roads-to').textContent = this.to ?? '–';
    this.showResults();
    this.draw();
  }

  async run() {
    this.$('roads-error').textContent = '';
    if (this.from === null || this.to === null) {
      this.$('roads-error').textContent = 'click a start and a goal vertex first';
      return;
    }
    const ticket = this.latest.take();
    const reply = await call('/api/route', { graph: 'oldenburg', from: this.from, to: this.to });
    if (!this.latest.is(ticket)) return;
    if (!reply.ok) {
      this.$('roads-error').textContent = reply.data.error;
      return;
    }
    this.results = reply.data.results;
    this.shownIndex = 0;
    this.showResults();
    this.draw();
  }

  showResults() {
    const table = this.$('roads-results');
    const choice = this.$('roads-choice');
    if (this.results.length === 0) {
      table.replaceChildren();
      choice.replaceChildren();
      return;
    }
    const head = document.createElement('tr');
    for (const h of ['algorithm', 'cost', 'settled', 'time']) {
      const th = document.createElement('th');
      th.textContent = h;
      head.append(th);
    }
    table.replaceChildren(head, ...this.results.map((r) => {
      const tr = document.createElement('tr');
      tr.dataset.algorithm = r.algorithm;
      const values = [r.algorithm, r.cost === null ? `– (${r.reason})` : r.cost.toFixed(2), r.expanded,
        `${r.time_us.toFixed(1)} µs`];
      ['algorithm', 'cost', 'settled', 'time'].forEach((key, i) => {
        const td = document.createElement('td');
        td.dataset.stat = key;
        td.textContent = values[i];
        tr.append(td);
      });
      return tr;
    }));
    choice.replaceChildren(...this.results.map((r, i) => {
      const label = document.createElement('label');
      const radio = document.createElement('input');
      radio.type = 'radio';
      radio.name = 'roads-shown';
      radio.value = r.algorithm;
      radio.checked = i === this.shownIndex;
      radio.addEventListener('change', () => { this.shownIndex = i; this.draw(); });
      label.append(radio, ` ${r.algorithm}`);
      return label;
    }));
  }

  draw() {
    const ctx = this.canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    if (!this.pixels) return;
    ctx.strokeStyle = COLORS.edge;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const [a, b] of this.graph.edges) {
      ctx.moveTo(...this.pixels[a]);
      ctx.lineTo(...this.pixels[b]);
    }
    ctx.stroke();
    const result = this.results[this.shownIndex];
    if (result) {
      ctx.fillStyle = COLORS.settled;
      for (const v of result.settled) ctx.fillRect(this.pixels[v][0] - 1.5, this.pixels[v][1] - 1.5, 3, 3);
      ctx.strokeStyle = COLORS.path;
      ctx.lineWidth = 3;
      ctx.beginPath();
      result.path.forEach((v, i) => (i ? ctx.lineTo : ctx.moveTo).call(ctx, ...this.pixels[v]));
      ctx.stroke();
    }
    for (const [v, color] of [[this.from, COLORS.from], [this.to, COLORS.to]]) {
      if (v === null) continue;
      ctx.fillStyle = color;
      ctx.beginPath();
      ctx.arc(...this.pixels[v], 6, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
}
