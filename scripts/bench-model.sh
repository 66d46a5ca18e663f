#!/usr/bin/env bash
# Times `perf-run model import` (release build) on two large generated
# models, each beside its target of one second:
#   flat   20,000 entities, each with one indexed attribute
#   chain  1,000 entities, each the parent of the next (the deepest named
#          first, so that each is read before its parent), each with a
#          fetch index on the root's attribute
# The figure is the median of BENCH_MODEL_RUNS runs (default 5) of the
# whole command (start-up included), wall clock and CPU time (user +
# system); the target is judged on CPU time, which a shared machine does
# not inflate as much. ModelImportScalingTests checks in `make test` that
# the cost grows linearly with the model (no timed bound there).
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${BENCH_MODEL_RUNS:-5}
if ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then
    echo "bench-model: BENCH_MODEL_RUNS must be a whole number of at least 1, not '$runs'" >&2
    exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release -j 2 --product perf-run >"$work/build.log" 2>&1 || {
    echo "bench-model: the release build failed:" >&2
    tail -20 "$work/build.log" >&2
    exit 2
}
perfrun=$PWD/.build/release/perf-run

python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
with open(f'{work}/flat.xml', 'w') as f:
    f.write('<model>\n')
    for i in range(20_000):
        f.write(f'<entity name="E{i}"><attribute name="a" optional="YES" attributeType="String" indexed="YES"/></entity>\n')
    f.write('</model>\n')
with open(f'{work}/chain.xml', 'w') as f:
    f.write('<model>\n')
    for i in reversed(range(1_000)):
        parent = '' if i == 0 else f' parentEntity="E{i - 1}"'
        attribute = '<attribute name="a" optional="YES" attributeType="String"/>' if i == 0 else ''
        f.write(f'<entity name="E{i}"{parent}>{attribute}<fetchIndex name="byA{i}">'
                '<fetchIndexElement property="a" type="Binary" order="ascending"/></fetchIndex></entity>\n')
    f.write('</model>\n')
PY

echo "perf-run model import, release build, median of $runs runs (target: under 1 s of CPU time each)"
for name in flat chain; do
    walls=() cpus=()
    for ((run = 0; run < runs; run++)); do
        start=$(date +%s.%N)
        /usr/bin/time -f '%U %S' -o "$work/time" "$perfrun" model import "$work/$name.xml" >"$work/out" 2>&1 || {
            echo "bench-model: perf-run model import $name.xml failed:" >&2
            tail -3 "$work/out" >&2
            exit 2
        }
        end=$(date +%s.%N)
        read -r user system <"$work/time"
        walls+=("$(python3 -c "print($end - $start)")")
        cpus+=("$(python3 -c "print($user + $system)")")
    done
    python3 - "$name" "${walls[*]}" "${cpus[*]}" <<'PY'
import statistics, sys
name = sys.argv[1]
walls = [float(x) for x in sys.argv[2].split()]
cpus = [float(x) for x in sys.argv[3].split()]
titles = {'flat': '20,000 entities, flat', 'chain': '1,000 entities, one chain'}
cpu = statistics.median(cpus)
print(f"  {titles[name]:28s} {statistics.median(walls):6.2f} s wall  {cpu:6.2f} s CPU  target < 1 s: {'met' if cpu < 1 else 'not met'}")
PY
done
