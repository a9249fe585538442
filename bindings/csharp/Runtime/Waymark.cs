// waymark for C# and Unity: grids, planners and stepped searches over the C API
// (include/waymark/waymark.h), the same names, defaults, refusals and answers. docs/csharp.md
// teaches it.
//
// Conventions:
// - Queries never throw: they return a PathStatus (and a reason string when they fail). Only
//   loading and constructing throw, WaymarkException with the status and the C API's message.
// - Everything that owns native memory is IDisposable; a forgotten one is released by its
//   finaliser. Native handles keep their parents alive, so disposing a GridMap while its
//   planners are in use is safe. A disposed object's queries return PathStatus.InvalidHandle.
// - The hot calls have non-allocating overloads that write into the caller's arrays.
// - Grids and planners may be shared by threads for queries; a GridSearch is one thread's.
using System;
using System.Runtime.InteropServices;

namespace Waymark
{
    /// <summary>The C API's result codes, with their fixed values.</summary>
    public enum PathStatus
    {
        Success = 0,
        Running = 1,
        NoPath = 2,
        OutOfBounds = 3,
        StartBlocked = 4,
        GoalBlocked = 5,
        Unsupported = 6,
        StaleWorld = 7,
        BudgetExhausted = 8,
        Cancelled = 9,
        InvalidQuery = 10,
        BufferTooSmall = 11,
        InvalidArgument = -1,
        InvalidHandle = -2,
        LoadError = -3,
        LimitExceeded = -4,
        OutOfMemory = -5,
        InternalError = -6,
        BuildError = -7,
    }

    /// <summary>Which diagonal moves a planner makes.</summary>
    public enum DiagonalRule
    {
        Never = 0,
        Always = 1,
        AtMostOneObstacle = 2,
        NoCornerCutting = 3,
    }

    /// <summary>A planner's heuristic; Default: the tightest admissible one for its rule.</summary>
    public enum Heuristic
    {
        Default = -1,
        Manhattan = 0,
        Octile = 1,
        Euclidean = 2,
        Chebyshev = 3,
        Zero = 4,
    }

    /// <summary>A load or construction that failed: its status and the library's message.</summary>
    public sealed class WaymarkException : Exception
    {
        public PathStatus Status { get; private set; }
        public WaymarkException(PathStatus status, string message) : base(message) { Status = status; }
    }

    /// <summary>The library itself.</summary>
    public static class WaymarkLibrary
    {
        /// <summary>The native library's version, "MAJOR.MINOR.PATCH".</summary>
        public static string Version { get { return Native.Text(Native.wm_version()); } }
        /// <summary>This thread's last failure, "" if none.</summary>
        public static string LastError { get { return Native.LastError(); } }
        /// <summary>"no-path", "buffer-too-small", ...: the C API's name of a status.</summary>
        public static string StatusName(PathStatus status) { return Native.Text(Native.wm_result_name((int)status)); }

        internal static void Check(int rc)
        {
            if (rc != 0) throw new WaymarkException((PathStatus)rc, Native.LastError());
        }
    }

    /// <summary>What a query found: Status, Cost (PositiveInfinity when there is no path) and
    /// Cells (x0, y0, x1, y1, ...; empty when there is no path).</summary>
    public struct PathResult
    {
        private static readonly int[] NoCells = new int[0];
        private readonly int[] cells;

        internal PathResult(PathStatus status, double cost, int[] cells, string reason)
        {
            Status = status;
            Cost = cost;
            this.cells = cells;
            Reason = reason;
        }

        public PathStatus Status { get; private set; }
        public double Cost { get; private set; }
        /// <summary>The path's cells as x0, y0, x1, y1, ...</summary>
        public int[] Cells { get { return cells ?? NoCells; } }
        /// <summary>Cells in the path.</summary>
        public int Count { get { return Cells.Length / 2; } }
        /// <summary>Why there is no path ("" on success).</summary>
        public string Reason { get; private set; }
        public bool Found { get { return Status == PathStatus.Success; } }
        public override string ToString()
        {
            return Found ? string.Format("path of {0} cells, cost {1}", Count, Cost) : WaymarkLibrary.StatusName(Status) + ": " + Reason;
        }
    }

    /// <summary>A grid map: cells blocked or passable, each with a cost multiplier.</summary>
    public sealed class GridMap : IDisposable
    {
        internal readonly GridHandle Handle;

        private GridMap(IntPtr handle) { Handle = new GridHandle(handle); }

