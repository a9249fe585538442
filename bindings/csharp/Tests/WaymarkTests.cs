// The C# binding, run by make test with Debian's Mono: the C test's queries give the same
// answers (Moving AI optima, the same status for each misuse), the hot calls allocate nothing,
// and disposed or finalised objects never crash the process.
// Usage: mono waymark_csharp_test.exe DATA_DIR
using System;
using System.Globalization;
using System.IO;
using Waymark;

internal static class WaymarkTests
{
    private static int checks, failures;

    private static void Check(bool condition, string what)
    {
        ++checks;
        if (condition) return;
        ++failures;
        Console.Error.WriteLine("check failed: " + what + " (last error: " + WaymarkLibrary.LastError + ")");
    }

    private static void Expect(PathStatus got, PathStatus expected, string what)
    {
        Check(got == expected, what + ": got " + got + ", expected " + expected);
    }

    private static void Throws(PathStatus expected, Action action, string what, string inMessage = null)
    {
        try
        {
            action();
            Check(false, what + ": no exception");
        }
        catch (WaymarkException e)
        {
            Expect(e.Status, expected, what);
            if (inMessage != null) Check(e.Message.Contains(inMessage), what + ": message '" + e.Message + "' lacks '" + inMessage + "'");
        }
    }

    // Every query of a .scen file with `algorithm`: the Moving AI optimum, by both Plan overloads.
    private static void ScenarioOptima(GridMap map, string scen, string algorithm)
    {
        using (var planner = new GridPlanner(map, algorithm))
        {
            int queries = 0, wrong = 0;
            var cells = new int[2 * 4096];
            foreach (string line in File.ReadAllLines(scen))
            {
                string[] f = line.Split(new[] { '\t', ' ' }, StringSplitOptions.RemoveEmptyEntries);
                if (f.Length != 9) continue;
                int sx = int.Parse(f[4]), sy = int.Parse(f[5]), gx = int.Parse(f[6]), gy = int.Parse(f[7]);
                double optimal = double.Parse(f[8], CultureInfo.InvariantCulture);
                PathResult r = planner.Plan(sx, sy, gx, gy);
                int count;
                double cost;
                PathStatus st = planner.Plan(sx, sy, gx, gy, cells, out count, out cost);
                ++queries;
                bool right = r.Status == PathStatus.Success && Math.Abs(r.Cost - optimal) <= 1e-6 && st == PathStatus.Success &&
                             cost == r.Cost && count == r.Count && r.Cells[0] == sx && r.Cells[1] == sy &&
                             r.Cells[2 * r.Count - 2] == gx && r.Cells[2 * r.Count - 1] == gy;
                if (!right && wrong++ < 3) Console.Error.WriteLine(algorithm + " " + scen + " query " + queries + ": " + r + ", optimum " + optimal);
            }
            Check(queries > 100, "queries read from " + scen);
            Check(wrong == 0, algorithm + " on " + scen + ": every query at its optimum");
            Console.WriteLine("{0,-9} {1} queries of {2} at their Moving AI optima", algorithm, queries - wrong, scen);
        }
    }

