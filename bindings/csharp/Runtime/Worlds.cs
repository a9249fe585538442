// waymark for C# and Unity: road graphs, navmeshes and simulations over the C API, with the
// conventions of Waymark.cs (queries return a PathStatus and never throw; loads and
// constructors throw WaymarkException; IDisposable with a finaliser's safety net; parents kept
// alive by their children; non-allocating overloads on the per-frame calls).
using System;
using System.Runtime.InteropServices;

namespace Waymark
{
    // ---- request queues ----------------------------------------------------------------------

    /// <summary>Many path requests on any grid planners, advanced a frame's budget at a time
    /// over a bounded pool of searches. One thread at a time; keeps every planner it was given
    /// alive. Never throws after construction: calls return a PathStatus.</summary>
    public sealed class RequestQueue : IDisposable
    {
        internal readonly QueueHandle Handle;

        /// <summary>maxRequests held at once, maxSearches running at once, turnExpansions a turn.</summary>
        public RequestQueue(int maxRequests = 256, int maxSearches = 8, ulong turnExpansions = 256)
        {
            Native.QueueOptions o = Native.wm_queue_options_default();
            o.max_requests = maxRequests;
            o.max_searches = maxSearches;
            o.turn_expansions = turnExpansions;
            IntPtr h;
            WaymarkLibrary.Check(Native.wm_queue_create(ref o, out h));
            Handle = new QueueHandle(h);
        }

        /// <summary>A request on `planner`'s grid: its id in `request`. BufferTooSmall when the
        /// queue holds maxRequests (release some), OutOfBounds for an end off the grid.</summary>
        public PathStatus Submit(GridPlanner planner, int sx, int sy, int gx, int gy, out ulong request, int priority = 0)
        {
            request = 0;
            if (Handle.IsClosed || planner == null || planner.Handle.IsClosed) return PathStatus.InvalidHandle;
            return (PathStatus)Native.wm_queue_submit(Handle, planner.Handle, sx, sy, gx, gy, priority, out request);
        }

        /// <summary>One frame's budget (0: no limit) spent on the requests in flight; returns how
        /// many are still queued or running (-1 for a disposed queue).</summary>
        public int Update(ulong maxExpansions = 0, double maxSeconds = 0)
        {
            int inFlight;
            if (Handle.IsClosed || Native.wm_queue_update(Handle, maxExpansions, maxSeconds, out inFlight) != 0) return -1;
            return inFlight;
        }

        /// <summary>Running until the request has its answer; then Success or why there is no path.</summary>
        public PathStatus Result(ulong request) { return Handle.IsClosed ? PathStatus.InvalidHandle : (PathStatus)Native.wm_queue_result(Handle, request); }

        /// <summary>A finished request's path into `cells` (x0, y0, x1, y1, ...), as GridPlanner.Plan writes one.</summary>
        public PathStatus GetPath(ulong request, int[] cells, out int count, out double cost)
        {
            count = 0;
            cost = double.PositiveInfinity;
            if (Handle.IsClosed) return PathStatus.InvalidHandle;
            return (PathStatus)Native.wm_queue_path(Handle, request, out cost, cells, cells == null ? 0 : cells.Length / 2, out count);
        }

        public PathStatus Cancel(ulong request) { return Handle.IsClosed ? PathStatus.InvalidHandle : (PathStatus)Native.wm_queue_cancel(Handle, request); }
        /// <summary>Frees the request's slot: its id then names nothing.</summary>
        public PathStatus Release(ulong request) { return Handle.IsClosed ? PathStatus.InvalidHandle : (PathStatus)Native.wm_queue_release_request(Handle, request); }
        public void Dispose() { Handle.Dispose(); }
    }

    // ---- road graphs -----------------------------------------------------------------------

    /// <summary>A road graph (DIMACS or node and edge lists). Vertices are numbered 0..V-1:
    /// DIMACS's id k is vertex k - 1.</summary>
    public sealed class RoadGraph : IDisposable
    {
        internal readonly RoadGraphHandle Handle;
        private RoadGraph(IntPtr h) { Handle = new RoadGraphHandle(h); }

