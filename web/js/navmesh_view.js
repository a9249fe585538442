// Navmesh view: a bundled level's tiled Recast navmesh seen from above (GET /api/navmesh),
// heights shaded, portals, tile borders, off-mesh links and obstacles drawn; two clicked points
// joined by the shortest path (Polyanya) and the funnel path (POST /api/navmesh/path); obstacles
// dropped and removed with a click (POST /api/navmesh/obstacle, obstacle/remove), the paths
// planned again round them on the page's own copy of the level (its session).
import { call, canvasPoint, fillSelect, Latest, nextEnds } from './api.js';

const MARGIN_PX = 12;
const COLORS = { wall: '#333', portal: '#c9d3de', shortest: '#e8590c', funnel: '#1c64d6', from: '#1fae3a', to: '#d92121',
  tile: '#7d8797', link: '#0a9e9e', obstacle: '#8c5430' };
const ARROW_PX = 9;

/// An arrowhead with its tip at `tip`, pointing away from `from` (pixels).
function arrowhead(ctx, tip, from) {
  const angle = Math.atan2(tip[1] - from[1], tip[0] - from[0]);
  ctx.beginPath();
  ctx.moveTo(...tip);
  for (const side of [-0.45, 0.45])
    ctx.lineTo(tip[0] - ARROW_PX * Math.cos(angle + side), tip[1] - ARROW_PX * Math.sin(angle + side));
  ctx.closePath();
  ctx.fill();
}

/// The tiles holding polygons as dashed squares (level.tiles: origin, size, columns).
function drawTiles(ctx, level, toPixel) {
  const { tiles, poly_tiles: polyTiles } = level;
  if (!tiles || !polyTiles) return;
  ctx.save();
  ctx.strokeStyle = COLORS.tile;
  ctx.lineWidth = 1;
  ctx.setLineDash([5, 4]);
  for (const t of new Set(polyTiles)) {
    const x = tiles.origin[0] + (t % tiles.columns) * tiles.size;
    const z = tiles.origin[1] + Math.floor(t / tiles.columns) * tiles.size;
    const [px, py] = toPixel([x, 0, z]);
    const [qx, qy] = toPixel([x + tiles.size, 0, z + tiles.size]);
    ctx.strokeRect(px, py, qx - px, qy - py);
  }
  ctx.restore();
}

/// Each off-mesh link as an arc from its start to its end bulging to its left, an arrowhead at
/// its end (and at its start when two-way).
function drawLinks(ctx, links, toPixel) {
  ctx.strokeStyle = COLORS.link;
  ctx.fillStyle = COLORS.link;
  ctx.lineWidth = 2;
  for (const link of links ?? []) {
    const a = toPixel(link.start);
    const b = toPixel(link.end);
    const bend = [(a[0] + b[0]) / 2 - 0.3 * (b[1] - a[1]), (a[1] + b[1]) / 2 + 0.3 * (b[0] - a[0])];
    ctx.beginPath();
    ctx.moveTo(...a);
    ctx.quadraticCurveTo(...bend, ...b);
    ctx.stroke();
    arrowhead(ctx, b, bend);
    if (link.bidirectional) arrowhead(ctx, a, bend);
  }
}

/// Whether plan point [x, z] lies in `obstacle` (GET /api/navmesh's "obstacles").
export function obstacleHit(obstacle, [x, z]) {
  if (obstacle.shape === 'cylinder') return Math.hypot(x - obstacle.foot[0], z - obstacle.foot[2]) <= obstacle.radius;
  if (obstacle.shape === 'box') return x >= obstacle.min[0] && x <= obstacle.max[0] && z >= obstacle.min[2] && z <= obstacle.max[2];
  return false;
}

/// Each obstacle filled in plan: a cylinder's disc, a box's rectangle, a prism's polygon.
function drawObstacles(ctx, obstacles, toPixel) {
  ctx.fillStyle = COLORS.obstacle;
  ctx.strokeStyle = COLORS.wall;
  ctx.lineWidth = 1.5;
  for (const o of obstacles ?? []) {
    ctx.beginPath();
    if (o.shape === 'cylinder') {
      const c = toPixel(o.foot);
      const r = Math.hypot(...[0, 1].map((k) => toPixel([o.foot[0] + o.radius, 0, o.foot[2]])[k] - c[k]));
      ctx.arc(...c, r, 0, 2 * Math.PI);
    } else if (o.shape === 'box') {
      const [px, py] = toPixel(o.min);
      const [qx, qy] = toPixel(o.max);
      ctx.rect(px, py, qx - px, qy - py);
    } else {
      o.corners.forEach(([x, z], i) => (i ? ctx.lineTo : ctx.moveTo).call(ctx, ...toPixel([x, 0, z])));
      ctx.closePath();
    }
    ctx.fill();
    ctx.stroke();
  }
}

