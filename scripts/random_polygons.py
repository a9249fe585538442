#!/usr/bin/env python3
"""Writes a seeded random polygon file for `waymark visibility` (docs/visibility.md).

   python3 scripts/random_polygons.py COUNT EXTENT SEED > FILE

COUNT star-shaped polygons (3 to 8 corners at jittered, well separated angles around a
centre, so simple and not degenerate) with centres uniform in [0, EXTENT]^2 and radii from
1 to 4; bounds [-5, -5, EXTENT + 5, EXTENT + 5]. Polygons may overlap.
"""
import json
import math
import random
import sys


def main():
    count, extent, seed = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    polygons = []
    for _ in range(count):
        cx, cy = rng.uniform(0, extent), rng.uniform(0, extent)
        size = rng.uniform(1, 4)
        n = rng.randint(3, 8)
        corners = []
        for k in range(n):
            angle = (k + rng.uniform(0, 0.6)) * 2 * math.pi / n
            r = size * rng.uniform(0.5, 1)
            corners.append([round(cx + r * math.cos(angle), 4), round(cy + r * math.sin(angle), 4)])
        polygons.append(corners)
    world = {"bounds": [-5, -5, extent + 5, extent + 5], "polygons": polygons}
    text = json.dumps(world)
    sys.stdout.write(text.replace("]], [[", "]],\n  [[") + "\n")


if __name__ == "__main__":
    main()