        /// <summary>A DIMACS .gr file and its .co positions (null: none; astar and alt then refuse).</summary>
        public static RoadGraph LoadDimacs(string grPath, string coPath = null)
        {
            IntPtr h;
            WaymarkLibrary.Check(Native.wm_graph_load_dimacs(Native.Utf8(grPath), Native.Utf8(coPath), out h));
            return new RoadGraph(h);
        }

        /// <summary>A node list (ID X Y) and an edge list (EDGE_ID U V LENGTH); undirected: each edge both ways.</summary>
        public static RoadGraph LoadEdgeLists(string nodesPath, string edgesPath, bool directed = false)
        {
            IntPtr h;
            WaymarkLibrary.Check(Native.wm_graph_load_edge_lists(Native.Utf8(nodesPath), Native.Utf8(edgesPath), directed ? 1 : 0, out h));
            return new RoadGraph(h);
        }

        public int VertexCount { get { uint v; ulong a; WaymarkLibrary.Check(Native.wm_graph_size(Live(), out v, out a)); return (int)v; } }
        public long ArcCount { get { uint v; ulong a; WaymarkLibrary.Check(Native.wm_graph_size(Live(), out v, out a)); return (long)a; } }

        internal RoadGraphHandle Live()
        {
            if (Handle.IsClosed) throw new ObjectDisposedException("RoadGraph");
            return Handle;
        }
        public void Dispose() { Handle.Dispose(); }
        public override string ToString() { return Handle.IsClosed ? "RoadGraph (disposed)" : string.Format("RoadGraph of {0} vertices", VertexCount); }
    }

    /// <summary>Routes on a road graph: "dijkstra", "bidijkstra", "astar", "alt", "ch", "table"
    /// (preprocessing built here). Thread-safe for queries; keeps its graph alive.</summary>
    public sealed class RoadPlanner : IDisposable
    {
        internal readonly RoadPlannerHandle Handle;

        public RoadPlanner(RoadGraph graph, string algorithm = "ch")
        {
            if (graph == null) throw new ArgumentNullException("graph");
            if (algorithm == null) throw new ArgumentNullException("algorithm");
            IntPtr h;
            WaymarkLibrary.Check(Native.wm_graph_planner_create(graph.Live(), Native.Utf8(algorithm), out h));
            Handle = new RoadPlannerHandle(h);
        }

        /// <summary>One route, its vertices written into `vertices` (allocates nothing):
        /// BufferTooSmall when they do not fit (count says how many there are).</summary>
        public PathStatus Plan(int source, int target, uint[] vertices, out int count, out double cost)
        {
            count = 0;
            cost = double.PositiveInfinity;
            if (Handle.IsClosed) return PathStatus.InvalidHandle;
            if (source < 0 || target < 0) return PathStatus.OutOfBounds;
            return (PathStatus)Native.wm_graph_plan(Handle, (uint)source, (uint)target, out cost, vertices,
                                                    vertices == null ? 0 : vertices.Length, out count);
        }

        /// <summary>The cost of one route (PositiveInfinity when there is none).</summary>
        public double Cost(int source, int target)
        {
            int count;
            double cost;
            Plan(source, target, null, out count, out cost);
            return cost;
        }

        /// <summary>costs[i * targets.Length + j] = the cost from sources[i] to targets[j].</summary>
        public PathStatus CostMatrix(uint[] sources, uint[] targets, double[] costs)
        {
            if (Handle.IsClosed) return PathStatus.InvalidHandle;
            if (sources == null || targets == null || costs == null || costs.Length < (long)sources.Length * targets.Length)
                return PathStatus.InvalidArgument;
            return (PathStatus)Native.wm_graph_cost_matrix(Handle, sources, sources.Length, targets, targets.Length, costs);
        }

        public void Dispose() { Handle.Dispose(); }
    }

    // ---- navmeshes ---------------------------------------------------------------------------

    /// <summary>Recast's build settings (world units; RecastDemo's defaults), as Unity's
    /// NavMeshBuildSettings.</summary>
    public struct RecastSettings
    {
        public double CellSize, CellHeight, AgentHeight, AgentRadius, AgentMaxClimb, AgentMaxSlope;
        public double RegionMinSize, RegionMergeSize, EdgeMaxLength, EdgeMaxError;
        public int VertsPerPoly;
        public double DetailSampleDistance, DetailSampleMaxError;
        /// <summary>No build step begun after this many seconds; 0: no limit.</summary>
        public double MaxSeconds;