    // Road graphs: rome99's costs by every planner equal a Dijkstra written here over the .gr file.
    private static void RoadGraphs(string data)
    {
        string gr = Path.Combine(data, "roads/rome99.gr");
        int n = 0;
        var heads = new System.Collections.Generic.List<int>[0];
        var weights = new System.Collections.Generic.List<double>[0];
        foreach (string line in File.ReadAllLines(gr))
        {
            string[] f = line.Split(new[] { ' ', '\t' }, StringSplitOptions.RemoveEmptyEntries);
            if (f.Length == 4 && f[0] == "p")
            {
                n = int.Parse(f[2]);
                heads = new System.Collections.Generic.List<int>[n];
                weights = new System.Collections.Generic.List<double>[n];
                for (int v = 0; v < n; ++v) { heads[v] = new System.Collections.Generic.List<int>(); weights[v] = new System.Collections.Generic.List<double>(); }
            }
            else if (f.Length == 4 && f[0] == "a")
            {
                heads[int.Parse(f[1]) - 1].Add(int.Parse(f[2]) - 1);
                weights[int.Parse(f[1]) - 1].Add(double.Parse(f[3], CultureInfo.InvariantCulture));
            }
        }
        uint[] sources = { 0, 1000, 2222, 3352 }, targets = { 5, 77, 1500, 2000, 3000, 3352 };
        var expected = new double[sources.Length * targets.Length];
        for (int i = 0; i < sources.Length; ++i)
        {
            var dist = new double[n];
            var done = new bool[n];
            for (int v = 0; v < n; ++v) dist[v] = double.PositiveInfinity;
            dist[sources[i]] = 0;
            var open = new System.Collections.Generic.SortedSet<Tuple<double, int>>();
            open.Add(Tuple.Create(0.0, (int)sources[i]));
            while (open.Count > 0)
            {
                Tuple<double, int> top = open.Min;
                open.Remove(top);
                int u = top.Item2;
                if (done[u]) continue;
                done[u] = true;
                for (int k = 0; k < heads[u].Count; ++k)
                {
                    int w = heads[u][k];
                    double d = dist[u] + weights[u][k];
                    if (d < dist[w]) { dist[w] = d; open.Add(Tuple.Create(d, w)); }
                }
            }
            for (int j = 0; j < targets.Length; ++j) expected[i * targets.Length + j] = dist[targets[j]];
        }
        using (RoadGraph rome = RoadGraph.LoadDimacs(gr))
        {
            Check(rome.VertexCount == n, "rome99 vertices");
            foreach (string algorithm in new[] { "dijkstra", "bidijkstra", "alt", "ch" })
            {
                using (var planner = new RoadPlanner(rome, algorithm))
                {
                    var costs = new double[expected.Length];
                    Expect(planner.CostMatrix(sources, targets, costs), PathStatus.Success, algorithm + " matrix");
                    int wrong = 0;
                    var vertices = new uint[4096];
                    for (int i = 0; i < sources.Length; ++i)
                    {
                        for (int j = 0; j < targets.Length; ++j)
                        {
                            int count;
                            double cost;
                            PathStatus st = planner.Plan((int)sources[i], (int)targets[j], vertices, out count, out cost);
                            double want = expected[i * targets.Length + j];
                            if (st != PathStatus.Success || Math.Abs(cost - want) > 1e-9 || costs[i * targets.Length + j] != cost ||
                                vertices[0] != sources[i] || vertices[count - 1] != targets[j]) ++wrong;
                        }
                    }
                    Check(wrong == 0, algorithm + ": every rome99 cost equals the Dijkstra written here");
                    Console.WriteLine("{0,-10} {1} rome99 queries and a {2} x {3} matrix equal to a Dijkstra written in C#", algorithm,
                                      sources.Length * targets.Length, sources.Length, targets.Length);
                }
            }
            Throws(PathStatus.Unsupported, () => new RoadPlanner(rome, "astar"), "astar without positions");
            Throws(PathStatus.InvalidArgument, () => new RoadPlanner(rome, "teleport"), "an unknown algorithm", "teleport");
            using (var planner = new RoadPlanner(rome, "dijkstra"))
            {
                int count;
                double cost;
                Expect(planner.Plan(0, n + 5, null, out count, out cost), PathStatus.OutOfBounds, "a vertex outside");
                Expect(planner.Plan(0, 3352, new uint[1], out count, out cost), PathStatus.BufferTooSmall, "a buffer too small");
                Check(count > 1, "the count of a path that did not fit");
            }
        }
        Throws(PathStatus.LoadError, () => RoadGraph.LoadDimacs("/no/such.gr"), "a missing .gr", "/no/such.gr");
    }

