// P/Invoke declarations of waymark's C API (include/waymark/waymark.h), one per function, and
// the SafeHandles that release its handles. Internal: users see GridMap, GridPlanner and
// GridSearch (Waymark.cs).
using System;
using System.Runtime.InteropServices;

namespace Waymark
{
    internal static class Native
    {
#if (UNITY_IOS || UNITY_WEBGL) && !UNITY_EDITOR
        // iOS and WebGL link native plugins statically into the player.
        internal const string Library = "__Internal";
#else
        // libwaymark_c.so (Linux, Android), waymark_c.dll (Windows), libwaymark_c.dylib (macOS).
        internal const string Library = "waymark_c";
#endif

        [StructLayout(LayoutKind.Sequential)]
        internal struct QueryOptions
        {
            public int version;
            public double weight;
            public ulong max_nodes;
            public int partial_result;
            public int sparse_table;
            public ulong max_table_bytes;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct PlannerOptions
        {
            public int version;
            public IntPtr algorithm;  // const char*, UTF-8
            public int diagonal;
            public int heuristic;
            public QueryOptions query;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct Event
        {
            public int kind, has_cell, has_parent, x, y, parent_x, parent_y;
            public double g, h;
            public int result;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct Stats
        {
            public ulong expanded, generated, scanned, max_open_size;
            public double seconds;
        }

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void EventFn(IntPtr context, ref Event e);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern IntPtr wm_version();
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern IntPtr wm_last_error();
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern IntPtr wm_result_name(int result);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_grid_load(byte[] path, out IntPtr grid);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_grid_load_text(byte[] text, UIntPtr length, byte[] name, out IntPtr grid);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_grid_from_cells(int width, int height, byte[] blocked, out IntPtr grid);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern void wm_grid_release(IntPtr grid);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_grid_size(GridHandle grid, out int width, out int height);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_grid_blocked(GridHandle grid, int x, int y, out int blocked);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_grid_set_blocked(GridHandle grid, int x, int y, int blocked);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_grid_set_cost(GridHandle grid, int x, int y, double multiplier);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_grid_cost(GridHandle grid, int x, int y, out double multiplier);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_grid_version(GridHandle grid, out ulong version);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern QueryOptions wm_query_options_default();
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern PlannerOptions wm_planner_options_default();
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_planner_create_with(GridHandle grid, ref PlannerOptions options, out IntPtr planner);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern void wm_planner_release(IntPtr planner);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_planner_stale(PlannerHandle planner, out int stale);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_planner_sync(PlannerHandle planner, out ulong cells);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_planner_supported(PlannerHandle planner);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int wm_plan(PlannerHandle planner, int sx, int sy, int gx, int gy, out double cost, int[] xy, int capacity, out int count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_search_create(PlannerHandle planner, byte[] algorithm, ref QueryOptions options, out IntPtr search);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern void wm_search_release(IntPtr search);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_search_set_events(SearchHandle search, EventFn fn, IntPtr context);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_search_begin(SearchHandle search, int sx, int sy, int gx, int gy);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_search_step(SearchHandle search, ulong maxExpansions, double maxSeconds);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_search_cancel(SearchHandle search);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_search_result(SearchHandle search);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_search_path(SearchHandle search, out double cost, int[] xy, int capacity, out int count);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_search_stats_get(SearchHandle search, out Stats stats);

        // ---- request queues
        [StructLayout(LayoutKind.Sequential)]
        internal struct QueueOptions
        {
            public int version;
            public int max_requests;
            public int max_searches;
            public ulong turn_expansions;
        }
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern QueueOptions wm_queue_options_default();
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_queue_create(ref QueueOptions options, out IntPtr queue);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern void wm_queue_release(IntPtr queue);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int wm_queue_submit(QueueHandle queue, PlannerHandle planner, int sx, int sy, int gx, int gy, int priority, out ulong request);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_queue_update(QueueHandle queue, ulong maxExpansions, double maxSeconds, out int inFlight);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_queue_result(QueueHandle queue, ulong request);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int wm_queue_path(QueueHandle queue, ulong request, out double cost, int[] xy, int capacity, out int count);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_queue_cancel(QueueHandle queue, ulong request);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_queue_release_request(QueueHandle queue, ulong request);

        // ---- road graphs
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_graph_load_dimacs(byte[] gr, byte[] co, out IntPtr graph);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_graph_load_edge_lists(byte[] nodes, byte[] edges, int directed, out IntPtr graph);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern void wm_graph_release(IntPtr graph);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_graph_size(RoadGraphHandle graph, out uint vertices, out ulong arcs);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_graph_planner_create(RoadGraphHandle graph, byte[] algorithm, out IntPtr planner);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern void wm_graph_planner_release(IntPtr planner);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int wm_graph_plan(RoadPlannerHandle planner, uint source, uint target, out double cost, uint[] vertices, int capacity, out int count);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int wm_graph_cost_matrix(RoadPlannerHandle planner, uint[] sources, int sourceCount, uint[] targets, int targetCount, double[] costs);

        // ---- navmeshes
        [StructLayout(LayoutKind.Sequential)]
        internal struct RecastParams
        {
            public int version;
            public double cell_size, cell_height, agent_height, agent_radius, agent_max_climb, agent_max_slope;
            public double region_min_size, region_merge_size, edge_max_len, edge_max_error;
            public int verts_per_poly;
            public double detail_sample_dist, detail_sample_max_error, max_seconds;
        }
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern RecastParams wm_recast_params_default();
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_navmesh_build_obj(byte[] path, ref RecastParams p, out IntPtr mesh);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_navmesh_build_obj_text(byte[] text, UIntPtr length, byte[] name, ref RecastParams p, out IntPtr mesh);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_navmesh_load_baked(byte[] path, byte[] agentClass, out IntPtr mesh);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern void wm_navmesh_release(IntPtr mesh);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_navmesh_size(NavMeshHandle mesh, out uint polygons, out uint vertices);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_navmesh_nearest_point(NavMeshHandle mesh, double[] point, double[] halfExtents, double[] nearest);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int wm_navmesh_raycast(NavMeshHandle mesh, double[] from, double[] to, out int hit, out double t, double[] point, double[] normal);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_nav_query_create(NavMeshHandle mesh, byte[] mode, out IntPtr query);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern void wm_nav_query_release(IntPtr query);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int wm_nav_find_path(NavQueryHandle query, double[] from, double[] to, out double length, double[] points, int capacity, out int count);

        // ---- simulations
        [StructLayout(LayoutKind.Sequential)]
        internal struct SimParams
        {
            public int version;
            public ulong seed;
            public int agent_avoidance;
            public int max_requests;
            public ulong planning_expansions;
            public PlannerOptions planner;
            public int plan_around_obstacles;
            public IntPtr nav_mode;  // const char*, UTF-8
        }
        [StructLayout(LayoutKind.Sequential)]
        internal struct AgentParams
        {
            public int version;
            public double radius, max_speed, max_force, mass;
        }
        [StructLayout(LayoutKind.Sequential)]
        internal struct SimStats
        {
            public ulong ticks, arrived, collisions, plans, failed_plans;
            public double mean_tick_us;
        }
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern SimParams wm_sim_params_default();
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern AgentParams wm_agent_params_default();
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_sim_create_grid(GridHandle grid, ref SimParams p, out IntPtr sim);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_sim_create_navmesh(NavMeshHandle mesh, ref SimParams p, out IntPtr sim);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern void wm_sim_release(IntPtr sim);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int wm_sim_add_agent(SimHandle sim, ref AgentParams p, double sx, double sy, double gx, double gy, out int id);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_sim_set_goal(SimHandle sim, int id, double gx, double gy);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_sim_stop(SimHandle sim, int id);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_sim_resume(SimHandle sim, int id);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_sim_remove_agent(SimHandle sim, int id);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_sim_step(SimHandle sim, double dt);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_sim_agent_count(SimHandle sim, out int count);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int wm_sim_agent(SimHandle sim, int id, out double x, out double y, out int status, out int reason);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_sim_agents(SimHandle sim, double[] xy, int[] statuses, int capacity, out int count);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_sim_set_blocked(SimHandle sim, int x, int y, int blocked);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_sim_add_obstacle_circle(SimHandle sim, double x, double y, double radius, out int id);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_sim_remove_obstacle(SimHandle sim, int id);
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)] internal static extern int wm_sim_stats_get(SimHandle sim, out SimStats stats);

        /// <summary>A C string (UTF-8, NUL-terminated) as a managed string.</summary>
        internal static string Text(IntPtr s)
        {
            if (s == IntPtr.Zero) return "";
            int n = 0;
            while (Marshal.ReadByte(s, n) != 0) ++n;
            var bytes = new byte[n];
            Marshal.Copy(s, bytes, 0, n);
            return System.Text.Encoding.UTF8.GetString(bytes);
        }

        /// <summary>A managed string as a NUL-terminated UTF-8 C string (null stays null).</summary>
        internal static byte[] Utf8(string s)
        {
            if (s == null) return null;
            var bytes = new byte[System.Text.Encoding.UTF8.GetByteCount(s) + 1];
            System.Text.Encoding.UTF8.GetBytes(s, 0, s.Length, bytes, 0);
            return bytes;
        }

        internal static string LastError() { return Text(wm_last_error()); }
    }

