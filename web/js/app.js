// The viewer's entry: tabs, the server's catalogue (GET /api/maps), and each view.
import { call } from './api.js';
import { GridView } from './grid_view.js';
import { NavmeshView } from './navmesh_view.js';
import { PuzzleView } from './puzzle_view.js';
import { RegionsView } from './regions_view.js';
import { RoadsView } from './roads_view.js';
import { SimView } from './sim_view.js';
import { VisibilityView } from './visibility_view.js';

const views = {};

function showView(name) {
  for (const button of document.querySelectorAll('#tabs button')) {
    button.classList.toggle('active', button.dataset.view === name);
  }
  for (const section of document.querySelectorAll('.view')) {
    section.classList.toggle('active', section.id === `view-${name}`);
  }
  views[name]?.onShow?.();
}

async function main() {
  const status = document.getElementById('server-status');
  const catalogue = await call('/api/maps');
  if (!catalogue.ok) {
    status.textContent = catalogue.data.error;
    return;
  }
  status.textContent = `${catalogue.data.maps.length} bundled maps`;
  views.grid = new GridView(catalogue.data);
  views.puzzle = new PuzzleView();
  views.roads = new RoadsView();
  views.navmesh = new NavmeshView(catalogue.data);
  views.sim = new SimView(catalogue.data);
  views.regions = new RegionsView(catalogue.data);
  views.visibility = new VisibilityView(catalogue.data);
  for (const button of document.querySelectorAll('#tabs button')) {
    button.addEventListener('click', () => showView(button.dataset.view));
  }
  // For tests and the console: the views and their last results.
  window.viewer = views;
  await views.grid.ready;
  document.body.dataset.ready = 'true';
}

main();
