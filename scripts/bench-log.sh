#!/usr/bin/env bash
# Measures how fast `perf-run log` reads a large SQL debug log, against
# `wc -l` on the same file in the same run (the floor: reading the bytes and
# finding the newlines). The log is generated: Faultline's format, a fault
# storm over 5,000 keys (so duplicates and similar statements both occur),
# with one line in five of other output.
#   BENCH_LOG_MB   size of the generated log in MB (default 1024)
set -euo pipefail
cd "$(dirname "$0")/.."

megabytes=${BENCH_LOG_MB:-1024}
swift build -c release --product perf-run >/dev/null
work=$(mktemp -d -p "${BENCH_TMPDIR:-/tmp}")
trap 'rm -rf "$work"' EXIT
log="$work/bench.log"

echo "generating a ${megabytes} MB log..." >&2
python3 - "$log" "$megabytes" <<'PY'
import sys
path, limit = sys.argv[1], int(sys.argv[2]) * 1_000_000
block = []
for i in range(5000):
    block.append('faultline: sql: SELECT t0.pk, t0."name" FROM "Network" t0 WHERE t0.pk = ?\n')
    block.append(f'faultline: details: bind[0] = {i}\n')
    block.append('faultline: annotation: sql execution time: 0.000012s, rows: 1, changed: 0, purpose: fault\n')
    block.append(f'faultline: annotation: fault fulfilled from database for Network/p{i} in 0.000020s\n')
    block.append(f'app: request {i} handled, rendering the next view\n')
block = ''.join(block).encode()
with open(path, 'wb') as f:
    written = 0
    while written < limit:
        f.write(block)
        written += len(block)
PY
bytes=$(stat -c %s "$log")

t0=$(date +%s.%N); wc -l "$log" >/dev/null
t1=$(date +%s.%N); .build/release/perf-run log "$log" >/dev/null
t2=$(date +%s.%N)
python3 - "$bytes" "$t0" "$t1" "$t2" <<'PY'
import sys
size, t0, t1, t2 = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
wc, log = t1 - t0, t2 - t1
mb = size / 1e6
print(f"log size          {mb:10.1f} MB")
print(f"wc -l             {wc:10.2f} s  {mb / wc:8.1f} MB/s")
print(f"perf-run log      {log:10.2f} s  {mb / log:8.1f} MB/s")
print(f"ratio             {log / wc:10.1f} x wc -l")
PY