/// Draws a level (GET /api/navmesh's answer) from above with `toPixel` ([x, y, z] to canvas
/// pixels): its polygons, lower ones darker (floors and ramps still show), its portals, then
/// (when the answer has them) its tile borders, obstacles and off-mesh links.
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
  drawTiles(ctx, level, toPixel);
  drawObstacles(ctx, level.obstacles, toPixel);
  drawLinks(ctx, level.links, toPixel);
}

export class NavmeshView {
  constructor(catalogue) {
    this.$ = (id) => document.getElementById(id);
    this.canvas = this.$('navmesh-canvas');
    this.latest = new Latest();
    fillSelect(this.$('navmesh-level'), catalogue.meshes ?? [], 'nav_test');
    this.$('navmesh-level').addEventListener('change', () => this.load());
    this.canvas.addEventListener('click', (e) => this.pick(e));
    this.canvas.addEventListener('contextmenu', (e) => {
      e.preventDefault();
      this.removeAt(e);
    });
    this.$('navmesh-clear').addEventListener('click', () => this.clear());
    this.session = null;  // the page's own copy of the level, once it dropped an obstacle
    this.busy = false;    // an edit and its paths under way
  }

  tool() {
    return document.querySelector('input[name=navmesh-tool]:checked')?.value ?? 'path';
  }

  async onShow() {
    if (!this.level) await this.load();
  }

  async load() {
    if (this.session !== null) call('/api/navmesh/stop', { session: this.session });  // its answer is not needed
    this.session = null;
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
    if (this.tool() !== 'path') {
      await this.edit(event);
      return;
    }
    ({ from: this.from, to: this.to } = nextEnds(this, this.toPlan(...canvasPoint(this.canvas, event))));
    this.result = null;
    if (this.to) await this.run();
    this.showEnds();
    this.draw();
  }

  /// The obstacle under a click, or undefined.
  obstacleAt(event) {
    const p = this.toPlan(...canvasPoint(this.canvas, event));
    return (this.level?.obstacles ?? []).findLast((o) => obstacleHit(o, p));
  }

  /// A click with an obstacle tool: removes the obstacle under it, or drops one there.
  async edit(event) {
    if (this.obstacleAt(event)) {
      await this.removeAt(event);
      return;
    }
    const size = Number(this.$('navmesh-size').value) || 1;
    const at = this.toPlan(...canvasPoint(this.canvas, event));
    const shape = this.tool();
    const body = { mesh: this.level.name, shape, at };
    if (shape === 'box') body.size = [2 * size, 2, 2 * size];
    else Object.assign(body, { radius: size, height: 2 });
    await this.change('/api/navmesh/obstacle', body);
  }

  /// A right-click (or a click with an obstacle tool) on an obstacle: takes it away.
  async removeAt(event) {
    const hit = this.level && this.obstacleAt(event);
    if (hit) await this.change('/api/navmesh/obstacle/remove', { id: hit.id });
  }

  /// Lets the page's copy go and shows the level as built again, with the same ends.
  async clear() {
    if (this.session === null) return;
    await this.change(`/api/navmesh?name=${encodeURIComponent(this.level.name)}`);
  }

  /// Sends an edit of the page's copy of the level, shows the changed level and plans the
  /// paths again on it.
  async change(route, body) {
    if (this.busy) return;  // one edit at a time: a second drop before the first's reply would start a second copy
    this.busy = true;
    try {
      this.$('navmesh-error').textContent = '';
      const ticket = this.latest.take();
      if (body === undefined) {  // back to the level as built
        call('/api/navmesh/stop', { session: this.session });
        this.session = null;
      }
      const reply = await call(route, this.session === null || body === undefined ? body : { ...body, session: this.session });
      if (!this.latest.is(ticket)) return;
      if (!reply.ok) {
        this.$('navmesh-error').textContent = reply.data.error;
        if (reply.status === 404 && this.session !== null) this.session = null;  // gone idle: the next drop starts again
        return;
      }
      this.session = reply.data.session ?? null;
      this.level = reply.data.level ?? reply.data;
      this.result = null;
      if (this.from && this.to) await this.run();
      this.showEnds();
      this.draw();
    } finally {
      this.busy = false;
    }
  }

  async run() {
    this.$('navmesh-error').textContent = '';
    const ticket = this.latest.take();
    const request = { mesh: this.level.name, from: this.from, to: this.to };
    if (this.session !== null) request.session = this.session;
    const reply = await call('/api/navmesh/path', request);
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