        public static RecastSettings Default
        {
            get
            {
                Native.RecastParams n = Native.wm_recast_params_default();
                return new RecastSettings
                {
                    CellSize = n.cell_size, CellHeight = n.cell_height, AgentHeight = n.agent_height, AgentRadius = n.agent_radius,
                    AgentMaxClimb = n.agent_max_climb, AgentMaxSlope = n.agent_max_slope, RegionMinSize = n.region_min_size,
                    RegionMergeSize = n.region_merge_size, EdgeMaxLength = n.edge_max_len, EdgeMaxError = n.edge_max_error,
                    VertsPerPoly = n.verts_per_poly, DetailSampleDistance = n.detail_sample_dist,
                    DetailSampleMaxError = n.detail_sample_max_error, MaxSeconds = n.max_seconds,
                };
            }
        }

        internal Native.RecastParams ToNative()
        {
            Native.RecastParams n = Native.wm_recast_params_default();
            n.cell_size = CellSize; n.cell_height = CellHeight; n.agent_height = AgentHeight; n.agent_radius = AgentRadius;
            n.agent_max_climb = AgentMaxClimb; n.agent_max_slope = AgentMaxSlope; n.region_min_size = RegionMinSize;
            n.region_merge_size = RegionMergeSize; n.edge_max_len = EdgeMaxLength; n.edge_max_error = EdgeMaxError;
            n.verts_per_poly = VertsPerPoly; n.detail_sample_dist = DetailSampleDistance;
            n.detail_sample_max_error = DetailSampleMaxError; n.max_seconds = MaxSeconds;
            return n;
        }
    }

    /// <summary>Where a raycast along the mesh stopped (NavMesh.Raycast).</summary>
    public struct NavMeshHit
    {
        /// <summary>Whether a wall stopped it.</summary>
        public bool Hit;
        /// <summary>How far it got along the segment: 1 when it reached the end.</summary>
        public float Fraction;
        public Vector3 Position;
        /// <summary>The wall's normal in plan (0 when nothing was hit).</summary>
        public Vector3 Normal;
    }

    /// <summary>A navigation mesh built by Recast or loaded from a bake: immutable, shared by
    /// threads. Points are in waymark's (Recast's) frame: Vector3.FromUnity/ToUnity convert.</summary>
    public sealed class NavMesh : IDisposable
    {
        internal readonly NavMeshHandle Handle;
        [ThreadStatic] private static double[] a3, b3, c3, d3;
        private NavMesh(IntPtr h) { Handle = new NavMeshHandle(h); }

        /// <summary>Built from a Wavefront OBJ file (settings null: RecastSettings.Default).
        /// Throws WaymarkException: LoadError for a file that cannot be read, BuildError with the
        /// limit and what to change.</summary>
        public static NavMesh BuildFromObj(string path, RecastSettings? settings = null)
        {
            Native.RecastParams p = (settings ?? RecastSettings.Default).ToNative();
            IntPtr h;
            WaymarkLibrary.Check(Native.wm_navmesh_build_obj(Native.Utf8(path), ref p, out h));
            return new NavMesh(h);
        }

        /// <summary>The same from the text of an OBJ; `name` is the file named in errors.</summary>
        public static NavMesh BuildFromObjText(string text, string name = "text", RecastSettings? settings = null)
        {
            if (text == null) throw new ArgumentNullException("text");
            Native.RecastParams p = (settings ?? RecastSettings.Default).ToNative();
            byte[] bytes = System.Text.Encoding.UTF8.GetBytes(text);
            IntPtr h;
            WaymarkLibrary.Check(Native.wm_navmesh_build_obj_text(bytes, (UIntPtr)bytes.Length, Native.Utf8(name), ref p, out h));
            return new NavMesh(h);
        }

        /// <summary>One agent class of a baked .wmnav file (null: its first class).</summary>
        public static NavMesh LoadBaked(string path, string agentClass = null)
        {
            IntPtr h;
            WaymarkLibrary.Check(Native.wm_navmesh_load_baked(Native.Utf8(path), Native.Utf8(agentClass), out h));
            return new NavMesh(h);
        }

