// The before/after table of bench/ab_compare.sh and bench/ab_navmesh.sh: reads lines
// "A|B<TAB>measurement<TAB>value" from the file given, prints each measurement's median and
// best on either side and the ratios B/A (below 1: B is faster), as a markdown table.
//   node bench/ab_table.js RESULTS.tsv
const rows = new Map();
for (const line of require('fs').readFileSync(process.argv[2], 'utf8').trim().split('\n')) {
  const [side, name, value] = line.split('\t');
  if (!rows.has(name)) rows.set(name, { A: [], B: [] });
  rows.get(name)[side].push(Number(value));
}
const median = (v) => {
  const s = [...v].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
console.log('| measurement | A median | B median | B/A (median) | A best | B best | B/A (best) |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const [name, { A, B }] of rows) {
  const am = median(A), bm = median(B), ab = Math.min(...A), bb = Math.min(...B);
  console.log(`| ${name} | ${am} | ${bm} | ${(bm / am).toFixed(3)} | ${ab} | ${bb} | ${(bb / ab).toFixed(3)} |`);
}