        /// <summary>A Moving AI .map file. Throws WaymarkException (LoadError, with file:line).</summary>
        public static GridMap Load(string path)
        {
            IntPtr h;
            WaymarkLibrary.Check(Native.wm_grid_load(Native.Utf8(path), out h));
            return new GridMap(h);
        }

        /// <summary>The text of a Moving AI .map; `name` is the file named in errors.</summary>
        public static GridMap FromText(string text, string name = "text")
        {
            if (text == null) throw new ArgumentNullException("text");
            byte[] bytes = System.Text.Encoding.UTF8.GetBytes(text);
            IntPtr h;
            WaymarkLibrary.Check(Native.wm_grid_load_text(bytes, new UIntPtr((uint)bytes.Length), Native.Utf8(name), out h));
            return new GridMap(h);
        }

        /// <summary>A grid from its cells, row-major (cell (x, y) at blocked[y * width + x]),
        /// true = blocked, Moving AI rules.</summary>
        public static GridMap FromCells(int width, int height, bool[] blocked)
        {
            if (blocked == null) throw new ArgumentNullException("blocked");
            if (width < 1 || height < 1 || (long)width * height != blocked.Length)
            {
                throw new WaymarkException(PathStatus.InvalidArgument,
                    string.Format("a {0} x {1} grid needs {2} cells, got {3}", width, height, (long)width * height, blocked.Length));
            }
            var bytes = new byte[blocked.Length];
            for (int i = 0; i < bytes.Length; ++i) bytes[i] = blocked[i] ? (byte)1 : (byte)0;
            IntPtr h;
            WaymarkLibrary.Check(Native.wm_grid_from_cells(width, height, bytes, out h));
            return new GridMap(h);
        }

        public int Width { get { int w, h; Check(Native.wm_grid_size(Live(), out w, out h)); return w; } }
        public int Height { get { int w, h; Check(Native.wm_grid_size(Live(), out w, out h)); return h; } }
        /// <summary>Incremented by every edit.</summary>
        public ulong Version { get { ulong v; Check(Native.wm_grid_version(Live(), out v)); return v; } }

        /// <summary>Whether (x, y) is blocked; false outside the map (check InBounds).</summary>
        public bool IsBlocked(int x, int y)
        {
            int b;
            return !Handle.IsClosed && Native.wm_grid_blocked(Handle, x, y, out b) == 0 && b != 0;
        }
        public bool InBounds(int x, int y) { return x >= 0 && y >= 0 && x < Width && y < Height; }

        /// <summary>Blocks or frees a cell; planners are stale until Sync().</summary>
        public PathStatus SetBlocked(int x, int y, bool blocked)
        {
            if (Handle.IsClosed) return PathStatus.InvalidHandle;
            return (PathStatus)Native.wm_grid_set_blocked(Handle, x, y, blocked ? 1 : 0);
        }
        /// <summary>A cell's cost multiplier (finite, > 0); planners are stale until Sync().</summary>
        public PathStatus SetCost(int x, int y, double multiplier)
        {
            if (Handle.IsClosed) return PathStatus.InvalidHandle;
            return (PathStatus)Native.wm_grid_set_cost(Handle, x, y, multiplier);
        }
        /// <summary>A cell's cost multiplier; NaN outside the map.</summary>
        public double GetCost(int x, int y)
        {
            double m;
            return !Handle.IsClosed && Native.wm_grid_cost(Handle, x, y, out m) == 0 ? m : double.NaN;
        }

        public void Dispose() { Handle.Dispose(); }
        public override string ToString() { return Handle.IsClosed ? "GridMap (disposed)" : string.Format("GridMap {0} x {1}", Width, Height); }

        private GridHandle Live()
        {
            if (Handle.IsClosed) throw new ObjectDisposedException("GridMap");
            return Handle;
        }
        private static void Check(int rc) { WaymarkLibrary.Check(rc); }
    }

    /// <summary>Limits and choices of the queries a planner's searches run.</summary>
    public struct QueryOptions
    {
        /// <summary>Weighted A*: f = g + Weight * h (>= 1).</summary>
        public double Weight;
        /// <summary>Most nodes one query may reach; 0: no limit.</summary>
        public ulong MaxNodes;
        /// <summary>A failed best-first query keeps the path to the node nearest the goal.</summary>
        public bool PartialResult;
        /// <summary>Node scratch only for the nodes a query reaches (astar, wastar, dijkstra, greedy).</summary>
        public bool SparseTable;
        /// <summary>Sparse tables: most bytes a query may hold; 0: no limit.</summary>
        public ulong MaxTableBytes;