    // Navmeshes: RecastDemo's queries of nav_test.obj, as the C test: from and to the nearest mesh
    // points, the corners' polyline as long as the length, shortest never longer than funnel.
    private static void NavMeshes(string data)
    {
        using (NavMesh mesh = NavMesh.BuildFromObj(Path.Combine(data, "meshes/nav_test.obj")))
        using (var shortest = new NavMeshQuery(mesh))
        using (var funnel = new NavMeshQuery(mesh, "funnel"))
        {
            Check(mesh.PolygonCount > 100, "nav_test polygons");
            int queries = 0, wrong = 0;
            var corners = new Vector3[256];
            foreach (string line in File.ReadAllLines(Path.Combine(data, "meshes/nav_mesh_test.txt")))
            {
                string[] f = line.Split(new[] { ' ', '\t' }, StringSplitOptions.RemoveEmptyEntries);
                if (f.Length < 7 || f[0] != "pf") continue;
                Func<int, float> at = k => float.Parse(f[k], CultureInfo.InvariantCulture);
                var a = new Vector3(at(1), at(2), at(3));
                var b = new Vector3(at(4), at(5), at(6));
                ++queries;
                Vector3 nearA, nearB;
                int count = 0, funnelCount;
                double length = 0, funnelLength;
                bool ok = mesh.SamplePosition(a, out nearA) == PathStatus.Success && mesh.SamplePosition(b, out nearB) == PathStatus.Success &&
                          shortest.CalculatePath(a, b, corners, out count, out length) == PathStatus.Success &&
                          funnel.CalculatePath(a, b, null, out funnelCount, out funnelLength) == PathStatus.BufferTooSmall &&
                          length <= funnelLength + 1e-6 && count >= 2;
                if (ok)
                {
                    double polyline = 0;
                    for (int i = 1; i < count; ++i)
                    {
                        double dx = corners[i].x - corners[i - 1].x, dy = corners[i].y - corners[i - 1].y, dz = corners[i].z - corners[i - 1].z;
                        polyline += Math.Sqrt(dx * dx + dy * dy + dz * dz);
                    }
                    ok = Math.Abs(polyline - length) < 1e-3 * (1 + length);  // float corners
                }
                if (!ok && wrong++ < 3) Console.Error.WriteLine("nav_test query " + queries + ": " + WaymarkLibrary.LastError);
            }
            Check(queries >= 20 && wrong == 0, "RecastDemo's queries");
            Console.WriteLine("navmesh   {0} RecastDemo queries of nav_test.obj: shortest <= funnel, corners as long as the length", queries);
            PathStatus status;
            double len;
            Vector3[] path = shortest.CalculatePath(new Vector3(18.14f, -2.37f, -21.32f), new Vector3(-19.21f, -2.37f, 24.80f), out status, out len);
            Expect(status, PathStatus.Success, "the allocating CalculatePath");
            Check(path.Length >= 2 && len > 40, "a path across the level");
            NavMeshHit hit;
            Expect(mesh.Raycast(new Vector3(18.14f, -2.37f, -21.32f), new Vector3(18.14f, -2.37f, 400), out hit), PathStatus.Success, "raycast");
            Check(hit.Hit && hit.Fraction < 0.1f, "the raycast stops at a wall");
            Vector3 off;
            Expect(mesh.SamplePosition(new Vector3(1000, 0, 1000), out off), PathStatus.OutOfBounds, "a point far off the mesh");
        }
        Throws(PathStatus.LoadError, () => NavMesh.BuildFromObj("/no/such.obj"), "a missing OBJ", "/no/such.obj");
        RecastSettings broken = RecastSettings.Default;
        broken.CellSize = -1;
        Throws(PathStatus.BuildError, () => NavMesh.BuildFromObjText("v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 3 2\n", "tri.obj", broken), "a negative cell size");
        Throws(PathStatus.LoadError, () => NavMesh.LoadBaked("/no/such.wmnav"), "a missing bake");
    }

