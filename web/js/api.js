// What every view shares: calls to the waymark server's JSON API (each resolves to {ok, status,
// data}; a refusal carries data.error, the server's reason), and small page helpers.
export async function call(path, body) {
  const init = body === undefined ? {} : {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    return { ok: false, status: 0, data: { error: `server unreachable: ${e.message}` } };
  }
  let data;
  try {
    data = await response.json();
  } catch (e) {
    data = { error: `not JSON (${response.status})` };
  }
  return { ok: response.ok, status: response.status, data };
}

/// Fills a <select> with names, keeping `chosen` selected when it is one of them.
export function fillSelect(select, names, chosen) {
  select.replaceChildren(...names.map((name) => new Option(name, name, false, name === chosen)));
}

/// Writes rows [label, value] into a stats <table>, each value cell tagged data-stat=key.
export function showStats(table, rows) {
  table.replaceChildren(...rows.map(([key, label, value]) => {
    const tr = document.createElement('tr');
    const name = document.createElement('td');
    name.textContent = label;
    const cell = document.createElement('td');
    cell.dataset.stat = key;
    cell.textContent = value;
    tr.append(name, cell);
    return tr;
  }));
}

/// Where a mouse event hit a canvas, in the canvas's own pixels (it may be drawn scaled).
export function canvasPoint(canvas, event) {
  const box = canvas.getBoundingClientRect();
  return [(event.clientX - box.left) * (canvas.width / box.width), (event.clientY - box.top) * (canvas.height / box.height)];
}

/// The ends after a click at `point` when clicks pick a start, then a goal, then start over:
/// returns {from, to} (to null while only the start is set).
export function nextEnds({ from, to }, point) {
  return from === null || to !== null ? { from: point, to: null } : { from, to: point };
}

/// Tells the newest request of a view from stale ones: `const t = latest.take()` before the
/// request, `if (!latest.is(t)) return` after its await (a later one's answer wins).
export class Latest {
  constructor() { this.count = 0; }
  take() { return ++this.count; }
  is(ticket) { return ticket === this.count; }
}
