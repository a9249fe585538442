// Calls to the waymark server's JSON API. Every call resolves to {ok, status, data}; a
// refusal carries data.error, the server's reason.
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
