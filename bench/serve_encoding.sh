#!/usr/bin/env bash
# What each of the viewer's replies costs to send, by the encoding the client asks for: curl
# against `waymark serve` on loopback, best of three, time to the last byte and bytes sent
# (docs/viewer.md, "Reply encoding"). Give an older build's binary to compare.
#   bash bench/serve_encoding.sh WAYMARK_BINARY [serve options, e.g. --compress gzip]
set -euo pipefail
bin=${1:?usage: bench/serve_encoding.sh WAYMARK_BINARY [serve options...]}
shift
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
"$bin" serve --port 0 --data "$repo/data" --web "$repo/web" "$@" > "$work/out" 2> "$work/log" &
pid=$!
trap 'kill -INT "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
port=""
for _ in $(seq 100); do
  port=$(grep -o 'http://[0-9.]*:[0-9]*' "$work/out" | sed 's/.*://' || true)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "serve_encoding: the server did not start: $(cat "$work/log")" >&2; exit 1; }
url=http://127.0.0.1:$port
echo "reply                        asks for        bytes sent    seconds"
req() { # name method path body
  for enc in identity gzip br; do
    best=999
    size=0
    for k in 1 2 3; do
      if [ "$2" = GET ]; then
        out=$(curl -s -o /dev/null -H "Accept-Encoding: $enc" -w '%{time_starttransfer} %{time_total} %{size_download}' "$url$3")
      else
        out=$(curl -s -o /dev/null -H "Accept-Encoding: $enc" -H 'Content-Type: application/json' -d "$4" -w '%{time_starttransfer} %{time_total} %{size_download}' "$url$3")
      fi
      t=$(echo "$out" | cut -d' ' -f2); size=$(echo "$out" | cut -d' ' -f3)
      best=$(echo "$t $best" | awk '{print ($1<$2)?$1:$2}')
    done
    printf "%-28s %-8s %10s bytes %8.3f s\n" "$1" "$enc" "$size" "$best"
  done
}
req "maps list" GET /api/maps
req "map den520d rows" GET "/api/map?name=den520d"
req "page app.js" GET /js/app.js
req "path arena" POST /api/path '{"map":{"name":"arena"},"from":[3,1],"to":[35,7]}'
req "path den520d traced A*" POST /api/path '{"map":{"name":"den520d"},"from":[137,27],"to":[8,214],"trace":true}'
req "path den520d traced Dijkstra" POST /api/path '{"map":{"name":"den520d"},"from":[137,27],"to":[8,214],"trace":true,"algorithm":"dijkstra"}'
req "graph oldenburg" GET "/api/graph?name=oldenburg"
req "route 10->5000 all" POST /api/route '{"from":10,"to":5000,"algorithms":["dijkstra","bidijkstra","astar","alt","ch"]}'
req "navmesh nav_test" GET "/api/navmesh?name=nav_test"
kill -INT "$pid"
wait "$pid" 2>/dev/null || true
trap 'rm -rf "$work"' EXIT