    /// <summary>Owns one reference to a C handle; released once, by Dispose or the finaliser.</summary>
    internal abstract class WaymarkHandle : SafeHandle
    {
        protected WaymarkHandle() : base(IntPtr.Zero, true) { }
        internal WaymarkHandle(IntPtr value) : base(IntPtr.Zero, true) { SetHandle(value); }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
    }

    internal sealed class GridHandle : WaymarkHandle
    {
        internal GridHandle(IntPtr value) : base(value) { }
        protected override bool ReleaseHandle() { Native.wm_grid_release(handle); return true; }
    }

    internal sealed class PlannerHandle : WaymarkHandle
    {
        internal PlannerHandle(IntPtr value) : base(value) { }
        protected override bool ReleaseHandle() { Native.wm_planner_release(handle); return true; }
    }

    internal sealed class SearchHandle : WaymarkHandle
    {
        internal SearchHandle(IntPtr value) : base(value) { }
        protected override bool ReleaseHandle() { Native.wm_search_release(handle); return true; }
    }

    internal sealed class QueueHandle : WaymarkHandle
    {
        internal QueueHandle(IntPtr value) : base(value) { }
        protected override bool ReleaseHandle() { Native.wm_queue_release(handle); return true; }
    }

    internal sealed class RoadGraphHandle : WaymarkHandle
    {
        internal RoadGraphHandle(IntPtr value) : base(value) { }
        protected override bool ReleaseHandle() { Native.wm_graph_release(handle); return true; }
    }

    internal sealed class RoadPlannerHandle : WaymarkHandle
    {
        internal RoadPlannerHandle(IntPtr value) : base(value) { }
        protected override bool ReleaseHandle() { Native.wm_graph_planner_release(handle); return true; }
    }

    internal sealed class NavMeshHandle : WaymarkHandle
    {
        internal NavMeshHandle(IntPtr value) : base(value) { }
        protected override bool ReleaseHandle() { Native.wm_navmesh_release(handle); return true; }
    }

    internal sealed class NavQueryHandle : WaymarkHandle
    {
        internal NavQueryHandle(IntPtr value) : base(value) { }
        protected override bool ReleaseHandle() { Native.wm_nav_query_release(handle); return true; }
    }

    internal sealed class SimHandle : WaymarkHandle
    {
        internal SimHandle(IntPtr value) : base(value) { }
        protected override bool ReleaseHandle() { Native.wm_sim_release(handle); return true; }
    }
}
