#!/usr/bin/env node
// Peer benchmark: PathFinding.js (npm "pathfinding") over Moving AI scenarios.
//
//   node pathfinding_scen.js FILE.map.scen... [--maps DIR] [--sample-every N] [--finder astar|jps]
//
// Benchmark rules: 8-connected, diagonal √2, no corner cutting (DiagonalMovement.
// OnlyWhenNoObstacles), octile heuristic. One PF.Grid per map; PF.js finders write their
// state into the grid's nodes, so a user must clone the grid for every search, and the timed
// span is grid.clone() + finder.findPath(). Sampling (query i of each file when
// i % N == 0) and the optimality rule are those of `waymark scen` (ScenarioQuery::
// matches_optimal in include/waymark/io/movingai.hpp).
//
// Prints one JSON object: peer, sample_every, queries, solved, optimal, mean_us,
// expanded_total, expanded_per_query, path_steps_total. Expanded = nodes closed by the search
// other than the goal (the goal is closed but not expanded, the way waymark counts).
'use strict';

const fs = require('fs');
const path = require('path');
const PF = require('pathfinding');

const EXIT_NOT_ALL_OPTIMAL = 1;
const EXIT_BAD_INPUT = 2;
const NS_PER_US = 1000;
const DIAGONAL_EXTRA = Math.SQRT2 - 1;
const PASSABLE = new Set(['.', 'G', 'S']);  // benchmark semantics: '@' 'O' 'T' 'W' blocked
const MAP_HEADER_LINES = 4;  // type, height, width, "map"
const SCEN_COLUMNS = 9;
const ABSOLUTE_SLACK = 1e-9;
const RELATIVE_SLACK = 1e-8;

function fail(message) {
  process.stderr.write(`pathfinding_scen: ${message}\n`);
  process.exit(EXIT_BAD_INPUT);
}

function parseArgs(argv) {
  const args = {files: [], maps: '', sampleEvery: 1, finder: 'astar'};
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : fail(`${a} needs a value`));
    if (a === '--maps') args.maps = value();
    else if (a === '--sample-every') args.sampleEvery = Number(value());
    else if (a === '--finder') args.finder = value();
    else if (a.startsWith('--')) fail(`unknown option ${a}`);
    else args.files.push(a);
  }
  if (!Number.isInteger(args.sampleEvery) || args.sampleEvery < 1) fail('--sample-every needs an integer >= 1');
  if (!['astar', 'jps'].includes(args.finder)) fail(`unknown finder '${args.finder}' (astar|jps)`);
  if (args.files.length === 0) fail('usage: pathfinding_scen.js FILE.map.scen... [--maps DIR] [--sample-every N] [--finder astar|jps]');
  return args;
}

function readLines(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    fail(`${file}: cannot open file`);
  }
  return text.split('\n').map((l) => l.replace(/\r$/, ''));
}

/// A Moving AI .map as a PF.Grid (x = column, y = row).
function loadGrid(file) {
  const lines = readLines(file);
  const header = {};
  for (let i = 0; i < MAP_HEADER_LINES - 1; ++i) {
    const [key, value] = lines[i].trim().split(/\s+/);
    header[key] = value;
  }
  const width = Number(header.width);
  const height = Number(header.height);
  if (header.type !== 'octile' || !(width > 0) || !(height > 0) || lines[MAP_HEADER_LINES - 1].trim() !== 'map') {
    fail(`${file}: not a Moving AI octile map`);
  }
  const grid = new PF.Grid(width, height);
  for (let y = 0; y < height; ++y) {
    const row = lines[MAP_HEADER_LINES + y];
    if (row === undefined || row.length < width) fail(`${file}:${MAP_HEADER_LINES + y + 1}: short row`);
    for (let x = 0; x < width; ++x) {
      if (!PASSABLE.has(row[x])) grid.setWalkableAt(x, y, false);
    }
  }
  return grid;
}

