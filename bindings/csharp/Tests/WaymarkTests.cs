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

        Console.WriteLine("{0} checks, {1} failed", checks, failures);
        return failures == 0 ? 0 : 1;
    }
}
