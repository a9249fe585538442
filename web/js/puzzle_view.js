// 8-puzzle view (any 2x2, 3x3 or 4x4 board typed in): the server solves it optimally with A*
// or IDA* (POST /api/puzzle); the page animates the moves.
import { call, Latest, showStats } from './api.js';

const MOVE_MS = 250;

export class PuzzleView {
  constructor() {
    this.$ = (id) => document.getElementById(id);
    this.timer = null;
    this.latest = new Latest();
    this.$('puzzle-set').addEventListener('click', () => this.setFromText());
    this.$('puzzle-shuffle').addEventListener('click', () => this.shuffle());
    this.$('puzzle-solve').addEventListener('click', () => this.solve());
    this.setFromText();
  }

  setFromText() {
    clearInterval(this.timer);  // an animation still running belongs to the old board
    this.latest.take();  // and so does a solve in flight
    const tiles = this.$('puzzle-tiles').value.trim().split(/[\s,]+/).map(Number);
    this.show(tiles);
    this.result = null;
    this.$('puzzle-error').textContent = '';
    this.$('puzzle-stats').replaceChildren();
    this.setIndex(0, 0);
  }

  /// A random walk of the blank from the goal (0 1 2 …): always solvable.
  shuffle() {
    const width = Math.round(Math.sqrt(this.tiles.length)) || 3;
    const tiles = Array.from({ length: width * width }, (_, i) => i);
    let blank = 0;
    let previous = -1;
    const moves = Math.max(1, Math.min(500, Number(this.$('puzzle-shuffle-moves').value) || 40));
    for (let i = 0; i < moves; ++i) {
      const [x, y] = [blank % width, Math.floor(blank / width)];
      const next = [[x, y - 1], [x, y + 1], [x - 1, y], [x + 1, y]]
        .filter(([a, b]) => a >= 0 && b >= 0 && a < width && b < width)
        .map(([a, b]) => b * width + a)
        .filter((c) => c !== previous);
      const to = next[Math.floor(Math.random() * next.length)];
      [tiles[blank], tiles[to]] = [tiles[to], tiles[blank]];
      previous = blank;
      blank = to;
    }
    this.$('puzzle-tiles').value = tiles.join(' ');
    this.setFromText();
  }

  show(tiles) {
    this.tiles = tiles;
    const board = this.$('puzzle-board');
    board.style.setProperty('--width', Math.round(Math.sqrt(tiles.length)) || 1);
    board.replaceChildren(...tiles.map((t) => {
      const cell = document.createElement('div');
      cell.textContent = t === 0 ? '' : t;
      if (t === 0) cell.className = 'blank';
      return cell;
    }));
  }

  setIndex(i, total) {
    this.$('puzzle-move-index').textContent = i;
    this.$('puzzle-move-total').textContent = total;
  }

  async solve() {
    this.setFromText();
    const ticket = this.latest.take();
    const reply = await call('/api/puzzle', {
      tiles: this.tiles, algorithm: this.$('puzzle-algorithm').value, heuristic: this.$('puzzle-heuristic').value,
    });
    if (!this.latest.is(ticket)) return;
    if (!reply.ok) {
      this.$('puzzle-error').textContent = reply.data.error;
      return;
    }
    const r = reply.data;
    this.result = r;
    showStats(this.$('puzzle-stats'), [
      ['status', 'status', r.reason ? `${r.status} (${r.reason})` : r.status],
      ['moves', 'moves', r.moves ?? '–'],
      ['expanded', 'expanded', r.stats.expanded],
      ['iterations', 'IDA* iterations', r.stats.iterations],
      ['estimate', 'heuristic at start', r.estimate],
      ['time', 'time', `${r.stats.time_us.toFixed(1)} µs`],
      ['solution', 'blank moves', r.solution ?? '–'],
    ]);
    const total = Math.max(0, r.boards.length - 1);
    let i = 0;
    this.setIndex(0, total);
    const timer = setInterval(() => {
      if (i >= total) {
        clearInterval(timer);
        return;
      }
      ++i;
      this.show(r.boards[i]);
      this.setIndex(i, total);
    }, MOVE_MS);
    this.timer = timer;
  }
}