/// The queries of a .map.scen, with the unit of the last printed digit of each optimum.
function loadScenario(file) {
  const lines = readLines(file);
  const queries = [];
  for (let i = 1; i < lines.length; ++i) {
    if (lines[i].trim() === '') continue;
    const c = lines[i].trim().split(/[ \t]+/);
    if (c.length !== SCEN_COLUMNS) fail(`${file}:${i + 1}: expected ${SCEN_COLUMNS} columns`);
    const printed = c[8];
    const exponent = printed.search(/[eE]/);
    const digitsEnd = exponent < 0 ? printed.length : exponent;
    const dot = printed.indexOf('.');
    const decimals = dot < 0 || dot > digitsEnd ? 0 : digitsEnd - dot - 1;
    queries.push({
      line: i + 1,
      map: c[1],
      sx: Number(c[4]), sy: Number(c[5]), gx: Number(c[6]), gy: Number(c[7]),
      optimal: Number(printed),
      unit: Math.pow(10, -decimals),
    });
  }
  return queries;
}

function matchesOptimal(q, found) {
  const slack = ABSOLUTE_SLACK + RELATIVE_SLACK * q.optimal;
  const d = found - q.optimal;
  return d >= -0.5 * q.unit - slack && d <= q.unit + slack;
}

/// Length and moves of a path given as points joined by straight or diagonal runs (A* gives
/// single moves; JPS jump points may be expanded or not, both add up the same).
function measure(points) {
  let length = 0;
  let steps = 0;
  for (let i = 1; i < points.length; ++i) {
    const dx = Math.abs(points[i][0] - points[i - 1][0]);
    const dy = Math.abs(points[i][1] - points[i - 1][1]);
    length += Math.max(dx, dy) + DIAGONAL_EXTRA * Math.min(dx, dy);
    steps += Math.max(dx, dy);
  }
  return {length, steps};
}

function countClosed(grid) {
  let n = 0;
  for (const row of grid.nodes) for (const node of row) if (node.closed) ++n;
  return n;
}

function makeFinder(name) {
  const options = {diagonalMovement: PF.DiagonalMovement.OnlyWhenNoObstacles, heuristic: PF.Heuristic.octile};
  return name === 'jps' ? new PF.JumpPointFinder(options) : new PF.AStarFinder(options);
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const finder = makeFinder(args.finder);
  const t = {queries: 0, solved: 0, optimal: 0, expanded: 0, pathSteps: 0, ns: 0n};
  for (const file of args.files) {
    const queries = loadScenario(file);
    const grids = new Map();  // per file, as `waymark scen` loads maps
    for (let i = 0; i < queries.length; ++i) {
      if (i % args.sampleEvery !== 0) continue;
      const q = queries[i];
      const mapPath = path.join(args.maps || path.dirname(file), path.basename(q.map));
      if (!grids.has(mapPath)) {
        if (!fs.existsSync(mapPath)) fail(`${file}:${q.line}: map '${q.map}' not found at ${mapPath}`);
        grids.set(mapPath, loadGrid(mapPath));
      }
      const base = grids.get(mapPath);
      if (!base.isWalkableAt(q.sx, q.sy) || !base.isWalkableAt(q.gx, q.gy)) {
        fail(`${file}:${q.line}: start or goal outside the map or blocked`);
      }

      const t0 = process.hrtime.bigint();
      const grid = base.clone();
      const points = finder.findPath(q.sx, q.sy, q.gx, q.gy, grid);
      const t1 = process.hrtime.bigint();

      ++t.queries;
      t.ns += t1 - t0;
      // JPS returns no points when start == goal, so "found" is read from the goal node.
      const found = grid.getNodeAt(q.gx, q.gy).closed === true;
      t.expanded += countClosed(grid) - (found ? 1 : 0);
      if (!found) continue;
      ++t.solved;
      const m = measure(points);
      t.pathSteps += m.steps;
      if (matchesOptimal(q, m.length)) ++t.optimal;
    }
  }
  const queries = Math.max(t.queries, 1);
  process.stdout.write(JSON.stringify({
    peer: args.finder === 'jps' ? 'pathfinding.js-jps' : 'pathfinding.js-astar',
    sample_every: args.sampleEvery,
    queries: t.queries,
    solved: t.solved,
    optimal: t.optimal,
    mean_us: Number(t.ns) / NS_PER_US / queries,
    expanded_total: t.expanded,
    expanded_per_query: t.expanded / queries,
    path_steps_total: t.pathSteps,
  }) + '\n');
  process.exitCode = t.optimal === t.queries ? 0 : EXIT_NOT_ALL_OPTIMAL;
}

main();