        public int PolygonCount { get { uint p, v; WaymarkLibrary.Check(Native.wm_navmesh_size(Live(), out p, out v)); return (int)p; } }

        /// <summary>The mesh point nearest `source` within source +- halfExtents (null: 2, 4, 2),
        /// as Unity's NavMesh.SamplePosition: OutOfBounds when no polygon is that near.</summary>
        public PathStatus SamplePosition(Vector3 source, out Vector3 position, Vector3? halfExtents = null)
        {
            position = source;
            if (Handle.IsClosed) return PathStatus.InvalidHandle;
            double[] p = Put(ref a3, source), n = c3 ?? (c3 = new double[3]);
            double[] e = halfExtents.HasValue ? Put(ref b3, halfExtents.Value) : null;
            var st = (PathStatus)Native.wm_navmesh_nearest_point(Handle, p, e, n);
            if (st == PathStatus.Success) position = Get(n);
            return st;
        }

        /// <summary>Walks the straight line (in plan) from `from` towards `to` along the surface,
        /// as Unity's NavMesh.Raycast: hit.Hit when a wall stopped it.</summary>
        public PathStatus Raycast(Vector3 from, Vector3 to, out NavMeshHit hit)
        {
            hit = new NavMeshHit();
            if (Handle.IsClosed) return PathStatus.InvalidHandle;
            double[] f = Put(ref a3, from), t = Put(ref b3, to), point = c3 ?? (c3 = new double[3]), normal = d3 ?? (d3 = new double[3]);
            int h;
            double fraction;
            var st = (PathStatus)Native.wm_navmesh_raycast(Handle, f, t, out h, out fraction, point, normal);
            if (st == PathStatus.Success) hit = new NavMeshHit { Hit = h != 0, Fraction = (float)fraction, Position = Get(point), Normal = Get(normal) };
            return st;
        }

        internal NavMeshHandle Live()
        {
            if (Handle.IsClosed) throw new ObjectDisposedException("NavMesh");
            return Handle;
        }
        internal static double[] Put(ref double[] buffer, Vector3 v) { return Set(buffer ?? (buffer = new double[3]), v); }
        internal static double[] Set(double[] b, Vector3 v)
        {
            b[0] = v.x; b[1] = v.y; b[2] = v.z;
            return b;
        }
        internal static Vector3 Get(double[] b) { return new Vector3((float)b[0], (float)b[1], (float)b[2]); }
        public void Dispose() { Handle.Dispose(); }
        public override string ToString() { return Handle.IsClosed ? "NavMesh (disposed)" : string.Format("NavMesh of {0} polygons", PolygonCount); }
    }

    /// <summary>A query object, as Detour's dtNavMeshQuery: one thread at a time, its scratch
    /// kept. mode: "shortest" (Polyanya, the default), "funnel" (Detour's kind), "centroids".
    /// Keeps its mesh alive.</summary>
    public sealed class NavMeshQuery : IDisposable
    {
        internal readonly NavQueryHandle Handle;
        private readonly double[] from3 = new double[3], to3 = new double[3];
        private double[] corners = new double[3 * 256];

        public NavMeshQuery(NavMesh mesh, string mode = "shortest")
        {
            if (mesh == null) throw new ArgumentNullException("mesh");
            IntPtr h;
            WaymarkLibrary.Check(Native.wm_nav_query_create(mesh.Live(), Native.Utf8(mode), out h));
            Handle = new NavQueryHandle(h);
        }

        /// <summary>A path from `from` to `to` (each taken to its nearest mesh point), its corners
        /// written into `path` (allocates nothing once the query's buffer has held as many):
        /// BufferTooSmall when they do not fit (count says how many there are). length: the
        /// path's 3D length, PositiveInfinity when there is none.</summary>
        public PathStatus CalculatePath(Vector3 from, Vector3 to, Vector3[] path, out int count, out double length)
        {
            count = 0;
            length = double.PositiveInfinity;
            if (Handle.IsClosed) return PathStatus.InvalidHandle;
            NavMesh.Set(from3, from);
            NavMesh.Set(to3, to);
            var st = (PathStatus)Native.wm_nav_find_path(Handle, from3, to3, out length, corners, corners.Length / 3, out count);
            if (st == PathStatus.BufferTooSmall)
            {
                corners = new double[3 * count];
                st = (PathStatus)Native.wm_nav_find_path(Handle, from3, to3, out length, corners, count, out count);
            }
            if (st != PathStatus.Success) return st;
            int fits = path == null ? 0 : Math.Min(path.Length, count);
            for (int i = 0; i < fits; ++i) path[i] = new Vector3((float)corners[3 * i], (float)corners[3 * i + 1], (float)corners[3 * i + 2]);
            return fits < count ? PathStatus.BufferTooSmall : PathStatus.Success;
        }

