#!/usr/bin/env node
// Turns bench/puzzle_bench.sh runs (per run: the `waymark puzzle --json` summary and its
// instances) into bench/results/puzzle.{json,md}.
//
//   node puzzle_report.js RUNS.jsonl OUT.json OUT.md COMMAND NPROC REVISION INSTANCES
'use strict';

const fs = require('fs');
const os = require('os');

const [runsFile, jsonOut, mdOut, command, nproc, revision, instances] = process.argv.slice(2);
if (!instances) {
  process.stderr.write('usage: puzzle_report.js RUNS.jsonl OUT.json OUT.md COMMAND NPROC REVISION INSTANCES\n');
  process.exit(2);
}
const NODES_PER_MILLION = 1e6;
const TARGET_NODES_PER_S = 50e6;
const TARGET_PDB_TOTAL_S = 5;

const runs = fs.readFileSync(runsFile, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
for (const r of runs) {
  const s = r.summary;
  s.all_optimal = s.solved === s.instances && s.not_optimal === 0;
  s.total_with_build_s = s.wall_s + s.pdb_build_s + s.pdb_load_s;
  s.hardest = r.instances.reduce((a, b) => (b.time_s > a.time_s ? b : a));
}
const report = {date: new Date().toISOString(), command, revision, nproc: Number(nproc),
  cpu: os.cpus()[0]?.model ?? 'unknown', instances, runs};
fs.writeFileSync(jsonOut, JSON.stringify(report, null, 2) + '\n');

const fixed = (x, d) => (x === null || x === undefined || Number.isNaN(x) ? '–' : x.toFixed(d));
const md = ['# 15-puzzle benchmark: Korf\'s instances 1–50', ''];
md.push(`- date: ${report.date}`);
md.push(`- machine: nproc ${report.nproc}, ${report.cpu}`);
md.push(`- command: \`${command}\` (waymark ${revision})`);
md.push(`- instances: \`${instances}\` (Korf 1985, Table 1, with the published optimal lengths)`);
md.push('- solver: IDA*, one board edited in place, heuristic updated per move; expanded = nodes within the ' +
        'bound, summed over iterations; search s = sum of per-instance times (per core); wall = the whole run ' +
        'after loading, with the given number of solver threads; total = wall + pattern-database build', '');
md.push('| heuristic | threads | all optimal | expanded | search s | M expanded/s | PDB build s | PDB load s | wall s | total s | hardest (#, s) |');
md.push('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|');
for (const r of runs) {
  const s = r.summary;
  md.push(`| ${s.heuristic} | ${s.threads} | ${s.all_optimal ? 'yes' : '**NO**'} (${s.solved}/${s.instances}) | ` +
          `${s.expanded.toLocaleString('en-US')} | ${fixed(s.search_s, 2)} | ${fixed(s.expanded_per_s / NODES_PER_MILLION, 1)} | ` +
          `${s.pdb_build_s > 0 ? fixed(s.pdb_build_s, 2) : '–'} | ${s.pdb_load_s > 0 ? fixed(s.pdb_load_s, 2) : '–'} | ${fixed(s.wall_s, 2)} | ${fixed(s.total_with_build_s, 2)} | ` +
          `#${s.hardest.index}, ${fixed(s.hardest.time_s, 2)} |`);
}
md.push('');
const manhattan = runs.find((r) => r.summary.heuristic === 'manhattan');
if (manhattan) {
  const rate = manhattan.summary.expanded_per_s;
  md.push(`- target: Manhattan IDA* ≥ 50 M nodes/s — ${fixed(rate / NODES_PER_MILLION, 1)} M expanded/s: ` +
          `**${rate >= TARGET_NODES_PER_S ? 'reached' : 'missed'}**`);
}
for (const r of runs.filter((x) => x.summary.heuristic.startsWith('pdb') && x.summary.pdb_build_s > 0)) {
  const s = r.summary;
  md.push(`- target: ${s.heuristic}, all 50 under ${TARGET_PDB_TOTAL_S} s including the build (${s.threads} thread(s)): ` +
          `${fixed(s.total_with_build_s, 2)} s — **${s.all_optimal && s.total_with_build_s < TARGET_PDB_TOTAL_S ? 'reached' : 'missed'}**`);
}
md.push('');
md.push('## Per instance (IDA* expanded nodes)', '');
md.push('| # | length | ' + runs.map((r) => `${r.summary.heuristic} ×${r.summary.threads}`).join(' | ') + ' |');
md.push('|---:|---:|' + runs.map(() => '---:').join('|') + '|');
for (let i = 0; i < runs[0].instances.length; ++i) {
  const first = runs[0].instances[i];
  md.push(`| ${first.index} | ${first.length} | ` + runs.map((r) => r.instances[i].expanded.toLocaleString('en-US')).join(' | ') + ' |');
}
fs.writeFileSync(mdOut, md.join('\n') + '\n');