    // Request queues: arena's first 60 queries on astar and jps planners, 3 searches, 16
    // expansions a turn: each at its Moving AI optimum, as the C test; a full queue; a release.
    private static void Queues(string data)
    {
        using (GridMap map = GridMap.Load(Path.Combine(data, "maps/arena.map")))
        using (var astar = new GridPlanner(map, "astar"))
        using (var jps = new GridPlanner(map, "jps"))
        using (var queue = new RequestQueue(64, 3, 16))
        {
            var ids = new System.Collections.Generic.List<ulong>();
            var optima = new System.Collections.Generic.List<double>();
            foreach (string line in File.ReadAllLines(Path.Combine(data, "maps/arena.map.scen")))
            {
                string[] f = line.Split(new[] { '\t', ' ' }, StringSplitOptions.RemoveEmptyEntries);
                if (f.Length != 9 || ids.Count == 60) continue;
                ulong id;
                Expect(queue.Submit(ids.Count % 2 == 1 ? jps : astar, int.Parse(f[4]), int.Parse(f[5]), int.Parse(f[6]), int.Parse(f[7]), out id, ids.Count % 3),
                       PathStatus.Success, "submit");
                ids.Add(id);
                optima.Add(double.Parse(f[8], CultureInfo.InvariantCulture));
            }
            int frames = 0;
            while (queue.Update(200) > 0 && frames < 100000) ++frames;
            int wrong = 0;
            var cells = new int[2 * 4096];
            for (int i = 0; i < ids.Count; ++i)
            {
                int count;
                double cost;
                if (queue.Result(ids[i]) != PathStatus.Success || queue.GetPath(ids[i], cells, out count, out cost) != PathStatus.Success ||
                    Math.Abs(cost - optima[i]) > 1e-6) ++wrong;
            }
            Check(ids.Count == 60 && wrong == 0 && frames > 20, "queued requests at their optima, time-sliced");
            Console.WriteLine("queue     {0} arena requests on astar and jps: all at their optima after {1} frames", ids.Count, frames + 1);
            ulong extra;
            for (int i = 0; i < 4; ++i) Expect(queue.Submit(astar, 1, 1, 2, 2, out extra), PathStatus.Success, "room for four more");
            Expect(queue.Submit(astar, 1, 1, 2, 2, out extra), PathStatus.BufferTooSmall, "a full queue");
            Expect(queue.Release(ids[0]), PathStatus.Success, "release");
            Expect(queue.Result(ids[0]), PathStatus.InvalidArgument, "a released request");
            Expect(queue.Submit(astar, -1, 1, 2, 2, out extra), PathStatus.OutOfBounds, "an end off the grid");
        }
    }