        /// <summary>The path's corners (empty when there is none, the status then says why).</summary>
        public Vector3[] CalculatePath(Vector3 from, Vector3 to, out PathStatus status, out double length)
        {
            int count;
            status = CalculatePath(from, to, null, out count, out length);
            if (status != PathStatus.BufferTooSmall) return new Vector3[0];
            var path = new Vector3[count];
            status = CalculatePath(from, to, path, out count, out length);
            return path;
        }

        public void Dispose() { Handle.Dispose(); }
    }

    // ---- simulations ---------------------------------------------------------------------------

    /// <summary>Where an agent stands (fixed values, WM_AGENT_*), as Unity's NavMeshAgent reports.</summary>
    public enum AgentStatus { Planning = 0, Moving = 1, Arrived = 2, Unreachable = 3, Stuck = 4, Stopped = 5, Removed = 6, OnLink = 7 }

    /// <summary>Why an agent is in the state it ends in (fixed values, WM_REASON_*).</summary>
    public enum AgentReason
    {
        None = 0, StartOutside = 1, GoalOutside = 2, StartClosed = 3, GoalClosed = 4, NoPath = 5, SearchFailed = 6,
        CrowdedGoal = 7, NoProgress = 8,
    }

    /// <summary>A simulation's settings (SimulationSettings.Default: the library's).</summary>
    public struct SimulationSettings
    {
        public ulong Seed;
        /// <summary>Agents avoid each other (ORCA).</summary>
        public bool AgentAvoidance;
        /// <summary>Path requests in flight at once.</summary>
        public int MaxRequests;
        /// <summary>Search expansions spent on paths per step.</summary>
        public ulong PlanningExpansions;
        /// <summary>Grid simulations: the planner's algorithm ("astar") and diagonal rule.</summary>
        public string Algorithm;
        public DiagonalRule Diagonal;
        /// <summary>Grid simulations: obstacles close their cells to planning.</summary>
        public bool PlanAroundObstacles;
        /// <summary>Navmesh simulations: "shortest" (null: the default), "funnel", "centroids".</summary>
        public string NavMode;

        public static SimulationSettings Default
        {
            get
            {
                Native.SimParams n = Native.wm_sim_params_default();
                return new SimulationSettings
                {
                    Seed = n.seed, AgentAvoidance = n.agent_avoidance != 0, MaxRequests = n.max_requests,
                    PlanningExpansions = n.planning_expansions, Algorithm = "astar", Diagonal = (DiagonalRule)n.planner.diagonal,
                    PlanAroundObstacles = n.plan_around_obstacles != 0, NavMode = null,
                };
            }
        }
    }

    /// <summary>An agent's settings (AgentSettings.Default: radius 0.35, speed 3), as Unity's
    /// NavMeshAgent radius, speed and acceleration.</summary>
    public struct AgentSettings
    {
        public double Radius, MaxSpeed, MaxForce, Mass;
        public static AgentSettings Default
        {
            get
            {
                Native.AgentParams n = Native.wm_agent_params_default();
                return new AgentSettings { Radius = n.radius, MaxSpeed = n.max_speed, MaxForce = n.max_force, Mass = n.mass };
            }
        }
        internal Native.AgentParams ToNative()
        {
            Native.AgentParams n = Native.wm_agent_params_default();
            n.radius = Radius; n.max_speed = MaxSpeed; n.max_force = MaxForce; n.mass = Mass;
            return n;
        }
    }

    /// <summary>What a simulation did so far.</summary>
    public struct SimulationStats
    {
        public ulong Ticks, Arrived, Collisions, Plans, FailedPlans;
        public double MeanTickMicroseconds;
    }

