#!/usr/bin/env bash
# Measures what the instrumentation costs on a fault-heavy workload
# (faultline-bench), four ways:
#   compiled out   FAULTLINE_NO_INSTRUMENTATION=1 build, no sinks
#   sinks off      normal build, no sinks
#   recorder on    normal build, the recorder
#   LTTng on       normal build, LTTng sink with a session recording
# The first three by instruction counts (valgrind's callgrind: repeatable on
# a busy machine); LTTng by interleaved wall-time runs, since its cost is in
# a consumer daemon as much as in the program.
set -euo pipefail
cd "$(dirname "$0")/.."

objects=${BENCH_OBJECTS:-1000}
rounds=${BENCH_ROUNDS:-5}
wall_runs=${BENCH_WALL_RUNS:-7}
wall_rounds=${BENCH_WALL_ROUNDS:-40}

swift build -c release --product faultline-bench >/dev/null
swift build -c release --product FaultlineTracepointProvider >/dev/null
FAULTLINE_NO_INSTRUMENTATION=1 swift build -c release --product faultline-bench --scratch-path .build-nosinks >/dev/null
normal=.build/release/faultline-bench

# valgrind 3.19 cannot read the DWARF 5 that swiftc writes: measure copies
# without debug information.
work=$(mktemp -d -p "${BENCH_TMPDIR:-/tmp}")
trap 'rm -rf "$work"' EXIT
cp .build/release/faultline-bench "$work/normal"
cp .build-nosinks/release/faultline-bench "$work/compiled-out"
strip --strip-debug "$work/normal" "$work/compiled-out"

# Instructions of the measured rounds alone: a run of 1 + N rounds minus a
# run of 1 round, so that start-up and building the data cancel out.
instructions() {  # binary sinks
    local total=()
    for count in 1 $((rounds + 1)); do
        valgrind --tool=callgrind --callgrind-out-file="$work/out" "$1" --objects "$objects" --rounds "$count" --sinks "$2" >/dev/null 2>&1
        total+=("$(callgrind_annotate "$work/out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')")
    done
    echo $((total[1] - total[0]))
}

echo "instruction counts of $rounds rounds (callgrind), $objects objects:"
base=$(instructions "$work/compiled-out" none)
off=$(instructions "$work/normal" none)
recorder=$(instructions "$work/normal" recorder)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f%%", (a / b - 1) * 100 }'; }
printf "  compiled out  %14s\n" "$base"
printf "  sinks off     %14s  %s\n" "$off" "$(ratio "$off" "$base")"
printf "  recorder on   %14s  %s\n" "$recorder" "$(ratio "$recorder" "$base")"

# LTTng: a session records on a blocking channel while the workload runs;
# runs with and without the session alternate, medians compared.
started=""
if ! pgrep -x lttng-sessiond >/dev/null; then
    lttng-sessiond --daemonize >/dev/null
    started=yes
fi
trace="$work/trace"
cleanup() {
    lttng destroy faultline-bench >/dev/null 2>&1 || true
    rm -rf "$work"
    if [[ -n "$started" ]]; then pkill -x lttng-sessiond || true; fi
}
trap cleanup EXIT
seconds() {  # sinks [env]
    env "${@:2}" "$normal" --objects "$objects" --rounds "$wall_rounds" --sinks "$1" | python3 -c '
import json, sys
report = json.load(sys.stdin)
if report["lttng"] != "loaded":
    sys.exit("the LTTng sink did not load: " + report["lttng"])
print(report["seconds"])'
}
without=()
with=()
for _ in $(seq "$wall_runs"); do
    without+=("$(seconds lttng)")
    lttng create faultline-bench --output="$trace/run" >/dev/null
    lttng enable-channel --userspace --blocking-timeout=inf --subbuf-size=4M --num-subbuf=8 blocking >/dev/null
    lttng enable-event --userspace --channel=blocking 'faultline:*' >/dev/null
    lttng start >/dev/null
    with+=("$(seconds lttng LTTNG_UST_ALLOW_BLOCKING=1)")
    lttng stop >/dev/null
    lttng destroy faultline-bench >/dev/null
    rm -rf "$trace/run"
done
median() { printf "%s\n" "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
idle=$(median "${without[@]}")
tracing=$(median "${with[@]}")
echo "wall time (median of $wall_runs interleaved runs), $objects objects x $wall_rounds rounds:"
printf "  LTTng sink, no session   %.4fs\n" "$idle"
printf "  LTTng session recording  %.4fs  %s\n" "$tracing" "$(ratio "$tracing" "$idle")"
