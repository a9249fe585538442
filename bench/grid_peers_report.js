#!/usr/bin/env node
// Aggregates bench/grid_peers.sh runs into bench/results/grid_peers.{json,md}.
//
//   node grid_peers_report.js RUNS.tsv OUT.json OUT.md COMMAND NPROC [REVISION]
//
// RUNS.tsv: one line per set and peer: set, sample, peer, status ("ok", "failed …",
// "not available: …"), JSON file, wall milliseconds, command as shown. The JSON is
// `waymark scen --json` for waymark-* peers, else the peer programs' object (queries,
// optimal, mean_us, expanded_per_query, path_steps_total).
'use strict';

const fs = require('fs');
const os = require('os');

const BASELINE = 'waymark-astar';
const MS_PER_S = 1000;

const [runsFile, jsonOut, mdOut, command, nproc, revision = 'unknown'] = process.argv.slice(2);
if (!mdOut) {
  process.stderr.write('usage: grid_peers_report.js RUNS.tsv OUT.json OUT.md COMMAND NPROC [REVISION]\n');
  process.exit(2);
}

/// One peer's figures, whatever shape its program printed.
function figures(j) {
  const queries = j.queries;
  const expandedTotal = j.expanded_total ?? j.expanded_per_query * queries;
  return {
    queries,
    optimal: j.optimal,
    all_optimal: queries > 0 && j.optimal === queries,
    mean_us: j.mean_us,
    expanded_per_query: queries > 0 ? expandedTotal / queries : 0,
    path_steps_total: j.path_steps_total ?? null,
    expanded_per_path_step: j.path_steps_total > 0 ? expandedTotal / j.path_steps_total : null,
  };
}

const sets = new Map();  // set -> {sample, peers: []}
for (const line of fs.readFileSync(runsFile, 'utf8').split('\n')) {
  if (line === '') continue;
  const [set, sample, peer, status, jsonFile, wallMs, shown] = line.split('\t');
  if (!sets.has(set)) sets.set(set, {set, sample_every: Number(sample), peers: []});
  const entry = {peer, status, wall_s: Number(wallMs) / MS_PER_S, command: shown || null};
  if (status === 'ok') {
    try {
      Object.assign(entry, figures(JSON.parse(fs.readFileSync(jsonFile, 'utf8'))));
    } catch (e) {
      entry.status = `failed: unreadable output (${e.message})`;
    }
  }
  sets.get(set).peers.push(entry);
}

// Ratios to waymark A*, and a check that every peer ran the same queries: optimal paths of
// one query all have the same number of moves (a + b√2 with a, b integers fixes a and b), so
// the path step totals must agree too.
for (const s of sets.values()) {
  const ok = s.peers.filter((p) => p.status === 'ok');
  const base = ok.find((p) => p.peer === BASELINE);
  for (const p of ok) p.time_vs_waymark_astar = base && base.mean_us > 0 ? p.mean_us / base.mean_us : null;
  const distinct = (key) => new Set(ok.filter((p) => p.all_optimal).map((p) => p[key])).size <= 1;
  s.same_queries = new Set(ok.map((p) => p.queries)).size <= 1;
  s.same_path_steps = distinct('path_steps_total');
}

const report = {
  date: new Date().toISOString(),
  command,
  revision,
  nproc: Number(nproc),
  cpu: os.cpus()[0]?.model ?? 'unknown',
  node: process.version,
  rules: '8-connected, diagonal sqrt(2), no corner cutting, octile heuristic; query i of each scenario file when i % sample_every == 0',
  timing: {
    waymark: 'search only (begin + step) per query, from waymark scen; building each map\'s planner (move masks, node records) and JPS+ table is outside, as is building Boost\'s graph',
    'pathfinding.js': 'grid.clone() + finder.findPath() per query (PF.js searches write into the grid), process.hrtime',
    'boost-astar': 'one boost::astar_search call per query (its own per-query initialisation of all vertices), steady_clock',
  },
  sets: [...sets.values()],
};
fs.writeFileSync(jsonOut, JSON.stringify(report, null, 2) + '\n');

const fixed = (x, digits) => (x === null || x === undefined || Number.isNaN(x) ? '–' : x.toFixed(digits));
const md = [];
md.push('# Grid pathfinding peers', '');
md.push(`- date: ${report.date}`);
md.push(`- machine: nproc ${report.nproc}, ${report.cpu}, node ${report.node}`);
md.push(`- command: \`${command}\` (waymark ${revision})`);
md.push(`- rules: ${report.rules}`);
md.push('- timing: waymark = search only (per-map planner construction and JPS+ tables excluded, like the Boost graph build); PathFinding.js = `grid.clone()` + `findPath` (a PF.js user must ' +
        'clone per search); Boost = one `astar_search` call, including its O(V) initialisation', '');
md.push('| set | sample every | peer | queries | all optimal | mean µs/query | × waymark A* | expanded/query | expanded/path step | wall s |');
md.push('|---|---:|---|---:|---|---:|---:|---:|---:|---:|');
for (const s of sets.values()) {
  for (const p of s.peers) {
    if (p.status !== 'ok') {
      md.push(`| ${s.set} | ${s.sample_every} | ${p.peer} | ${p.status} | | | | | | |`);
      continue;
    }
    md.push(`| ${s.set} | ${s.sample_every} | ${p.peer} | ${p.queries} | ${p.all_optimal ? 'yes' : `no (${p.optimal})`} | ` +
            `${fixed(p.mean_us, 1)} | ${fixed(p.time_vs_waymark_astar, 2)} | ${fixed(p.expanded_per_query, 1)} | ` +
            `${fixed(p.expanded_per_path_step, 2)} | ${fixed(p.wall_s, 1)} |`);
  }
}
md.push('');
for (const s of sets.values()) {
  if (!s.same_queries) md.push(`**${s.set}: the peers ran different numbers of queries.**`);
  if (!s.same_path_steps) md.push(`**${s.set}: optimal peers disagree on path steps.**`);
}
md.push('Commands:', '');
for (const s of sets.values()) for (const p of s.peers) if (p.command) md.push(`- \`${p.command}\``);
md.push('');
fs.writeFileSync(mdOut, md.join('\n'));