    /// <summary>Agents that plan, steer round each other and the walls, and take orders while
    /// they run: a crowd, as Unity's NavMeshAgents or Detour's dtCrowd. On a grid the plane is
    /// the map's (cell (x, y) spans x..x+1, y..y+1); on a navmesh it is the mesh's plan (x, z).
    /// One thread at a time. Orders return a PathStatus and never throw.</summary>
    public sealed class Simulation : IDisposable
    {
        internal readonly SimHandle Handle;
        private Simulation(IntPtr h) { Handle = new SimHandle(h); }

        /// <summary>On a copy of `map` (edit it with SetBlocked).</summary>
        public static Simulation OnGrid(GridMap map, SimulationSettings? settings = null)
        {
            if (map == null) throw new ArgumentNullException("map");
            if (map.Handle.IsClosed) throw new ObjectDisposedException("GridMap");
            return Create(settings ?? SimulationSettings.Default, (ref Native.SimParams p, out IntPtr h) => Native.wm_sim_create_grid(map.Handle, ref p, out h));
        }

        /// <summary>On `mesh` (kept alive), which Recast eroded by the agents' radius: its outline is the walls.</summary>
        public static Simulation OnNavMesh(NavMesh mesh, SimulationSettings? settings = null)
        {
            if (mesh == null) throw new ArgumentNullException("mesh");
            NavMeshHandle m = mesh.Live();
            return Create(settings ?? SimulationSettings.Default, (ref Native.SimParams p, out IntPtr h) => Native.wm_sim_create_navmesh(m, ref p, out h));
        }

        private delegate int Maker(ref Native.SimParams p, out IntPtr h);
        private static Simulation Create(SimulationSettings s, Maker make)
        {
            byte[] algorithm = Native.Utf8(s.Algorithm ?? "astar"), mode = Native.Utf8(s.NavMode);
            GCHandle a = GCHandle.Alloc(algorithm, GCHandleType.Pinned);
            GCHandle m = mode == null ? default(GCHandle) : GCHandle.Alloc(mode, GCHandleType.Pinned);
            try
            {
                Native.SimParams p = Native.wm_sim_params_default();
                p.seed = s.Seed;
                p.agent_avoidance = s.AgentAvoidance ? 1 : 0;
                p.max_requests = s.MaxRequests;
                p.planning_expansions = s.PlanningExpansions;
                p.planner.algorithm = a.AddrOfPinnedObject();
                p.planner.diagonal = (int)s.Diagonal;
                p.plan_around_obstacles = s.PlanAroundObstacles ? 1 : 0;
                p.nav_mode = mode == null ? IntPtr.Zero : m.AddrOfPinnedObject();
                IntPtr h;
                WaymarkLibrary.Check(make(ref p, out h));
                return new Simulation(h);
            }
            finally
            {
                a.Free();
                if (m.IsAllocated) m.Free();
            }
        }

        /// <summary>An agent from `start` to `goal`: its id (from 0 up). Throws WaymarkException
        /// (InvalidArgument) for settings out of range or points not finite; a start or goal off
        /// the world is kept (the agent is then Unreachable, with the reason).</summary>
        public int AddAgent(Vector2 start, Vector2 goal, AgentSettings? settings = null)
        {
            Native.AgentParams p = (settings ?? AgentSettings.Default).ToNative();
            int id;
            WaymarkLibrary.Check(Native.wm_sim_add_agent(Live(), ref p, start.x, start.y, goal.x, goal.y, out id));
            return id;
        }

        /// <summary>A new goal, as Unity's NavMeshAgent.SetDestination.</summary>
        public PathStatus SetDestination(int id, Vector2 goal) { return Handle.IsClosed ? PathStatus.InvalidHandle : (PathStatus)Native.wm_sim_set_goal(Handle, id, goal.x, goal.y); }
        public PathStatus Stop(int id) { return Handle.IsClosed ? PathStatus.InvalidHandle : (PathStatus)Native.wm_sim_stop(Handle, id); }
        public PathStatus Resume(int id) { return Handle.IsClosed ? PathStatus.InvalidHandle : (PathStatus)Native.wm_sim_resume(Handle, id); }
        public PathStatus RemoveAgent(int id) { return Handle.IsClosed ? PathStatus.InvalidHandle : (PathStatus)Native.wm_sim_remove_agent(Handle, id); }

