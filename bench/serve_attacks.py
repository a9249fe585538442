#!/usr/bin/python3
"""The hostile inputs of issue 32 against `waymark serve`, at their full sizes: what each gets
(status), how long it takes, and what it costs the server (growth of its peak RSS, VmHWM); then
slow and idle clients held open while a normal request is timed (docs/viewer.md, "The server
under attack"); then issue 41's: bodies held open, out of memory under an address-space limit,
one client's connections and sessions, request heads framed against RFC 9112. The attacker of
issue 41 connects from 127.0.0.2 (Linux routes 127.0.0.0/8 to lo), the other client from
127.0.0.1. Python's standard library only.

    /usr/bin/python3 bench/serve_attacks.py WAYMARK_BINARY [--quick] [--only-41]

--quick uses sizes a hundred times smaller and holds the slow clients 3 s instead of 12;
--only-41 runs issue 41's part only. A server that refuses an option of issue 41 (one built
before it) is started without it.
"""
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import zlib

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def start(binary, *extra):
    proc = subprocess.Popen([binary, "serve", "--port", "0", "--data", REPO + "/data", "--web", REPO + "/web", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    match = re.search(r"http://[^:]+:(\d+)/", line)
    if not match and extra:
        proc.wait()
        return start(binary)  # a server from before these options
    if not match:
        sys.exit("serve_attacks: the server did not start: " + line)
    return proc, int(match.group(1))


def status_kb(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return -1


def exchange(port, chunks, timeout=120):
    """Sends every chunk (bytes, or a generator of bytes) and reads the reply until the server
    closes; returns (status or 'reset', seconds, bytes received)."""
    status, seconds, data = exchange_data(port, chunks, timeout)
    return status, seconds, len(data)


def exchange_data(port, chunks, timeout):
    """exchange(), with the reply's bytes instead of their count."""
    t0 = time.time()
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(timeout)
    try:
        for chunk in chunks:
            s.sendall(chunk)
    except OSError:
        pass  # the server answered and closed before taking it all
    data = b""
    try:
        while True:
            b = s.recv(1 << 16)
            if not b:
                break
            data += b
    except OSError:
        pass
    s.close()
    m = re.match(rb"HTTP/1\.1 (\d+)", data)
    return (int(m.group(1)) if m else "reset"), time.time() - t0, data


def post(path, body):
    text = json.dumps(body).encode()
    return (f"POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(text)}\r\n\r\n").encode() + text


def answer(port, path, body, timeout=120):
    """POSTs `body` (JSON) and returns (status, parsed reply or None, seconds)."""
    status, seconds, data = exchange_data(port, [post(path, body)], timeout)
    try:
        parsed = json.loads(data.partition(b"\r\n\r\n")[2])
    except ValueError:
        parsed = None
    return (status if status != "reset" else 0), parsed, seconds


def beside(threads, stop, hold, probe):
    """Starts `threads`, then calls probe() every half second for `hold` seconds; sets `stop`
    and joins them. Returns the probes' results."""
    for t in threads:
        t.start()
    time.sleep(1)
    results = []
    t_end = time.time() + hold
    while time.time() < t_end:
        results.append(probe())
        time.sleep(0.5)
    stop.set()
    for t in threads:
        t.join()
    return results


def gzip_bomb(inflated):
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = bytes(1 << 20)
    out = [z.compress(block) for _ in range(inflated >> 20)]
    out.append(z.flush())
    return b"".join(out)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    quick = "--quick" in sys.argv
    if "--only-41" in sys.argv:
        print(json.dumps({"issue41": issue41(binary, quick)}))
        return
    scale = 100 if quick else 1
    proc, port = start(binary)
    body_head = b"POST /api/path HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n"
    bomb = gzip_bomb((1 << 30) // scale)
    chunked_total = (256 << 20) // scale
    many_ranges = ",".join(f"{i * 5}-{i * 5 + 4}" for i in range(2700)).encode()

    def chunked():
        yield body_head + b"Transfer-Encoding: chunked\r\n\r\n"
        piece = b"%x\r\n" % (1 << 20) + bytes(1 << 20) + b"\r\n"
        for _ in range(max(1, chunked_total >> 20)):
            yield piece
        yield b"0\r\n\r\n"

    def no_length():
        yield body_head + b"\r\n"
        for _ in range(max(1, (256 << 20) // scale >> 20)):
            yield b"[" * (1 << 20)

    def header_line():
        yield b"GET /api/maps HTTP/1.1\r\nHost: x\r\nX-Big: "
        for _ in range(max(1, (128 << 20) // scale >> 20)):
            yield b"a" * (1 << 20)
        yield b"\r\nConnection: close\r\n\r\n"

    def header_lines():
        yield b"GET /api/maps HTTP/1.1\r\nHost: x\r\n"
        lines = 1_000_000 // scale
        for _ in range(lines // 10_000):
            yield b"X-A: b\r\n" * 10_000
        yield b"Connection: close\r\n\r\n"

    attacks = [
        (f"gzip body, {len(bomb) >> 10} KiB inflating to {(1 << 30) // scale >> 20} MiB",
         [body_head + b"Content-Encoding: gzip\r\nContent-Length: %d\r\n\r\n" % len(bomb), bomb]),
        (f"chunked body of {chunked_total >> 20} MiB", chunked()),
        (f"body with no length, {(256 << 20) // scale >> 20} MiB", no_length()),
        (f"one header line of {(128 << 20) // scale >> 20} MiB", header_line()),
        (f"{1_000_000 // scale:,} header lines", header_lines()),
        ("Range: 2,700 ranges of /js/app.js",
         [b"GET /js/app.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\nRange: bytes=" + many_ranges + b"\r\n\r\n"]),
        ("Range: bytes=0-9 of /api/maps", [b"GET /api/maps HTTP/1.1\r\nHost: x\r\nConnection: close\r\nRange: bytes=0-9\r\n\r\n"]),
        ("POST /api/route, 10,000 x \"dijkstra\"", [post("/api/route", {"from": 10, "to": 5000, "algorithms": ["dijkstra"] * 10000})]),
    ]
    print(f"{'input':48} {'status':>7} {'seconds':>8} {'reply B':>9} {'peak RSS +MB':>13}")
    rows = []
    for name, chunks in attacks:
        before = status_kb(proc.pid, "VmHWM")
        status, seconds, received = exchange(port, chunks)
        grown = (status_kb(proc.pid, "VmHWM") - before) / 1024
        rows.append({"input": name, "status": status, "seconds": seconds, "reply_bytes": received, "peak_rss_growth_mb": grown})
        print(f"{name:48} {status!s:>7} {seconds:8.3f} {received:9d} {grown:13.1f}")

    # Slow and idle clients: 20 trickling a head, 10 a body, 20 silent; meanwhile GET /api/maps.
    hold = 3 if quick else 12
    stop = threading.Event()
    cut = []

    def attacker(start_bytes, trickle):
        s = socket.create_connection(("127.0.0.1", port))
        t0 = time.time()
        if start_bytes:
            s.sendall(start_bytes)
        s.settimeout(1)
        while not stop.is_set():
            try:
                if trickle:
                    s.send(b"a")
                if s.recv(1) == b"":
                    cut.append(time.time() - t0)
                    return
            except socket.timeout:
                continue
            except OSError:
                cut.append(time.time() - t0)
                return
        s.close()

    threads = [threading.Thread(target=attacker, args=(b"GET /api/maps HTTP/1.1\r\nHost: x\r\nX-Slow: ", True)) for _ in range(20)]
    threads += [threading.Thread(target=attacker, args=(body_head + b"Content-Length: 1000\r\n\r\n{", True)) for _ in range(10)]
    threads += [threading.Thread(target=attacker, args=(b"", False)) for _ in range(20)]
    maps = b"GET /api/maps HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    normal = beside(threads, stop, hold, lambda: exchange(port, [maps], timeout=30)[:2])
    answered = sum(1 for s, _ in normal if s == 200)
    worst = max(s for _, s in normal)
    print(f"50 slow or idle sockets held {hold} s: GET /api/maps answered {answered} of {len(normal)}, slowest {worst:.3f} s; "
          f"{len(cut)} sockets cut off by the server, after {min(cut) if cut else 0:.1f}-{max(cut) if cut else 0:.1f} s")

    # Eight simulations of 1,000 agents stacked on one cell, each stepped 200 ticks a request
    # without pause, while a normal GET /api/maps and a grid path are timed.
    rows64 = ["." * 64] * 64
    stacked = [{"start": [10.5, 10.5], "goal": [50.5, 50.5]} for _ in range(1000)]
    sims = []
    for _ in range(8):
        status, started, _ = answer(port, "/api/sim/start", {"map": {"width": 64, "height": 64, "rows": rows64}, "agents": stacked})
        if status == 200:
            sims.append(started["id"])
    stop.clear()
    steps = []

    def stepper(sim):
        while not stop.is_set():
            status, reply, seconds = answer(port, "/api/sim/step", {"id": sim, "ticks": 200})
            steps.append((status, reply.get("ticks_done", 0) if isinstance(reply, dict) else 0, seconds))

    def probe():
        status, seconds, _ = exchange(port, [maps], timeout=60)
        path_status, _, path_seconds = answer(port, "/api/path", {"map": {"name": "arena"}, "from": [3, 3], "to": [40, 40]}, timeout=60)
        return status, seconds, path_status, path_seconds

    heavy_normal = beside([threading.Thread(target=stepper, args=(sim,)) for sim in sims], stop, hold, probe)
    ok_steps = [s for s in steps if s[0] == 200]
    heavy_answered = sum(1 for s, _, p, _ in heavy_normal if s == 200 and p == 200)
    heavy_worst = max(max(a, b) for _, a, _, b in heavy_normal)
    print(f"8 simulations of 1,000 stacked agents stepped 200 ticks a request for {hold} s: {len(ok_steps)} steps answered, "
          f"{min(s[1] for s in ok_steps) if ok_steps else 0}-{max(s[1] for s in ok_steps) if ok_steps else 0} ticks each in "
          f"{min(s[2] for s in ok_steps) if ok_steps else 0:.2f}-{max(s[2] for s in ok_steps) if ok_steps else 0:.2f} s; "
          f"GET /api/maps and a path answered {heavy_answered} of {len(heavy_normal)}, slowest {heavy_worst:.3f} s")
    proc.send_signal(2)
    proc.wait(timeout=30)
    results41 = issue41(binary, quick)
    print(json.dumps({"issue41": results41, "attacks": rows, "slow_clients": {"held_seconds": hold, "normal_answered": answered, "normal_sent": len(normal),
                                                        "normal_slowest_s": worst, "cut_off": len(cut)},
                      "heavy_steps": {"steps": len(ok_steps), "normal_answered": heavy_answered, "normal_sent": len(heavy_normal),
                                      "normal_slowest_s": heavy_worst}}))


ATTACKER = "127.0.0.2"  # issue 41's attacker; the other client is 127.0.0.1


def connect(port, source=None, timeout=30):
    s = socket.socket()
    s.settimeout(timeout)
    if source:
        s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def reply_of(s):
    """The status of the reply on `s` (read until the server closes), or 'closed'."""
    data = b""
    try:
        while True:
            b = s.recv(1 << 16)
            if not b:
                break
            data += b
    except OSError:
        pass
    m = re.match(rb"HTTP/1\.1 (\d+)", data)
    return int(m.group(1)) if m else "closed"


def ask(port, raw, source=None, timeout=30):
    try:
        s = connect(port, source, timeout)
        s.sendall(raw)
    except OSError:
        return "closed"
    status = reply_of(s)
    s.close()
    return status


MAPS = b"GET /api/maps HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"


def body_head(length):
    return b"POST /api/path HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % length


def padded_query(size):
    q = b'{"map":{"name":"arena"},"from":[3,3],"to":[40,40]}'
    return q + b" " * (size - len(q))


def tally(statuses):
    out = {}
    for st in statuses:
        out[str(st)] = out.get(str(st), 0) + 1
    return out


def held_bodies(binary, count, extra=(), cap_mib=None):
    """`count` connections from ATTACKER, each sending all but the last byte of a 16 MiB body and
    holding on; then GET /api/maps and a path query from the other client; then the last bytes
    (--request-timeout 60 here, so that the held ones are answered rather than cut off).
    With `cap_mib`, the server's address space is limited to its size then plus that many MiB
    while the bodies arrive (a `ulimit -v` deployment)."""
    proc, port = start(binary, *extra)
    ask(port, MAPS)
    rss0 = status_kb(proc.pid, "VmRSS")
    if cap_mib is not None:
        import resource
        cap = (status_kb(proc.pid, "VmSize") << 10) + (cap_mib << 20)
        resource.prlimit(proc.pid, resource.RLIMIT_AS, (cap, resource.RLIM_INFINITY))
    body = padded_query(16 << 20)
    t0 = time.time()
    socks, refused = [], []
    for _ in range(count):
        try:
            s = connect(port, ATTACKER)
        except OSError:
            refused.append("no connection")
            continue
        try:
            s.sendall(body_head(len(body)) + body[:-1])
            socks.append(s)
        except OSError:
            refused.append(reply_of(s))
            s.close()
        if proc.poll() is not None:
            break
    time.sleep(0.5)
    alive = proc.poll() is None
    rss = status_kb(proc.pid, "VmRSS") if alive else -1
    seconds = time.time() - t0
    others = (ask(port, MAPS), ask(port, body_head(len(body[:1000])) + body[:1000])) if alive else ("dead", "dead")
    if cap_mib is not None and alive:
        import resource
        resource.prlimit(proc.pid, resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    answers = []
    for s in socks:
        try:
            s.sendall(body[-1:])
        except OSError:
            pass
        answers.append(reply_of(s))
        s.close()
    after = ask(port, MAPS) if proc.poll() is None else "dead"
    ended = proc.poll()
    if ended is None:
        proc.send_signal(2)
        proc.wait(timeout=30)
    return {"held": len(socks), "refused_at_head": tally(refused), "answers": tally(answers), "alive": alive,
            "exit": ended, "rss_growth_mb": (rss - rss0) / 1024 if alive else None, "seconds": seconds,
            "other_client_maps": others[0], "other_client_path": others[1], "maps_after": after}


def many_connections(binary, count):
    """`count` idle connections from ATTACKER, then GET /api/maps five times from the other client."""
    proc, port = start(binary)
    socks = []
    for _ in range(count):
        try:
            socks.append(connect(port, ATTACKER))
        except OSError:
            break
    time.sleep(1)
    got = []
    for _ in range(5):
        got.append(ask(port, MAPS, timeout=3))
    closed = 0
    for s in socks:
        s.settimeout(0.01)
        try:
            closed += s.recv(1) == b""
        except socket.timeout:
            pass
        except OSError:
            closed += 1
        s.close()
    proc.send_signal(2)
    proc.wait(timeout=30)
    return {"opened": len(socks), "closed_by_server": closed, "answered": sum(1 for g in got if g == 200), "asked": len(got)}


def sessions(binary):
    """One client starts 16 simulations and 8 edited levels (every slot); then the other client one of each."""
    proc, port = start(binary)

    def post_json(path, body, source):
        text = json.dumps(body).encode()
        return ask(port, (f"POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n"
                          f"Content-Length: {len(text)}\r\n\r\n").encode() + text, source, timeout=120)

    grid = {"map": {"width": 8, "height": 8, "rows": ["........"] * 8}}
    level = {"mesh": "nav_test", "at": [-1.564062, -20.452827], "radius": 1}
    out = {"attacker_simulations": tally(post_json("/api/sim/start", grid, ATTACKER) for _ in range(16)),
           "other_simulation": post_json("/api/sim/start", grid, None),
           "attacker_levels": tally(post_json("/api/navmesh/obstacle", level, ATTACKER) for _ in range(8)),
           "other_level": post_json("/api/navmesh/obstacle", level, None)}
    proc.send_signal(2)
    proc.wait(timeout=30)
    return out


def framing(binary):
    proc, port = start(binary)
    q = padded_query(51)
    post_start = b"POST /api/path HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n"
    cases = [
        ("two differing Content-Lengths", post_start + b"Content-Length: %d\r\nContent-Length: 5\r\n\r\n" % len(q) + q),
        ("the same Content-Length twice", post_start + b"Content-Length: %d\r\nContent-Length: %d\r\n\r\n" % (len(q), len(q)) + q),
        ("HEAD /api/maps", b"HEAD /api/maps HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        ("NUL in a header value", b"GET /api/maps HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\nConnection: close\r\n\r\n"),
        ("NUL byte in the target (/index.html<NUL>.js)", b"GET /index.html\x00.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        ("bare LF line ends", b"GET /api/maps HTTP/1.1\nHost: x\nConnection: close\n\n"),
        ("a folded header (obs-fold)", b"GET /api/maps HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\nConnection: close\r\n\r\n"),
    ]
    out = {name: ask(port, raw) for name, raw in cases}
    proc.send_signal(2)
    proc.wait(timeout=30)
    return out


def issue41(binary, quick):
    full = not quick
    results = {
        "held_bodies": held_bodies(binary, 100 if full else 20, ("--request-timeout", "60")),
        "bodies_under_address_limit": held_bodies(binary, 40 if full else 12, ("--request-timeout", "60", "--max-body-memory", "4096"),
                                                  cap_mib=256),
        "heads_under_address_limit": None,
        "connections": many_connections(binary, 1100 if full else 200),
        "sessions": sessions(binary),
        "framing": framing(binary),
    }
    # ~550 heads declaring 16 MiB each under a limit of 9 GB (issue 41's abort), bodies unsent.
    proc, port = start(binary)
    import resource
    resource.prlimit(proc.pid, resource.RLIMIT_AS, ((status_kb(proc.pid, "VmSize") << 10) + (8 << 30), resource.RLIM_INFINITY))
    socks = []
    for _ in range(600 if full else 100):
        try:
            s = connect(port, ATTACKER)
            s.sendall(body_head(16 << 20))
            socks.append(s)
        except OSError:
            pass
    time.sleep(0.5)
    alive = proc.poll() is None
    results["heads_under_address_limit"] = {"heads": len(socks), "alive": alive, "exit": proc.poll(),
                                            "other_client_maps": ask(port, MAPS) if alive else "dead"}
    for s in socks:
        s.close()
    if proc.poll() is None:
        proc.send_signal(2)
        proc.wait(timeout=30)
    for name, r in results.items():
        print(f"issue 41, {name}: {json.dumps(r)}")
    return results


if __name__ == "__main__":
    main()