        /// <summary>The library's defaults (wm_query_options_default).</summary>
        public static QueryOptions Default
        {
            get
            {
                Native.QueryOptions n = Native.wm_query_options_default();
                return new QueryOptions { Weight = n.weight, MaxNodes = n.max_nodes, PartialResult = n.partial_result != 0,
                                          SparseTable = n.sparse_table != 0, MaxTableBytes = n.max_table_bytes };
            }
        }

        internal Native.QueryOptions ToNative()
        {
            Native.QueryOptions n = Native.wm_query_options_default();
            n.weight = Weight;
            n.max_nodes = MaxNodes;
            n.partial_result = PartialResult ? 1 : 0;
            n.sparse_table = SparseTable ? 1 : 0;
            n.max_table_bytes = MaxTableBytes;
            return n;
        }
    }

    /// <summary>How a planner searches.</summary>
    public struct PlannerOptions
    {
        /// <summary>By its CLI name: astar, wastar, dijkstra, greedy, bfs, dfs, ida, jps, jps-plus, theta.</summary>
        public string Algorithm;
        public DiagonalRule Diagonal;
        public Heuristic Heuristic;
        public QueryOptions Query;

        public static PlannerOptions Default
        {
            get { return new PlannerOptions { Algorithm = "astar", Diagonal = DiagonalRule.NoCornerCutting, Heuristic = Heuristic.Default, Query = QueryOptions.Default }; }
        }
    }

    /// <summary>The searches over one grid. Thread-safe for queries; keeps its map alive.</summary>
    public sealed class GridPlanner : IDisposable
    {
        internal readonly PlannerHandle Handle;
        [ThreadStatic] private static int[] scratch;

        /// <summary>A planner of `algorithm` (its CLI name) with the default options.</summary>
        public GridPlanner(GridMap map, string algorithm = "astar")
            : this(map, WithAlgorithm(algorithm)) { }

        public GridPlanner(GridMap map, PlannerOptions options)
        {
            if (map == null) throw new ArgumentNullException("map");
            if (map.Handle.IsClosed) throw new ObjectDisposedException("GridMap");
            if (options.Algorithm == null) throw new ArgumentNullException("options.Algorithm");
            byte[] name = Native.Utf8(options.Algorithm);
            GCHandle pinned = GCHandle.Alloc(name, GCHandleType.Pinned);
            try
            {
                Native.PlannerOptions n = Native.wm_planner_options_default();
                n.algorithm = pinned.AddrOfPinnedObject();
                n.diagonal = (int)options.Diagonal;
                n.heuristic = (int)options.Heuristic;
                n.query = options.Query.ToNative();
                IntPtr h;
                WaymarkLibrary.Check(Native.wm_planner_create_with(map.Handle, ref n, out h));
                Handle = new PlannerHandle(h);
            }
            finally
            {
                pinned.Free();
            }
        }

        private static PlannerOptions WithAlgorithm(string algorithm)
        {
            PlannerOptions o = PlannerOptions.Default;
            o.Algorithm = algorithm;
            return o;
        }

        /// <summary>One query to its end. Never throws: the status says what happened.</summary>
        public PathResult Plan(int sx, int sy, int gx, int gy)
        {
            if (Handle.IsClosed) return new PathResult(PathStatus.InvalidHandle, double.PositiveInfinity, null, "the planner was disposed");
            int[] buffer = scratch ?? (scratch = new int[2 * 1024]);
            double cost;
            int count;
            PathStatus st = (PathStatus)Native.wm_plan(Handle, sx, sy, gx, gy, out cost, buffer, buffer.Length / 2, out count);
            if (st == PathStatus.BufferTooSmall)
            {
                buffer = scratch = new int[2 * count];
                st = (PathStatus)Native.wm_plan(Handle, sx, sy, gx, gy, out cost, buffer, buffer.Length / 2, out count);
            }
            if (st != PathStatus.Success) return new PathResult(st, double.PositiveInfinity, null, Native.LastError());
            var cells = new int[2 * count];
            Array.Copy(buffer, cells, cells.Length);
            return new PathResult(st, cost, cells, "");
        }