        /// <summary>One step of `dt` seconds. Allocates nothing after warm-up.</summary>
        public PathStatus Step(double dt) { return Handle.IsClosed ? PathStatus.InvalidHandle : (PathStatus)Native.wm_sim_step(Handle, dt); }

        /// <summary>Agents ever added (removed ones included).</summary>
        public int AgentCount { get { int n = 0; if (!Handle.IsClosed) Native.wm_sim_agent_count(Handle, out n); return n; } }

        /// <summary>One agent's position, status and reason.</summary>
        public PathStatus GetAgent(int id, out Vector2 position, out AgentStatus status, out AgentReason reason)
        {
            position = new Vector2();
            status = AgentStatus.Removed;
            reason = AgentReason.None;
            if (Handle.IsClosed) return PathStatus.InvalidHandle;
            double x, y;
            int s, r;
            var st = (PathStatus)Native.wm_sim_agent(Handle, id, out x, out y, out s, out r);
            if (st != PathStatus.Success) return st;
            position = new Vector2((float)x, (float)y);
            status = (AgentStatus)s;
            reason = (AgentReason)r;
            return st;
        }

        public AgentStatus GetStatus(int id) { Vector2 p; AgentStatus s; AgentReason r; GetAgent(id, out p, out s, out r); return s; }
        public Vector2 GetPosition(int id) { Vector2 p; AgentStatus s; AgentReason r; GetAgent(id, out p, out s, out r); return p; }

        /// <summary>Every agent's position (xy: x0, y0, x1, y1, ...) and status (may be null),
        /// by id, into the caller's arrays (allocates nothing): BufferTooSmall when they do not
        /// fit (count says how many agents there are).</summary>
        public PathStatus GetAgents(double[] xy, int[] statuses, out int count)
        {
            count = 0;
            if (Handle.IsClosed) return PathStatus.InvalidHandle;
            int capacity = int.MaxValue;
            if (xy != null) capacity = Math.Min(capacity, xy.Length / 2);
            if (statuses != null) capacity = Math.Min(capacity, statuses.Length);
            if (capacity == int.MaxValue) capacity = 0;
            return (PathStatus)Native.wm_sim_agents(Handle, xy, statuses, capacity, out count);
        }

        /// <summary>Grid simulations: blocks or frees a cell (the agents whose path crosses it re-plan).</summary>
        public PathStatus SetBlocked(int x, int y, bool blocked) { return Handle.IsClosed ? PathStatus.InvalidHandle : (PathStatus)Native.wm_sim_set_blocked(Handle, x, y, blocked ? 1 : 0); }

        /// <summary>A round obstacle, as Unity's NavMeshObstacle (a capsule) without carving: agents
        /// steer round it; on a grid planning sees it too. id: for RemoveObstacle.</summary>
        public PathStatus AddObstacle(Vector2 centre, double radius, out int id)
        {
            id = -1;
            return Handle.IsClosed ? PathStatus.InvalidHandle : (PathStatus)Native.wm_sim_add_obstacle_circle(Handle, centre.x, centre.y, radius, out id);
        }
        public PathStatus RemoveObstacle(int id) { return Handle.IsClosed ? PathStatus.InvalidHandle : (PathStatus)Native.wm_sim_remove_obstacle(Handle, id); }

        public SimulationStats Stats
        {
            get
            {
                Native.SimStats n;
                if (Handle.IsClosed || Native.wm_sim_stats_get(Handle, out n) != 0) return new SimulationStats();
                return new SimulationStats { Ticks = n.ticks, Arrived = n.arrived, Collisions = n.collisions, Plans = n.plans, FailedPlans = n.failed_plans, MeanTickMicroseconds = n.mean_tick_us };
            }
        }

        internal SimHandle Live()
        {
            if (Handle.IsClosed) throw new ObjectDisposedException("Simulation");
            return Handle;
        }
        public void Dispose() { Handle.Dispose(); }
        public override string ToString() { return Handle.IsClosed ? "Simulation (disposed)" : string.Format("Simulation of {0} agents", AgentCount); }
    }
}
