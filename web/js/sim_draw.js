// The simulation view's picture: the world (a grid map's cells or a navmesh level, kept as a
// background image and redrawn only when the world changes), the dropped crates, the agents
// coloured by status, the selection and the remaining paths of selected agents.
import { drawLevel } from './navmesh_view.js';

export const STATUS_COLORS = {
  planning: '#f59f00', moving: '#1c64d6', arrived: '#1fae3a', unreachable: '#d92121', stuck: '#9c36b5', stopped: '#868e96',
};
const COLORS = { free: '#fff', wall: '#1b1b1b', crate: '#a0522d', trail: '#9db7e0', pending: '#d92121',
  selected: '#f5a623', path: '#e8590c', box: '#f5a623' };
const AGENT_RADIUS = 0.35;  // the server's default agent (AgentParams)

/// Where world points land on the canvas: a grid's cell (x, y) spans [x, x+1) × [y, y+1), a
/// level's plan (x, z) is scaled into the canvas with a margin.
export class Frame {
  constructor(origin, scale) {
    this.origin = origin;
    this.scale = scale;
  }

  toPixel([x, y]) { return [(x - this.origin[0]) * this.scale, (y - this.origin[1]) * this.scale]; }
  toWorld([px, py]) { return [this.origin[0] + px / this.scale, this.origin[1] + py / this.scale]; }
}

/// The background of `world` ({kind, width, height, blocked} on a grid, {kind, level} on a
/// navmesh) on a canvas of its own.
export function drawWorld(world, frame, width, height) {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = COLORS.free;
  ctx.fillRect(0, 0, width, height);
  if (world.kind === 'navmesh') {
    drawLevel(ctx, world.level, ([x, , z]) => frame.toPixel([x, z]));
    return canvas;
  }
  // One pixel per cell, scaled up unsmoothed: fast for the largest maps.
  const cells = new ImageData(world.width, world.height);
  for (let i = 0; i < world.blocked.length; ++i) {
    const v = world.blocked[i] ? 0x1b : 0xff;
    cells.data[4 * i] = cells.data[4 * i + 1] = cells.data[4 * i + 2] = v;
    cells.data[4 * i + 3] = 255;
  }
  const small = document.createElement('canvas');
  small.width = world.width;
  small.height = world.height;
  small.getContext('2d').putImageData(cells, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(small, 0, 0, world.width * frame.scale, world.height * frame.scale);
  return canvas;
}

function polyline(ctx, frame, points) {
  ctx.beginPath();
  points.forEach((p, i) => (i ? ctx.lineTo : ctx.moveTo).call(ctx, ...frame.toPixel(p)));
  ctx.stroke();
}

/// Draws the whole picture on `ctx`: `view` is the SimView (its background, frame, state,
/// trails, obstacles, selection, pending start and box being dragged).
export function drawSimulation(ctx, view) {
  const { frame } = view;
  ctx.drawImage(view.background, 0, 0);
  const agentPx = Math.max(2.5, AGENT_RADIUS * frame.scale);
  ctx.fillStyle = COLORS.crate;
  for (const o of view.obstacles.values()) {
    if (o.box) {
      const [x0, y0] = frame.toPixel(o.box.slice(0, 2));
      const [x1, y1] = frame.toPixel(o.box.slice(2));
      ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
    } else {
      ctx.beginPath();
      ctx.arc(...frame.toPixel(o.circle), o.circle[2] * frame.scale, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
  const state = view.state;
  const status = state?.status ?? [];
  ctx.strokeStyle = COLORS.trail;
  ctx.lineWidth = 1;
  view.trails.forEach((trail, i) => { if (status[i] !== 'removed') polyline(ctx, frame, trail); });
  ctx.strokeStyle = COLORS.path;
  ctx.lineWidth = 2;
  for (const { id, points } of state?.paths ?? []) {
    if (view.selected.has(id) && status[id] !== 'removed') polyline(ctx, frame, [state.agents[id], ...points]);
  }
  (state?.agents ?? []).forEach(([x, y], i) => {
    if (status[i] === 'removed') return;
    const [px, py] = frame.toPixel([x, y]);
    ctx.fillStyle = STATUS_COLORS[status[i]] ?? STATUS_COLORS.moving;
    ctx.beginPath();
    ctx.arc(px, py, agentPx, 0, 2 * Math.PI);
    ctx.fill();
    if (view.selected.has(i)) {
      ctx.strokeStyle = COLORS.selected;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(px, py, agentPx + 3, 0, 2 * Math.PI);
      ctx.stroke();
    }
  });
  if (view.pendingStart) {
    ctx.strokeStyle = COLORS.pending;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(...frame.toPixel(view.pendingStart), Math.max(3, 0.4 * frame.scale), 0, 2 * Math.PI);
    ctx.stroke();
  }
  if (view.dragBox) {
    const [[ax, ay], [bx, by]] = view.dragBox.map((p) => frame.toPixel(p));
    ctx.strokeStyle = COLORS.box;
    ctx.lineWidth = 1;
    ctx.setLineDash([4, 3]);
    ctx.strokeRect(Math.min(ax, bx), Math.min(ay, by), Math.abs(bx - ax), Math.abs(by - ay));
    ctx.setLineDash([]);
  }
}
