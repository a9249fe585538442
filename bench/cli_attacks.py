#!/usr/bin/python3
"""The hostile inputs of issue 32 against the CLI (sections 1, 2 and 4; the server's, section 3,
are bench/serve_attacks.py): each input is generated here, run with the given binary, and
reported with its exit code, wall time, peak RSS (/usr/bin/time) and the first line it printed.
Python's standard library only; the inputs go to a temporary folder, removed at the end.

    /usr/bin/python3 bench/cli_attacks.py WAYMARK_BINARY [--quick] [--section S]

--section S runs only section S (1, 1b, 2 or 4). --quick skips the inputs that take more than a
few seconds (the 4,094-corner comb, the 6,400 and 25,600 squares, the 2^20 links, the 65,536
triangles, 100,000 agents, the million-triangle mesh, the 1,235-unit floor in tiles without a
time limit). Section 1b is issue 41's (Recast's builds, carving, bakes).
"""
import json
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAV_TEST = REPO + "/data/meshes/nav_test.obj"
NAV_QUERIES = REPO + "/data/meshes/nav_mesh_test.txt"
DEN520D = REPO + "/data/maps/den520d.map"


def run(binary, args, timeout=900):
    """Runs `binary args` under /usr/bin/time: (exit code, seconds, peak RSS MB, first line)."""
    t0 = time.time()
    try:
        p = subprocess.run(["/usr/bin/time", "-f", "@@rss %M", binary, *args], capture_output=True, text=True,
                           timeout=timeout, errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", time.time() - t0, None, ""
    seconds = time.time() - t0
    rss = re.search(r"@@rss (\d+)", p.stderr)
    lines = [l for l in (p.stderr.replace(rss.group(0), "") if rss else p.stderr).splitlines() + p.stdout.splitlines()
             if l.strip() and not l.startswith("Command exited")]
    first = lines[0] if lines else ""
    if first.startswith("{"):  # --json: what it says, in short
        try:
            j = json.loads(first)
            keep = ("status", "stopped", "reason", "points_done", "points", "edges", "edges_found", "build_ms", "queries",
                    "succeeded", "partial", "failed", "agents", "arrived", "ticks", "mean_tick_us", "plans")
            first = ", ".join(f"{k} {round(j[k], 1) if isinstance(j[k], float) else j[k]}" for k in keep if k in j)
        except ValueError:
            pass
    return p.returncode, seconds, int(rss.group(1)) / 1024 if rss else None, first[:160]


def write_obj(path, vertices, faces):
    with open(path, "w") as f:
        for v in vertices:
            f.write("v %r %r %r\n" % v)
        for face in faces:
            f.write("f " + " ".join(str(i + 1) for i in face) + "\n")


def quad_obj(path, x0, z0, side):
    write_obj(path, [(x0, 0.0, z0), (x0 + side, 0.0, z0), (x0 + side, 0.0, z0 + side), (x0, 0.0, z0 + side)],
              [(0, 3, 2, 1)])


def moved_obj(path, source, dx, dz):
    """`source` (an OBJ) with every vertex moved by (dx, 0, dz)."""
    with open(source) as f, open(path, "w") as out:
        for line in f:
            if line.startswith("v "):
                x, y, z = map(float, line.split()[1:4])
                out.write("v %r %r %r\n" % (x + dx, y, z + dz))
            else:
                out.write(line)


def moved_queries(path, source, dx, dz):
    """RecastDemo's TestCases file `source` with its 'pf' points moved by (dx, 0, dz)."""
    with open(source) as f, open(path, "w") as out:
        for line in f:
            fields = line.split()
            if fields and fields[0] == "pf":
                v = [float(x) for x in fields[1:7]]
                v[0] += dx; v[2] += dz; v[3] += dx; v[5] += dz
                line = " ".join(["pf"] + ["%r" % x for x in v] + fields[7:]) + "\n"
            out.write(line)


MASK64 = (1 << 64) - 1


def mix64(x):
    x ^= x >> 30
    x = (x * 0xbf58476d1ce4e5b9) & MASK64
    x ^= x >> 27
    x = (x * 0x94d049bb133111eb) & MASK64
    return x ^ (x >> 31)


def checksum(payload):
    """waymark's file checksum (core/hash.hpp's Hasher over the bytes), little-endian."""
    h = 0x243f6a8885a308d3
    padded = payload + bytes(-len(payload) % 8)
    for i in range(0, len(padded), 8):
        word = int.from_bytes(padded[i:i + 8], "little")
        h = ((((h << 27) | (h >> 37)) & MASK64) ^ mix64(word)) * 0x9e3779b97f4a7c15 & MASK64
    h = ((((h << 27) | (h >> 37)) & MASK64) ^ mix64(len(payload))) * 0x9e3779b97f4a7c15 & MASK64
    return mix64(h).to_bytes(8, "little")


def forge(source, path, at, packed):
    """A copy of the .wmnav `source` with `packed` written at byte `at`, its checksum made to match."""
    with open(source, "rb") as f:
        b = bytearray(f.read())
    b[at:at + len(packed)] = packed
    payload = bytes(b[:-8])
    with open(path, "wb") as f:
        f.write(payload + checksum(payload))


def rooms_obj(path, n):
    """n × n one-cell rooms (cell 0.3) between walls one cell thick and 3 tall (the walls' tops:
    one region whose outline joins every room's hole; tests/recast/recast_limits_test.cpp)."""
    c, h = 0.3, 3.0
    side = (2 * n + 1) * c
    vertices, faces = [(0.0, 0.0, 0.0), (side, 0.0, 0.0), (side, 0.0, side), (0.0, 0.0, side)], [(0, 3, 2, 1)]

    def box(x0, z0, x1, z1):
        b = len(vertices)
        vertices.extend([(x0, 0.0, z0), (x1, 0.0, z0), (x1, 0.0, z1), (x0, 0.0, z1),
                         (x0, h, z0), (x1, h, z0), (x1, h, z1), (x0, h, z1)])
        faces.append((b + 4, b + 7, b + 6, b + 5))
        for k in range(4):
            faces.append((b + k, b + (k + 1) % 4, b + 4 + (k + 1) % 4, b + 4 + k))

    for i in range(n + 1):
        box(0.0, 2 * i * c, side, (2 * i + 1) * c)
        box(2 * i * c, 0.0, (2 * i + 1) * c, side)
    write_obj(path, vertices, faces)


def comb(teeth):
    v = [[-1, 0], [2 * teeth, 0]]
    for k in range(teeth - 1, -1, -1):
        v += [[2 * k + 1, 1], [2 * k + 1, 20], [2 * k, 20], [2 * k, 1]]
    return v


def squares(side):
    return [[[2 * i, 2 * j], [2 * i + 1, 2 * j], [2 * i + 1, 2 * j + 1], [2 * i, 2 * j + 1]]
            for i in range(side) for j in range(side)]


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f)