        /// <summary>One query, written into `cells` (x0, y0, x1, y1, ...; room for cells.Length / 2
        /// cells): allocates nothing. BufferTooSmall when it does not fit (count says how many
        /// there are, cells holds the first ones).</summary>
        public PathStatus Plan(int sx, int sy, int gx, int gy, int[] cells, out int count, out double cost)
        {
            count = 0;
            cost = double.PositiveInfinity;
            if (Handle.IsClosed) return PathStatus.InvalidHandle;
            return (PathStatus)Native.wm_plan(Handle, sx, sy, gx, gy, out cost, cells, cells == null ? 0 : cells.Length / 2, out count);
        }

        /// <summary>Whether the map was edited since the last Sync().</summary>
        public bool IsStale { get { int s; return Handle.IsClosed || Native.wm_planner_stale(Handle, out s) != 0 || s != 0; } }
        /// <summary>Brings the planner up to date with its map's edits; nothing else may use them meanwhile.</summary>
        public PathStatus Sync()
        {
            if (Handle.IsClosed) return PathStatus.InvalidHandle;
            ulong cells;
            return (PathStatus)Native.wm_planner_sync(Handle, out cells);
        }
        /// <summary>null when the planner's algorithm can search its map as it is, else why not.</summary>
        public string Unsupported()
        {
            if (Handle.IsClosed) return "the planner was disposed";
            return Native.wm_planner_supported(Handle) == 0 ? null : Native.LastError();
        }

        /// <summary>A steppable search (algorithm null: the planner's; options null: the planner's).</summary>
        public GridSearch CreateSearch(string algorithm = null, QueryOptions? options = null)
        {
            if (Handle.IsClosed) throw new ObjectDisposedException("GridPlanner");
            return new GridSearch(this, algorithm, options);
        }

        public void Dispose() { Handle.Dispose(); }
    }

    /// <summary>What a search did, for a viewer or a debugger.</summary>
    public enum SearchEventKind { Begin = 0, Open = 1, Expand = 2, Close = 3, Goal = 4, End = 5, SliceEnd = 6 }

    public struct SearchEvent
    {
        public SearchEventKind Kind;
        public bool HasCell, HasParent;
        public int X, Y, ParentX, ParentY;
        public double G, H;
        /// <summary>End: how the query finished.</summary>
        public PathStatus Result;
    }

    public delegate void SearchEventHandler(ref SearchEvent e);

    public struct SearchStats
    {
        public ulong Expanded, Generated, Scanned, MaxOpenSize;
        public double Seconds;
    }

    /// <summary>One query at a time, stepped under a budget: Begin, Step until it is not
    /// Running, then the path. One thread at a time; keeps its planner alive.</summary>
    public sealed class GridSearch : IDisposable
    {
        internal readonly SearchHandle Handle;
        private static readonly Native.EventFn Bridge = OnEvent;  // one delegate, never collected
        private GCHandle self;
        private SearchEventHandler handler;

        internal GridSearch(GridPlanner planner, string algorithm, QueryOptions? options)
        {
            IntPtr h;
            Native.QueryOptions n = options.HasValue ? options.Value.ToNative() : default(Native.QueryOptions);
            int rc = options.HasValue ? Native.wm_search_create(planner.Handle, Native.Utf8(algorithm), ref n, out h)
                                      : CreateWithPlannerOptions(planner, algorithm, out h);
            WaymarkLibrary.Check(rc);
            Handle = new SearchHandle(h);
        }

        [DllImport(Native.Library, CallingConvention = CallingConvention.Cdecl, EntryPoint = "wm_search_create")]
        private static extern int wm_search_create_default(PlannerHandle planner, byte[] algorithm, IntPtr options, out IntPtr search);
        private static int CreateWithPlannerOptions(GridPlanner planner, string algorithm, out IntPtr h)
        {
            return wm_search_create_default(planner.Handle, Native.Utf8(algorithm), IntPtr.Zero, out h);
        }

        /// <summary>Every event of this search's queries goes to `events` (null: none, no cost).
        /// Remakes the search's scratch: call it before the queries, not between steps.</summary>
        public PathStatus SetEvents(SearchEventHandler events)
        {
            if (Handle.IsClosed) return PathStatus.InvalidHandle;
            handler = events;
            if (events != null && !self.IsAllocated) self = GCHandle.Alloc(this, GCHandleType.Weak);
            PathStatus st = events == null ? (PathStatus)Native.wm_search_set_events(Handle, null, IntPtr.Zero)
                                           : (PathStatus)Native.wm_search_set_events(Handle, Bridge, GCHandle.ToIntPtr(self));
            return st;
        }

#if ENABLE_IL2CPP
        [AOT.MonoPInvokeCallback(typeof(Native.EventFn))]
#endif
        private static void OnEvent(IntPtr context, ref Native.Event e)
        {
            var search = GCHandle.FromIntPtr(context).Target as GridSearch;
            if (search == null || search.handler == null) return;
            var ev = new SearchEvent
            {
                Kind = (SearchEventKind)e.kind, HasCell = e.has_cell != 0, HasParent = e.has_parent != 0,
                X = e.x, Y = e.y, ParentX = e.parent_x, ParentY = e.parent_y, G = e.g, H = e.h, Result = (PathStatus)e.result,
            };
            try { search.handler(ref ev); }
            catch (Exception) { /* an exception must not unwind through the native search */ }
        }