    // Simulations: the C test's two rooms and door: both agents arrive without a collision or a
    // step into a wall; the door shut, agent 0 is unreachable (no path); a navmesh crowd of two.
    private static void Simulations()
    {
        const int W = 21, H = 10;
        var blocked = new bool[W * H];
        for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x) blocked[y * W + x] = x == 0 || y == 0 || x == W - 1 || y == H - 1 || (x == 10 && y != 4);
        using (GridMap map = GridMap.FromCells(W, H, blocked))
        using (Simulation sim = Simulation.OnGrid(map))
        {
            int a = sim.AddAgent(new Vector2(2.5f, 2.5f), new Vector2(18.5f, 2.5f));
            AgentSettings small = AgentSettings.Default;
            small.Radius = 0.3;
            int b = sim.AddAgent(new Vector2(18.5f, 7.5f), new Vector2(2.5f, 7.5f), small);
            Check(a == 0 && b == 1 && sim.AgentCount == 2, "agent ids");
            var xy = new double[4];
            var statuses = new int[2];
            int count, inWall = 0;
            for (int i = 0; i < 2000 && sim.Stats.Arrived < 2; ++i)
            {
                Expect(sim.Step(0.05), PathStatus.Success, "step");
                Expect(sim.GetAgents(xy, statuses, out count), PathStatus.Success, "positions");
                for (int k = 0; k < 2; ++k) inWall += blocked[(int)Math.Floor(xy[2 * k + 1]) * W + (int)Math.Floor(xy[2 * k])] ? 1 : 0;
            }
            SimulationStats st = sim.Stats;
            Check(st.Arrived == 2 && st.Collisions == 0 && inWall == 0, "both arrive, no collision, never in a wall");
            Check(Math.Abs(xy[0] - 18.5) < 0.6 && Math.Abs(xy[3] - 7.5) < 0.6, "at their goals");
            Console.WriteLine("sim       two agents through a door: both arrived after {0} ticks, no collision, never in a wall", st.Ticks);
            Expect(sim.GetAgents(new double[2], null, out count), PathStatus.BufferTooSmall, "a buffer for one agent");
            Check(count == 2, "the count when it did not fit");

            Expect(sim.SetBlocked(10, 4, true), PathStatus.Success, "shut the door");
            Expect(sim.SetDestination(a, new Vector2(2.5f, 2.5f)), PathStatus.Success, "send it back");
            Vector2 at;
            AgentStatus status = AgentStatus.Planning;
            AgentReason reason = AgentReason.None;
            for (int i = 0; i < 100 && status != AgentStatus.Unreachable; ++i)
            {
                sim.Step(0.05);
                sim.GetAgent(a, out at, out status, out reason);
            }
            Check(status == AgentStatus.Unreachable && reason == AgentReason.NoPath, "the door shut: unreachable, no path");
            Expect(sim.SetBlocked(10, 4, false), PathStatus.Success, "open it");
            for (int i = 0; i < 2000 && sim.GetStatus(a) != AgentStatus.Arrived; ++i) sim.Step(0.05);
            Check(sim.GetStatus(a) == AgentStatus.Arrived && sim.GetPosition(a).x < 3.2f, "it tries again and arrives");

            int crate;
            Expect(sim.AddObstacle(new Vector2(5.5f, 5.5f), 0.5, out crate), PathStatus.Success, "a crate");
            Expect(sim.RemoveObstacle(crate), PathStatus.Success, "removed");
            Expect(sim.RemoveObstacle(crate), PathStatus.InvalidArgument, "removed twice");
            Expect(sim.Stop(b), PathStatus.Success, "stop");
            Check(sim.GetStatus(b) == AgentStatus.Stopped, "stopped");
            Expect(sim.Resume(b), PathStatus.Success, "resume");
            Expect(sim.RemoveAgent(b), PathStatus.Success, "remove");
            Expect(sim.SetDestination(b, new Vector2(1.5f, 1.5f)), PathStatus.InvalidArgument, "an order to a removed agent");
            Expect(sim.SetDestination(7, new Vector2(1.5f, 1.5f)), PathStatus.InvalidArgument, "an order to no agent");
            Expect(sim.Step(0), PathStatus.InvalidArgument, "a step of 0 s");
            Expect(sim.SetBlocked(W, 0, true), PathStatus.OutOfBounds, "a cell off the map");
            AgentSettings bad = AgentSettings.Default;
            bad.Radius = -1;
            Throws(PathStatus.InvalidArgument, () => sim.AddAgent(new Vector2(1.5f, 1.5f), new Vector2(2.5f, 2.5f), bad), "a negative radius", "out of range");
            SimulationSettings wrong = SimulationSettings.Default;
            wrong.Algorithm = "teleport";
            Throws(PathStatus.InvalidArgument, () => Simulation.OnGrid(map, wrong), "an unknown algorithm", "teleport");
        }
        const string rooms = "v 0 0 0\nv 8 0 0\nv 8 0 8\nv 0 0 8\nv 8 0 2.5\nv 14 0 2.5\nv 14 0 5.5\nv 8 0 5.5\n" +
                             "v 14 0 0\nv 22 0 0\nv 22 0 8\nv 14 0 8\nf 1 3 2\nf 1 4 3\nf 5 7 6\nf 5 8 7\nf 9 11 10\nf 9 12 11\n";
        Simulation crowd;
        using (NavMesh mesh = NavMesh.BuildFromObjText(rooms, "rooms.obj"))
        {
            SimulationSettings sideways = SimulationSettings.Default;
            sideways.NavMode = "sideways";
            Throws(PathStatus.InvalidArgument, () => Simulation.OnNavMesh(mesh, sideways), "an unknown mode", "sideways");
            crowd = Simulation.OnNavMesh(mesh);
        }  // the mesh disposed: the simulation keeps it
        using (crowd)
        {
            crowd.AddAgent(new Vector2(2, 2), new Vector2(20, 6));
            crowd.AddAgent(new Vector2(20, 6), new Vector2(2, 2));
            for (int i = 0; i < 4000 && crowd.Stats.Arrived < 2; ++i) crowd.Step(0.05);
            Check(crowd.Stats.Arrived == 2 && crowd.Stats.Collisions == 0, "a navmesh crowd of two arrives without a collision");
            Expect(crowd.SetBlocked(0, 0, true), PathStatus.Unsupported, "no cells on a navmesh");
            Console.WriteLine("sim       two agents crossing a Recast level of two rooms: both arrived after {0} ticks, no collision", crowd.Stats.Ticks);
        }
        Expect(crowd.Step(0.05), PathStatus.InvalidHandle, "a disposed simulation");
        Check(crowd.Stats.Ticks == 0, "a disposed simulation's stats");
    }

    private static int Main(string[] args)
    {
        if (args.Length != 1)
        {
            Console.Error.WriteLine("usage: waymark_csharp_test.exe DATA_DIR");
            return 2;
        }
        string data = args[0];
        Check(System.Text.RegularExpressions.Regex.IsMatch(WaymarkLibrary.Version, @"^\d+\.\d+\.\d+$"), "version " + WaymarkLibrary.Version);
        Check(WaymarkLibrary.StatusName(PathStatus.NoPath) == "no-path", "status names");

        // ---- the C test's queries ----
        using (GridMap arena = GridMap.Load(Path.Combine(data, "maps/arena.map")))
        {
            Check(arena.Width == 49 && arena.Height == 49, "arena is 49 x 49");
            foreach (string a in new[] { "astar", "jps", "jps-plus", "dijkstra" }) ScenarioOptima(arena, Path.Combine(data, "maps/arena.map.scen"), a);
        }
        using (GridMap den = GridMap.Load(Path.Combine(data, "maps/den520d.map"))) ScenarioOptima(den, Path.Combine(data, "maps/den520d.map.scen"), "jps");

        Throws(PathStatus.LoadError, () => GridMap.Load("/no/such/file.map"), "a missing file", "/no/such/file.map");
        Throws(PathStatus.LoadError, () => GridMap.FromText("type octile\nheight 2\nwidth 3\nmap\n...\n.@\n", "mine.map"), "a short row", "mine.map:6");
        Throws(PathStatus.InvalidArgument, () => GridMap.FromCells(5, 4, new bool[3]), "cells of the wrong length");
        Throws(PathStatus.InvalidArgument, () => GridMap.FromCells(0, 0, new bool[0]), "an empty grid");

        // The 5 x 4 grid of the C test: a wall at x = 2 except at y = 3.
        var blocked = new bool[20];
        for (int y = 0; y < 3; ++y) blocked[y * 5 + 2] = true;
        GridMap grid = GridMap.FromCells(5, 4, blocked);
        Check(grid.IsBlocked(2, 0) && !grid.IsBlocked(2, 3) && !grid.IsBlocked(9, 9), "cells as given");
        Throws(PathStatus.InvalidArgument, () => new GridPlanner(grid, "no-such-search"), "an unknown algorithm", "jps-plus");
        foreach (string a in new[] { "astar", "wastar", "dijkstra", "greedy", "bfs", "dfs", "ida", "jps", "jps-plus", "jps+", "theta" })
        {
            using (var p = new GridPlanner(grid, a))
            {
                PathResult r = p.Plan(0, 0, 4, 0);
                Expect(r.Status, PathStatus.Success, a + " finds a path");
                Check(r.Count >= 2 && (r.Cost >= 6 + 2 * Math.Sqrt(2) - 1e-9 || a == "theta"), a + " cost " + r.Cost);
            }
        }
        var planner = new GridPlanner(grid);
        double before = 6 + 2 * Math.Sqrt(2);
        PathResult found = planner.Plan(0, 0, 4, 0);
        Check(found.Found && Math.Abs(found.Cost - before) < 1e-9, "the optimum around the wall: " + found);
        {
            var small = new int[4];
            int count;
            double cost;
            Expect(planner.Plan(0, 0, 4, 0, small, out count, out cost), PathStatus.BufferTooSmall, "a buffer too small");
            Check(count == found.Count && small[0] == 0 && small[1] == 0, "the count says how many");
            Expect(planner.Plan(0, 0, 4, 0, null, out count, out cost), PathStatus.Success, "no buffer: the count only");
            Check(count == found.Count, "the count without a buffer");
        }
        PathResult none = planner.Plan(-1, 0, 4, 0);
        Expect(none.Status, PathStatus.OutOfBounds, "a start off the map");
        Check(double.IsPositiveInfinity(none.Cost) && none.Cells.Length == 0 && none.Reason.Contains("(-1, 0)"), "no path: infinity, no cells, a reason");
        Expect(planner.Plan(2, 0, 4, 0).Status, PathStatus.StartBlocked, "a blocked start");
        Expect(planner.Plan(0, 0, 2, 1).Status, PathStatus.GoalBlocked, "a blocked goal");

        // Edits: stale until synced; then no path while the gap is closed.
        Expect(grid.SetBlocked(2, 3, true), PathStatus.Success, "closing the gap");
        Expect(grid.SetBlocked(9, 3, true), PathStatus.OutOfBounds, "an edit off the map");
        Check(planner.IsStale, "stale after an edit");
        Expect(planner.Plan(0, 0, 4, 0).Status, PathStatus.StaleWorld, "a stale planner refuses");
        Expect(planner.Sync(), PathStatus.Success, "sync");
        PathResult unreachable = planner.Plan(0, 0, 4, 0);
        Expect(unreachable.Status, PathStatus.NoPath, "the gap closed");
        Check(double.IsPositiveInfinity(unreachable.Cost) && unreachable.Reason.Contains("unreachable"), "unreachable: infinity and the reason");
        grid.SetBlocked(2, 3, false);
        Expect(grid.SetCost(2, 3, 10), PathStatus.Success, "a cost");
        Expect(grid.SetCost(2, 3, double.NaN), PathStatus.InvalidArgument, "a NaN cost");
        Check(grid.GetCost(2, 3) == 10, "the cost read back");
        planner.Sync();
        Check(Math.Abs(planner.Plan(0, 0, 4, 0).Cost - (before + 9)) < 1e-9, "A* pays the cost");
        using (var jps = new GridPlanner(grid, "jps"))
        {
            Check(jps.Unsupported() != null, "jump searches refuse costs, with a reason");
            Expect(jps.Plan(0, 0, 4, 0).Status, PathStatus.Unsupported, "a jump search on costs");
        }
        grid.SetCost(2, 3, 1);
        planner.Sync();
        using (var four = new GridPlanner(grid, new PlannerOptions { Algorithm = "astar", Diagonal = DiagonalRule.Never, Heuristic = Heuristic.Default, Query = QueryOptions.Default }))
        {
            Check(Math.Abs(four.Plan(0, 0, 4, 0).Cost - 10) < 1e-9, "4-connected: 10");
        }
        QueryOptions badWeight = QueryOptions.Default;
        badWeight.Weight = 0.5;
        Throws(PathStatus.InvalidArgument, () => new GridPlanner(grid, new PlannerOptions { Algorithm = "wastar", Query = badWeight, Diagonal = DiagonalRule.NoCornerCutting, Heuristic = Heuristic.Default }), "a weight below 1");

        // ---- a stepped search with events ----
        using (GridSearch search = planner.CreateSearch())
        {
            int expands = 0, ends = 0;
            Expect(search.SetEvents((ref SearchEvent e) => { if (e.Kind == SearchEventKind.Expand) ++expands; if (e.Kind == SearchEventKind.End) ++ends; }), PathStatus.Success, "events");
            Expect(search.Begin(0, 0, 4, 0), PathStatus.Running, "begin");
            int steps = 0;
            PathStatus st = PathStatus.Running;
            while (st == PathStatus.Running && steps < 1000) { st = search.Step(2); ++steps; }
            Expect(st, PathStatus.Success, "stepped to the end");
            Check(steps > 2, "several steps");
            Check(expands == (int)search.Stats.Expanded && ends == 1, "one expand event per expansion");
            int[] path = search.GetPath();
            Check(path.Length == found.Cells.Length, "the stepped path is the planner's");
            search.SetEvents(null);
            search.Begin(0, 0, 4, 0);
            search.Step(1);
            search.Cancel();
            Expect(search.Step(), PathStatus.Cancelled, "cancelled");
            Expect(search.Step(0, -1), PathStatus.InvalidArgument, "a negative time budget");
        }

        // ---- the hot calls allocate nothing ----
        {
            var cells = new int[2 * 64];
            int count;
            double cost;
            planner.Plan(0, 0, 4, 0, cells, out count, out cost);  // warm-up
            long allocated = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < 1000; ++i) planner.Plan(0, 0, 4, 0, cells, out count, out cost);
            long during = GC.GetAllocatedBytesForCurrentThread() - allocated;
            Check(during == 0, "1000 non-allocating plans allocated " + during + " bytes");
            // The counter sees allocations (so the zero above means something): one PathResult's cells.
            long first = GC.GetAllocatedBytesForCurrentThread();
            Check(planner.Plan(0, 0, 4, 0).Cells.Length > 0 && GC.GetAllocatedBytesForCurrentThread() > first, "the allocation counter counts");
        }

        // ---- disposed and finalised objects ----
        grid.Dispose();  // the planner keeps its native grid
        Check(planner.Plan(0, 0, 4, 0).Found, "a planner outlives its disposed map");
        Expect(grid.SetBlocked(0, 0, true), PathStatus.InvalidHandle, "an edit of a disposed map");
        using (GridMap one = GridMap.FromCells(1, 1, new bool[1]))
        using (var onePlanner = new GridPlanner(one, "astar"))
        {
            one.Dispose();
            Check(onePlanner.Plan(0, 0, 0, 0).Found && onePlanner.Plan(0, 0, 0, 0).Count == 1, "a one-cell path");
        }
        Throws(PathStatus.InvalidArgument, () => GridMap.FromCells(40000, 1, new bool[40000]), "a side above the limit");
        GridSearch orphan = planner.CreateSearch("dijkstra");
        planner.Dispose();
        Expect(planner.Plan(0, 0, 4, 0).Status, PathStatus.InvalidHandle, "a disposed planner");
        Expect(orphan.Begin(0, 0, 4, 0), PathStatus.Running, "a search outlives its disposed planner");
        Expect(orphan.Step(), PathStatus.Success, "and finds the path");
        orphan.Dispose();
        orphan.Dispose();
        Expect(orphan.Step(), PathStatus.InvalidHandle, "a disposed search");
        planner.Dispose();
        for (int i = 0; i < 200; ++i)
        {
            var m = GridMap.FromCells(8, 8, new bool[64]);
            var p = new GridPlanner(m, i % 2 == 0 ? "astar" : "jps");
            var s = p.CreateSearch();
            s.SetEvents((ref SearchEvent e) => { });
            s.Begin(0, 0, 7, 7);
            if (i % 3 == 0) m.Dispose();  // some disposed, the rest left to the finalisers
        }
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        Check(true, "finalisers ran without a crash");

        Queues(data);
        RoadGraphs(data);
        NavMeshes(data);
        Simulations();

        Console.WriteLine("{0} checks, {1} failed", checks, failures);
        return failures == 0 ? 0 : 1;
    }
}