def passable_cells(map_path):
    with open(map_path) as f:
        lines = f.read().splitlines()
    start = lines.index("map") + 1
    return [(x, y) for y, row in enumerate(lines[start:]) for x, c in enumerate(row) if c in ".G"]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    quick = "--quick" in sys.argv
    only = sys.argv[sys.argv.index("--section") + 1] if "--section" in sys.argv else None
    tmp = tempfile.mkdtemp(prefix="cli_attacks_")
    rng = random.Random(32)
    cases = []  # (section, input, args, skipped in --quick)

    # 1. Inputs that reach Recast.
    far = tmp + "/quad_1e7.obj"
    quad_obj(far, 1e7, 1e7, 10)
    floor = tmp + "/floor_1235.obj"
    quad_obj(floor, 0, 0, 1235)
    rooms_obj(tmp + "/rooms120.obj", 120)
    cases += [
        ("1", "10x10 quad at x, z = 10^7, navmesh", ["navmesh", "--obj", far, "--from", "10000002,0,10000002",
                                                     "--to", "10000008,0,10000008"], False),
        ("1", "10x10 quad at x, z = 10^7, render", ["render", "--obj", far, "--png", tmp + "/far.png"], False),
        ("1", "nav_test --detail-sample-dist 0", ["navmesh", "--obj", NAV_TEST, "--queries", NAV_QUERIES,
                                                  "--detail-sample-dist", "0", "--json"], False),
        ("1", "nav_test --detail-sample-dist 0.5", ["navmesh", "--obj", NAV_TEST, "--queries", NAV_QUERIES,
                                                    "--detail-sample-dist", "0.5", "--json"], False),
        ("1", "1,235-unit flat floor (4117 x 4117 cells)", ["navmesh", "--obj", floor, "--from", "1,0,1",
                                                            "--to", "1000,0,1000"], False),
        ("1", "nav_test --agent-radius 38.4 (128 cells)", ["navmesh", "--obj", NAV_TEST, "--queries", NAV_QUERIES,
                                                           "--agent-radius", "38.4"], False),
        ("1", "120 x 120 one-cell rooms, no erosion, no smallest region (bake)",
         ["bake", "--obj", tmp + "/rooms120.obj", "--agent-radius", "0", "--region-min-size", "0",
          "--region-merge-size", "0", "--out", tmp + "/rooms.wmnav"], False),
        ("1", "the same, --tile-size 64", ["bake", "--obj", tmp + "/rooms120.obj", "--agent-radius", "0",
                                           "--region-min-size", "0", "--region-merge-size", "0", "--tile-size", "64",
                                           "--out", tmp + "/rooms.wmnav"], False),
        ("1", "nav_test --agent-height 51.2 (256 cell heights)", ["navmesh", "--obj", NAV_TEST, "--queries",
                                                                  NAV_QUERIES, "--agent-height", "51.2"], False),
    ]

    # 1b. Issue 41: Recast's builds, carving and bakes.
    moved_obj(tmp + "/nav_1e8.obj", NAV_TEST, 1e8, 1e8)
    moved_queries(tmp + "/queries_1e8.txt", NAV_QUERIES, 1e8, 1e8)
    quad_obj(tmp + "/quad_1e300.obj", 1e300, 1e300, 10)
    quad_obj(tmp + "/floor_1228.obj", 0, 0, 1228)
    write_obj(tmp + "/strip.obj", [(0.0, 0.0, 3.0), (3.0, 0.0, 0.0), (4000.0, 0.0, 3997.0), (3997.0, 0.0, 4000.0)],
              [(0, 3, 2), (0, 2, 1)])
    with open(tmp + "/everything.txt", "w") as f:
        f.write("box -1e9 -100 -1e9 1e9 100 1e9\n")
    with open(tmp + "/far_barrel.txt", "w") as f:
        f.write("cylinder 1e200 0 0 1 2\n")
    subprocess.run([binary, "bake", "--obj", NAV_TEST, "--out", tmp + "/nav_test.wmnav"], capture_output=True)
    params_at, tile_at = 32 + 8, 32 + 120 + 1  # the class "0": its parameters, its tile's header
    forge(tmp + "/nav_test.wmnav", tmp + "/tile_size.wmnav", params_at + 12 * 8, struct.pack("<d", 1e300))
    forge(tmp + "/nav_test.wmnav", tmp + "/radius.wmnav", params_at + 3 * 8, struct.pack("<d", 1e308))
    forge(tmp + "/nav_test.wmnav", tmp + "/tile_at.wmnav", tile_at, struct.pack("<ii", -2**31, 2**31 - 1))
    ends = ["--from", "18.13855,-2.37,-21.319118", "--to", "-19.206181,-2.369133,24.802742"]
    cases += [
        ("1b", "1,235-unit flat floor, --tile-size 64", ["navmesh", "--obj", floor, "--from", "1,0,1", "--to", "9,0,9",
                                                        "--tile-size", "64"], True),
        ("1b", "the same, --time-limit 2", ["navmesh", "--obj", floor, "--from", "1,0,1", "--to", "9,0,9",
                                            "--tile-size", "64", "--time-limit", "2"], False),
        ("1b", "1,228-unit floor, solo (2^24 cells), --time-limit 2", ["navmesh", "--obj", tmp + "/floor_1228.obj",
                                                                        "--from", "1,0,1", "--to", "9,0,9",
                                                                        "--time-limit", "2"], False),
        ("1b", "render --obj of the 1,235-unit floor, --tile-size 64 --time-limit 2",
         ["render", "--obj", floor, "--png", tmp + "/floor.png", "--tile-size", "64", "--time-limit", "2"], False),
        ("1b", "4,000-unit diagonal strip (3 wide), --tile-size 64", ["navmesh", "--obj", tmp + "/strip.obj", "--from",
                                                                      "10,0,10", "--to", "3990,0,3990",
                                                                      "--tile-size", "64"], False),
        ("1b", "nav_test --tile-size 1", ["navmesh", "--obj", NAV_TEST, *ends, "--tile-size", "1"], False),
        ("1b", "10 x 10 quad at 10^300", ["navmesh", "--obj", tmp + "/quad_1e300.obj", "--from", "0,0,0", "--to",
                                          "1,0,1"], False),
        ("1b", "nav_test moved by 10^8, RecastDemo's queries", ["navmesh", "--obj", tmp + "/nav_1e8.obj", "--queries",
                                                               tmp + "/queries_1e8.txt", "--json"], False),
        ("1b", "nav_test, a box from -10^9 to 10^9 carved", ["navmesh", "--obj", NAV_TEST, *ends, "--obstacles",
                                                             tmp + "/everything.txt"], False),
        ("1b", "nav_test, a barrel at x = 10^200", ["navmesh", "--obj", NAV_TEST, *ends, "--obstacles",
                                                    tmp + "/far_barrel.txt"], False),
        ("1b", "a bake forged: tile_size 1e300 on a solo class", ["navmesh", "--navmesh", tmp + "/tile_size.wmnav", *ends],
         False),
        ("1b", "a bake forged: agent_radius 1e308", ["navmesh", "--navmesh", tmp + "/radius.wmnav", *ends], False),
        ("1b", "a bake forged: its tile at (INT_MIN, INT_MAX)", ["navmesh", "--navmesh", tmp + "/tile_at.wmnav", *ends],
         False),
    ]

    # 2. Builds and runs without a budget.
    for teeth, slow in ((255, False), (1023, True)):
        path = f"{tmp}/comb{4 * teeth + 2}.json"
        write_json(path, {"polygons": [comb(teeth)]})
        cases.append(("2", f"visibility, comb of {4 * teeth + 2} corners", ["visibility", "--polygons", path,
                      "--from", "-2,-2", "--to", f"{2 * teeth + 1},25", "--json"], slow))
    write_json(tmp + "/squares6400.json", {"polygons": squares(80)})
    cases.append(("2", "visibility, 6,400 unit squares", ["visibility", "--polygons", tmp + "/squares6400.json",
                  "--from", "-2,-2", "--to", "161,161", "--json"], True))
    # Issue 41: the lattice four times larger, under the default budget (--time-limit 60).
    write_json(tmp + "/squares25600.json", {"polygons": squares(160)})
    cases.append(("2", "visibility, 25,600 unit squares (the default budget)", ["visibility", "--polygons",
                  tmp + "/squares25600.json", "--from", "-2,-2", "--to", "321,321", "--json"], True))
    triangles = []
    for i in range(256):
        for j in range(256):
            x, y = i * 4 + rng.uniform(0, 1), j * 4 + rng.uniform(0, 1)
            triangles.append([[x, y], [x + 1.5, y + 0.2], [x + 0.4, y + 1.3]])
    write_json(tmp + "/triangles.json", {"polygons": triangles})
    cases.append(("2", "visibility, 65,536 triangles, --time-limit 30", ["visibility", "--polygons",
                  tmp + "/triangles.json", "--from", "-2,-2", "--to", "1030,1030", "--time-limit", "30"], True))
    for n in (16384, 65536):
        path = f"{tmp}/points{n}.json"
        write_json(path, {"polygons": [], "points": [[rng.uniform(0, 1000), rng.uniform(0, 1000)] for _ in range(n)]})
        cases.append(("2", f"visibility, {n:,} hand-placed points", ["visibility", "--polygons", path,
                      "--from", "-2,-2", "--to", "1001,1001"], False))
    write_json(tmp + "/squares1600.json", {"polygons": squares(40)})
    cases.append(("2", "render --polygons of 1,600 squares, PNG", ["render", "--polygons", tmp + "/squares1600.json",
                  "--png", tmp + "/squares.png"], False))
    cases.append(("2", "render --polygons of 1,600 squares, SVG", ["render", "--polygons", tmp + "/squares1600.json",
                  "--svg", tmp + "/squares.svg"], False))
    # Issue 41: many off-mesh links between two polygons (two 10 x 10 floors 1 apart, every link
    # two-way from a random point of one to a random point of the other). Each query relaxed
    # every link from every node, and each landing is a node: quadratic (200,000: about a
    # minute, 2^20 about 25 minutes); now each polygon's links go through a tree of their starts.
    # A third floor, joined to nothing, holds the goal of the funnel-mode query: it searches
    # every node it reaches before it fails (the shortest mode's query takes the best link).
    write_obj(tmp + "/two_floors.obj", [(0.0, 0.0, 0.0), (10.0, 0.0, 0.0), (10.0, 0.0, 10.0), (0.0, 0.0, 10.0),
                                        (11.0, 0.0, 0.0), (21.0, 0.0, 0.0), (21.0, 0.0, 10.0), (11.0, 0.0, 10.0),
                                        (30.0, 0.0, 0.0), (40.0, 0.0, 0.0), (40.0, 0.0, 10.0), (30.0, 0.0, 10.0)],
              [(0, 3, 2, 1), (4, 7, 6, 5), (8, 11, 10, 9)])
    for n, slow in ((200000, False), (1 << 20, True)):
        with open(f"{tmp}/links{n}.gset", "w") as f:
            for _ in range(n):
                f.write("c %.4f 0 %.4f %.4f 0 %.4f 1 1 0 1\n" % (rng.uniform(1, 9), rng.uniform(1, 9),
                                                                   rng.uniform(12, 20), rng.uniform(1, 9)))
        cases.append(("2", f"navmesh, {n:,} two-way links between two floors", ["navmesh", "--obj", tmp + "/two_floors.obj",
                      "--links", f"{tmp}/links{n}.gset", "--from", "1,0,1", "--to", "35,0,5", "--mode", "funnel"], slow))
        cases.append(("2", "the same, shortest mode, a goal across the links", ["navmesh", "--obj", tmp + "/two_floors.obj",
                      "--links", f"{tmp}/links{n}.gset", "--from", "1,0,1", "--to", "20,0,9"], slow))
    cells = passable_cells(DEN520D)
    # Up to four agents of radius 0.1 a cell, a quarter cell from its centre: no two start discs
    # overlap; goals at random cell centres.
    slots = [(x + 0.5 + dx, y + 0.5 + dy) for x, y in cells for dx in (-0.25, 0.25) for dy in (-0.25, 0.25)]
    for n, slow in ((20000, True), (100000, True)):
        starts = rng.sample(slots, n)
        write_json(f"{tmp}/agents{n}.json", {"map": DEN520D, "dt": 0.05, "max_steps": 100, "seed": 1, "agents": [
            {"start": list(a), "goal": [g[0] + 0.5, g[1] + 0.5], "radius": 0.1}
            for a, g in zip(starts, (rng.choice(cells) for _ in range(n)))]})
        cases.append(("2", f"simulate, {n:,} agents on den520d, 1 tick", ["simulate", "--scene",
                      f"{tmp}/agents{n}.json", "--steps", "1", "--json"], slow))
    ring = [[150 + 60 * (1 + 0.05 * (k % 2)) * math.cos(k * 2 * math.pi / 10000),
             150 + 60 * (1 + 0.05 * (k % 2)) * math.sin(k * 2 * math.pi / 10000)] for k in range(10000)]
    open_map = tmp + "/open300.map"
    with open(open_map, "w") as f:
        f.write("type octile\nheight 300\nwidth 300\nmap\n" + ("." * 300 + "\n") * 300)
    crowd = [[5.0 + 2 * c, 10.0 + 2.8 * r] for c in range(10) for r in range(100)]  # 1,000, 2 apart
    write_json(tmp + "/polygon_crowd.json", {"map": open_map, "dt": 0.05, "max_steps": 100, "seed": 1,
                                             "obstacles": [{"polygon": ring}], "agents": [
        {"start": p, "goal": [300 - p[0], p[1]], "radius": 0.3} for p in crowd]})
    cases.append(("2", "simulate, one 10,000-corner polygon, 1,000 agents, 20 ticks", ["simulate", "--scene",
                  tmp + "/polygon_crowd.json", "--steps", "20", "--json"], False))
    # Issue 41: a star of 10,000 corners whose spikes run from radius 10 to 140 (long diagonal
    # edges), 100 agents round its tips crossing to the other side, 100 ticks.
    star = [[150 + (140 if k % 2 == 0 else 10) * math.cos(k * 2 * math.pi / 10000),
             150 + (140 if k % 2 == 0 else 10) * math.sin(k * 2 * math.pi / 10000)] for k in range(10000)]
    round_star = [[150 + 142 * math.cos(a * 2 * math.pi / 100), 150 + 142 * math.sin(a * 2 * math.pi / 100)]
                  for a in range(100)]
    write_json(tmp + "/star_crowd.json", {"map": open_map, "dt": 0.05, "max_steps": 100, "seed": 1,
                                          "obstacles": [{"polygon": star}], "agents": [
        {"start": p, "goal": [300 - p[0], 300 - p[1]], "radius": 0.3} for p in round_star]})
    cases.append(("2", "simulate, a 10,000-corner star (spikes 10 to 140), 100 agents, 100 ticks", ["simulate",
                  "--scene", tmp + "/star_crowd.json", "--steps", "100", "--json"], False))
    side = 708  # 2 × 707² ≈ a million triangles
    vertices = [(float(i), 0.0, float(j)) for j in range(side + 1) for i in range(side + 1)]
    faces = []
    for j in range(side):
        for i in range(side):
            a = j * (side + 1) + i
            faces += [(a, a + side + 1, a + 1), (a + 1, a + side + 1, a + side + 2)]
    million = tmp + "/million.obj"
    write_obj(million, vertices, faces)
    cases.append(("2", f"render --obj of {len(faces):,} triangles, --build triangles, SVG", ["render", "--obj",
                  million, "--build", "triangles", "--svg", tmp + "/million.svg"], True))
    cases.append(("2", f"render --obj of {len(faces):,} triangles, --build triangles, PNG", ["render", "--obj",
                  million, "--build", "triangles", "--png", tmp + "/million.png"], True))

    # 4. Small ones.
    with open(tmp + "/random.bin", "wb") as f:
        f.write(bytes(rng.randrange(256) for _ in range(4096)))
    open(tmp + "/empty.txt", "w").close()
    for name, path in (("random bytes", tmp + "/random.bin"), ("an empty file", tmp + "/empty.txt"),
                       ("the OBJ", NAV_TEST)):
        cases.append(("4", f"navmesh --queries of {name}", ["navmesh", "--obj", NAV_TEST, "--queries", path], False))
    cases += [
        ("4", "regions --scen of another map", ["regions", "--map", DEN520D, "--seeds", "50,50;200,200", "--scen",
                                                REPO + "/data/maps/arena.map.scen"], False),
        ("4", "--threads 99999999999999999999", ["batch", "--map", DEN520D, "--queries", DEN520D + ".scen",
                                                 "--threads", "99999999999999999999"], False),
        ("4", "a weld distance of -1e-9", ["navmesh", "--obj", NAV_TEST, "--build", "triangles", "--weld", "-1e-9",
                                           "--from", "0,0,0", "--to", "1,0,1"], False),
    ]

    print(f"waymark: {binary}")
    print("| section | input | exit | seconds | peak RSS | first line printed |")
    print("|---|---|---:|---:|---:|---|")
    for section, name, args, slow in cases:
        if (quick and slow) or (only is not None and section != only):
            continue
        code, seconds, rss, first = run(binary, args)
        first = first.replace(tmp, "TMP").replace(REPO + "/", "").replace("|", "\\|")
        print(f"| {section} | {name} | {code} | {seconds:.2f} | {rss:.0f} MB | {first} |" if rss is not None else
              f"| {section} | {name} | {code} | {seconds:.2f} | — | {first} |", flush=True)
    if only is not None:
        shutil.rmtree(tmp)
        return
    # serve --host ::1: the URL it prints.
    proc = subprocess.Popen([binary, "serve", "--host", "::1", "--port", "0", "--data", REPO + "/data"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = proc.stdout.readline().strip()
    proc.terminate()
    proc.wait()
    print(f"| 4 | serve --host ::1 | — | — | — | {line} |")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
