#!/usr/bin/env node
// Turns bench/graph_bench.sh runs (one JSON object per graph from waymark_bench_graph) into
// bench/results/graph.{json,md}.
//
//   node graph_report.js RUNS.jsonl OUT.json OUT.md COMMAND NPROC [REVISION]
'use strict';

const fs = require('fs');
const os = require('os');

const [runsFile, jsonOut, mdOut, command, nproc, revision = 'unknown'] = process.argv.slice(2);
if (!mdOut) {
  process.stderr.write('usage: graph_report.js RUNS.jsonl OUT.json OUT.md COMMAND NPROC [REVISION]\n');
  process.exit(2);
}
const BYTES_PER_MIB = 1024 * 1024;

const graphs = fs.readFileSync(runsFile, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
for (const g of graphs) {
  const dijkstra = g.algorithms.find((a) => a.algorithm === 'dijkstra' && !a.skipped);
  for (const a of g.algorithms) {
    if (a.skipped) continue;
    a.all_equal_to_boost = a.equal_to_boost === a.queries;
    a.speedup_vs_dijkstra = dijkstra ? dijkstra.mean_us / a.mean_us : null;
    a.speedup_vs_boost = g.boost_dijkstra.mean_us / a.mean_us;
  }
}
const report = {date: new Date().toISOString(), command, revision, nproc: Number(nproc),
  cpu: os.cpus()[0]?.model ?? 'unknown', graphs};
fs.writeFileSync(jsonOut, JSON.stringify(report, null, 2) + '\n');

const fixed = (x, d) => (x === null || x === undefined || Number.isNaN(x) ? '–' : x.toFixed(d));
const md = ['# Road-graph benchmark', ''];
md.push(`- date: ${report.date}`);
md.push(`- machine: nproc ${report.nproc}, ${report.cpu}`);
md.push(`- command: \`${command}\` (waymark ${revision})`);
md.push('- queries: uniformly random (source, target) pairs, seed 1; every distance compared with Boost Graph ' +
        '`dijkstra_shortest_paths` (stopped at the target) on the same pairs');
md.push('- time: per query, search only (preprocessing and per-thread setup excluded and reported separately)', '');
md.push('| graph | vertices | arcs | algorithm | queries | = Boost | mean µs/query | × waymark Dijkstra | × Boost Dijkstra | expanded/query | preprocessing s | load from file s | memory MiB |');
md.push('|---|---:|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|');
for (const g of graphs) {
  md.push(`| ${g.graph} | ${g.vertices} | ${g.arcs} | boost-dijkstra | ${g.queries} | reference | ` +
          `${fixed(g.boost_dijkstra.mean_us, 1)} | – | 1.00 | ${fixed(g.boost_dijkstra.expanded_per_query, 0)} | – | – | – |`);
  for (const a of g.algorithms) {
    if (a.skipped) {
      md.push(`| ${g.graph} | | | ${a.algorithm} | | | skipped: ${a.skipped} | | | | | | |`);
      continue;
    }
    md.push(`| ${g.graph} | | | ${a.algorithm} | ${a.queries} | ${a.all_equal_to_boost ? 'yes' : `NO (${a.equal_to_boost})`} | ` +
            `${fixed(a.mean_us, 2)} | ${fixed(a.speedup_vs_dijkstra, 1)} | ${fixed(a.speedup_vs_boost, 1)} | ` +
            `${fixed(a.expanded_per_query, 0)} | ${fixed(a.preprocess_s, 2)} | ${fixed(a.load_s, 2)} | ${fixed(a.preprocess_bytes / BYTES_PER_MIB, 1)} |`);
  }
}
md.push('', `Reachable pairs: ${graphs.map((g) => `${g.graph} ${g.reachable}/${g.queries}`).join(', ')}.`);
fs.writeFileSync(mdOut, md.join('\n') + '\n');
