// The C# side of bench/binding_overhead.sh: every query of a Moving AI scenario through
// GridPlanner.Plan's non-allocating overload, as many rounds as the C++ and C sides, µs per query.
// Usage: mono csharp_overhead.exe MAP SCEN ALGORITHM ROUNDS
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using Waymark;

internal static class CSharpOverhead
{
    private static int Main(string[] args)
    {
        if (args.Length != 4) { Console.Error.WriteLine("usage: csharp_overhead.exe MAP SCEN ALGORITHM ROUNDS"); return 2; }
        var queries = new List<int[]>();
        foreach (string line in File.ReadAllLines(args[1]))
        {
            string[] f = line.Split(new[] { '\t', ' ' }, StringSplitOptions.RemoveEmptyEntries);
            if (f.Length == 9) queries.Add(new[] { int.Parse(f[4]), int.Parse(f[5]), int.Parse(f[6]), int.Parse(f[7]) });
        }
        int rounds = int.Parse(args[3], CultureInfo.InvariantCulture);
        using (GridMap map = GridMap.Load(args[0]))
        using (var planner = new GridPlanner(map, args[2]))
        {
            var cells = new int[2 * 65536];
            double seconds = 0, sum = 0;
            long allocated = 0;
            var watch = new Stopwatch();
            for (int r = 0; r <= rounds; ++r)  // round 0 warms up
            {
                long before = GC.GetAllocatedBytesForCurrentThread();
                watch.Restart();
                sum = 0;
                foreach (int[] q in queries)
                {
                    int count;
                    double cost;
                    if (planner.Plan(q[0], q[1], q[2], q[3], cells, out count, out cost) == PathStatus.Success) sum += cost;
                }
                watch.Stop();
                if (r > 0) { seconds += watch.Elapsed.TotalSeconds; allocated += GC.GetAllocatedBytesForCurrentThread() - before; }
            }
            Console.WriteLine("{{\"csharp_us\": {0}, \"allocated_bytes\": {1}, \"cost_sum\": {2}}}",
                              (1e6 * seconds / (queries.Count * (double)rounds)).ToString("F3", CultureInfo.InvariantCulture), allocated,
                              sum.ToString("R", CultureInfo.InvariantCulture));
        }
        return 0;
    }
}