        /// <summary>Starts a query: Running, or already finished.</summary>
        public PathStatus Begin(int sx, int sy, int gx, int gy)
        {
            return Handle.IsClosed ? PathStatus.InvalidHandle : (PathStatus)Native.wm_search_begin(Handle, sx, sy, gx, gy);
        }
        /// <summary>At most maxExpansions expansions (0: no limit) and maxSeconds (0: no limit).</summary>
        public PathStatus Step(ulong maxExpansions = 0, double maxSeconds = 0)
        {
            return Handle.IsClosed ? PathStatus.InvalidHandle : (PathStatus)Native.wm_search_step(Handle, maxExpansions, maxSeconds);
        }
        public PathStatus Cancel() { return Handle.IsClosed ? PathStatus.InvalidHandle : (PathStatus)Native.wm_search_cancel(Handle); }
        /// <summary>Running, Success or why the query failed.</summary>
        public PathStatus Result { get { return Handle.IsClosed ? PathStatus.InvalidHandle : (PathStatus)Native.wm_search_result(Handle); } }

        /// <summary>The last query's path into `cells`, allocating nothing (as GridPlanner.Plan).</summary>
        public PathStatus GetPath(int[] cells, out int count, out double cost)
        {
            count = 0;
            cost = double.PositiveInfinity;
            if (Handle.IsClosed) return PathStatus.InvalidHandle;
            return (PathStatus)Native.wm_search_path(Handle, out cost, cells, cells == null ? 0 : cells.Length / 2, out count);
        }
        /// <summary>The last query's path as a new array (x0, y0, ...).</summary>
        public int[] GetPath()
        {
            int count;
            double cost;
            if (GetPath(null, out count, out cost) != PathStatus.Success || count == 0) return new int[0];
            var cells = new int[2 * count];
            GetPath(cells, out count, out cost);
            return cells;
        }
        public SearchStats Stats
        {
            get
            {
                Native.Stats s;
                if (Handle.IsClosed || Native.wm_search_stats_get(Handle, out s) != 0) return default(SearchStats);
                return new SearchStats { Expanded = s.expanded, Generated = s.generated, Scanned = s.scanned, MaxOpenSize = s.max_open_size, Seconds = s.seconds };
            }
        }

        public void Dispose()
        {
            Handle.Dispose();
            if (self.IsAllocated) self.Free();
            GC.SuppressFinalize(this);
        }
        ~GridSearch()
        {
            if (self.IsAllocated) self.Free();
        }
    }

    /// <summary>A point or direction, float32, in waymark's frame: Recast's, right-handed with Y
    /// up. Unity is left-handed with Y up: FromUnity/ToUnity negate Z (x, y, -z).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Vector3
    {
        public float x, y, z;
        public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
        public override string ToString() { return string.Format("({0}, {1}, {2})", x, y, z); }
#if UNITY_5_3_OR_NEWER
        public static Vector3 FromUnity(UnityEngine.Vector3 v) { return new Vector3(v.x, v.y, -v.z); }
        public UnityEngine.Vector3 ToUnity() { return new UnityEngine.Vector3(x, y, -z); }
#endif
    }

    /// <summary>A point on a grid's plane, float32: x along columns, y along rows (a Unity scene
    /// usually lays a grid on its XZ plane: Unity (x, z) = waymark (x, y)).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Vector2
    {
        public float x, y;
        public Vector2(float x, float y) { this.x = x; this.y = y; }
        public override string ToString() { return string.Format("({0}, {1})", x, y); }
#if UNITY_5_3_OR_NEWER
        public static implicit operator Vector2(UnityEngine.Vector2 v) { return new Vector2(v.x, v.y); }
        public static implicit operator UnityEngine.Vector2(Vector2 v) { return new UnityEngine.Vector2(v.x, v.y); }
#endif
    }
}
