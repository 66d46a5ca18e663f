#!/usr/bin/env bash
# Measures what the instrumentation costs on a fault-heavy workload
# (faultline-bench), these ways:
#   compiled out   FAULTLINE_NO_INSTRUMENTATION=1 build, no sinks
#   sinks off      normal build, no sinks
#   recorder on    normal build, the recorder
#   LTTng on       normal build, LTTng sink with a session recording
#   the server bridges, each alone: FaultlineLogging on a logger at info
#                  (records filtered out) and at debug (SQL debug level 1),
#                  FaultlineMetrics, FaultlineTracing, each with a back end
#                  that drops what it is given (FaultlineBench/BridgeBackends)
# All but the LTTng session by instruction counts (valgrind's callgrind:
# repeatable on a busy machine), with the calls to the allocator counted in
# the same runs. LTTng twice: by instruction counts of the program itself
# (repeatable, but blind to the consumer daemon and to how fast each
# instruction runs) and by wall time, in pairs of runs with and without a
# session, since that is the cost a user sees.
#
# Environment: BENCH_OBJECTS (1000), BENCH_ROUNDS (5, callgrind),
# BENCH_WALL_PAIRS (41; 0 skips the timed runs), BENCH_WALL_ROUNDS (40),
# BENCH_EVENTS (the events the session enables, 'faultline:*';
# 'faultline:sql' measures one kind).
#
# Last, each target (scripts/bench-probes-targets.sh holds them as data)
# beside its figure, met or not met; the wall time, a timed figure, by its
# 95% interval (met, not met, or inconclusive when the interval spans the
# bound); "not measured" for the wall time when BENCH_WALL_PAIRS is 0.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-probes-targets.sh

objects=${BENCH_OBJECTS:-1000}
rounds=${BENCH_ROUNDS:-5}
wall_pairs=${BENCH_WALL_PAIRS:-41}
wall_rounds=${BENCH_WALL_ROUNDS:-40}
events=${BENCH_EVENTS:-faultline:*}

echo "building (release, and release with instrumentation compiled out)..."
swift build -c release --product faultline-bench >/dev/null
swift build -c release --product FaultlineTracepointProvider >/dev/null
FAULTLINE_NO_INSTRUMENTATION=1 swift build -c release --product faultline-bench --scratch-path .build-nosinks >/dev/null
normal=.build/release/faultline-bench

# LTTng sessions need a session daemon: start one if none answers this
# user's lttng, and stop only the one started here, by the PID its PID file
# names (never by name: another daemon on the machine is not ours).
started=""
if ! lttng list >/dev/null 2>&1; then
    if [[ $(id -u) == 0 ]]; then pidfile=/var/run/lttng/lttng-sessiond.pid; else pidfile="${LTTNG_HOME:-$HOME}/.lttng/lttng-sessiond.pid"; fi
    timeout 10 lttng-sessiond --daemonize >/dev/null
    started=$(cat "$pidfile" 2>/dev/null || true)
    if [[ -z "$started" ]] || [[ "$(cat "/proc/$started/comm" 2>/dev/null)" != lttng-sessiond ]]; then
        echo "lttng-sessiond started, but $pidfile names no lttng-sessiond" >&2
        exit 2
    fi
fi

# valgrind 3.19 cannot read the DWARF 5 that swiftc writes: measure copies
# without debug information (the provider library beside them, where the
# LTTng sink looks for it).
work=$(mktemp -d -p "${BENCH_TMPDIR:-/tmp}")
cleanup() {
    lttng destroy faultline-bench >/dev/null 2>&1 || true
    rm -rf "$work"
    # The daemon started here, if it is still that program.
    if [[ -n "$started" ]] && [[ "$(cat "/proc/$started/comm" 2>/dev/null)" == lttng-sessiond ]]; then kill "$started" || true; fi
}
trap cleanup EXIT
cp .build/release/faultline-bench "$work/normal"
cp .build-nosinks/release/faultline-bench "$work/compiled-out"
cp .build/release/libFaultlineTracepointProvider.so "$work/"
strip --strip-debug "$work/normal" "$work/compiled-out"

# A session recording the faultline events asked for (all by default) on a
# blocking channel (nothing discarded), into $work/trace.
session_start() {
    lttng create faultline-bench --output="$work/trace" >/dev/null
    lttng enable-channel --userspace --blocking-timeout=inf --subbuf-size=4M --num-subbuf=8 blocking >/dev/null
    lttng enable-event --userspace --channel=blocking "$events" >/dev/null
    lttng start >/dev/null
}
session_stop() {
    lttng stop >/dev/null
    lttng destroy faultline-bench >/dev/null
    rm -rf "$work/trace"
}

# Calls to the allocator (malloc, calloc, realloc, posix_memalign,
# aligned_alloc, memalign) in a callgrind profile: the sum of the calls
# recorded to each, from the call lines under its `cfn=` entries.
allocations() {  # callgrind.out
    python3 - "$1" <<'PY'
import re, sys
names, total, callee = {}, 0, None
allocators = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign"}
for line in open(sys.argv[1], errors="replace"):
    if line.startswith("fn="):
        m = re.match(r"fn=\((\d+)\) (.*)", line.rstrip("\n"))
        if m: names[m.group(1)] = m.group(2)
    elif line.startswith("cfn="):
        m = re.match(r"cfn=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
        if m:
            if m.group(2) is not None: names[m.group(1)] = m.group(2)
            callee = names.get(m.group(1), "")
        else:
            callee = line[4:].strip()
    elif line.startswith("calls=") and callee is not None:
        if callee.split("'")[0] in allocators: total += int(line[6:].split()[0])
        callee = None
print(total)
PY
}

# Instructions of the measured rounds alone: a run of 1 + N rounds minus a
# run of 1 round, so that start-up and building the data cancel out, and
# the allocator calls of those rounds (counted the same way). Prints both.
# Swift's hashing is made deterministic so that dictionary layouts, and so
# the counts, repeat from run to run.
instructions() {  # binary sinks [session]
    local total=() allocs=()
    for count in 1 $((rounds + 1)); do
        [[ "${3:-}" == session ]] && session_start
        SWIFT_DETERMINISTIC_HASHING=1 LTTNG_UST_ALLOW_BLOCKING=1 valgrind --tool=callgrind \
            --callgrind-out-file="$work/out" "$1" --objects "$objects" --rounds "$count" --sinks "$2" >"$work/json" 2>/dev/null
        [[ "${3:-}" == session ]] && session_stop
        if [[ "$2" == lttng ]] && ! grep -q '"lttng":"loaded"' "$work/json"; then
            echo "the LTTng sink did not load: $(cat "$work/json")" >&2
            exit 1
        fi
        total+=("$(callgrind_annotate "$work/out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')")
        allocs+=("$(allocations "$work/out")")
        if ! [[ "${total[-1]}" =~ ^[0-9]+$ && "${total[-1]}" -gt 0 ]]; then
            echo "bench-probes: callgrind gave no instruction count for $(basename "$1") --sinks $2 ${3:-} --rounds $count" >&2
            exit 2
        fi
    done
    echo $((total[1] - total[0])) $((allocs[1] - allocs[0]))
}
# Reads `instructions`' two counts into the two variables named, in the
# script's own shell, so that a failure stops the script (a process
# substitution's exit status is not checked).
measure() {  # count-variable allocs-variable instructions-arguments...
    local counts
    counts=$(instructions "${@:3}")
    read -r "$1" "$2" <<<"$counts"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f%%", (a / b - 1) * 100 }'; }
# The same as a number, for judging a target (probe_targets).
percent() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", (a / b - 1) * 100 }'; }

# Per fault fired: each round fires 3 faults per object (a row-cache hit,
# another after the refresh, a miss after the reset) and one relationship
# fault.
faults=$(( (3 * objects + 1) * rounds ))
per_fault() { awk -v a="$1" -v b="$2" -v n="$faults" 'BEGIN { printf "%+.0f", (a - b) / n }'; }
per_round() { awk -v a="$1" -v r="$rounds" 'BEGIN { printf "%.0f", a / r }'; }

echo "instruction counts of $rounds rounds (callgrind), $objects objects ($faults faults), allocator calls:"
measure base base_allocs "$work/compiled-out" none
printf "  compiled out            %14s          %9s allocs\n" "$base" "$base_allocs"
measure off off_allocs "$work/normal" none
printf "  sinks off               %14s  %6s  %9s allocs\n" "$off" "$(ratio "$off" "$base")" "$off_allocs"
measure recorder recorder_allocs "$work/normal" recorder
printf "  recorder on             %14s  %6s  %9s allocs\n" "$recorder" "$(ratio "$recorder" "$base")" "$recorder_allocs"
measure idle idle_allocs "$work/normal" lttng
printf "  LTTng sink, no session  %14s  %6s  %9s allocs\n" "$idle" "$(ratio "$idle" "$base")" "$idle_allocs"
measure traced traced_allocs "$work/normal" lttng session
printf "  LTTng session recording %14s  %s against no session\n" "$traced" "$(ratio "$traced" "$idle")"

# The figures the targets judge, as FIGURE=PERCENT (probe_targets).
figures=("sinks-off=$(percent "$off" "$base")" "recorder=$(percent "$recorder" "$base")" "lttng=$(percent "$traced" "$idle")")

# The server bridges, each alone, against the same reference in the same
# run: instructions per round, the change against compiled out and sinks
# off, instructions and allocator calls per fault fired beyond sinks off.
echo "server bridges ($rounds rounds; per round, vs compiled out, vs sinks off, per fault beyond sinks off):"
printf "  %-24s %12s %12s  %7s  %7s  %9s  %9s\n" "" "instructions" "per round" "vs out" "vs off" "instr/flt" "allocs/flt"
printf "  %-24s %12s %12s  %7s  %7s\n" "sinks off" "$off" "$(per_round "$off")" "$(ratio "$off" "$base")" "+0.0%"
for variant in logging-info logging metrics tracing; do
    case $variant in
        logging-info) label="logging, logger at info" ;;
        logging) label="logging, logger at debug" ;;
        *) label=$variant ;;
    esac
    measure count count_allocs "$work/normal" "$variant"
    alloc_per_fault=$(awk -v a="$count_allocs" -v b="$off_allocs" -v n="$faults" 'BEGIN { printf "%+.2f", (a - b) / n }')
    printf "  %-24s %12s %12s  %7s  %7s  %9s  %9s\n" "$label" "$count" "$(per_round "$count")" "$(ratio "$count" "$base")" \
        "$(ratio "$count" "$off")" "$(per_fault "$count" "$off")" "$alloc_per_fault"
done

# Last, the targets, each beside its figure (the wall time's when measured).
print_targets() {
    echo "targets (scripts/bench-probes-targets.sh), each beside its figure:"
    probe_targets "${figures[@]}"
}
if ((wall_pairs == 0)); then
    print_targets
    exit 0
fi

# Wall time: pairs of runs, one without a session and one with, in
# alternating order (ABBA), so that a slow spell of the machine lands on
# both halves of a pair. The figure is the median of the pairs' ratios,
# with a 95% confidence interval (bootstrap, seeded) and the quartiles.
seconds() {  # [env]
    env "$@" "$normal" --objects "$objects" --rounds "$wall_rounds" --sinks lttng | python3 -c '
import json, sys
report = json.load(sys.stdin)
if report["lttng"] != "loaded":
    sys.exit("the LTTng sink did not load: " + report["lttng"])
print(report["seconds"])'
}
traced_seconds() {
    session_start
    seconds LTTNG_UST_ALLOW_BLOCKING=1
    session_stop
}
echo "wall time, $wall_pairs pairs of runs of $wall_rounds rounds, the session enabling $events:"
pairs="$work/pairs"
: >"$pairs"
for pair in $(seq "$wall_pairs"); do
    if ((pair % 2)); then
        a=$(seconds); b=$(traced_seconds)
    else
        b=$(traced_seconds); a=$(seconds)
    fi
    echo "$a $b" >>"$pairs"
    if [[ -t 2 ]]; then printf "\r  %d/%d" "$pair" "$wall_pairs" >&2; fi
done
if [[ -t 2 ]]; then printf "\r" >&2; fi
python3 - "$pairs" "$work/wall-figure" <<'PY'
import random, statistics, sys
pairs = [tuple(map(float, line.split())) for line in open(sys.argv[1])]
ratios = [b / a for a, b in pairs]
median = statistics.median(ratios)
random.seed(1)
boot = sorted(statistics.median(random.choices(ratios, k=len(ratios))) for _ in range(2000))
low, _, high = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else (median,) * 3
percent = lambda r: f"{(r - 1) * 100:+.1f}%"
print(f"  LTTng sink, no session   median {statistics.median(a for a, _ in pairs):.4f}s")
print(f"  LTTng session recording  median {statistics.median(b for _, b in pairs):.4f}s")
print(f"  session / no session     median of pairs {percent(median)}"
      f"  (95% CI {percent(boot[50])} .. {percent(boot[1949])}; quartiles {percent(low)} .. {percent(high)})")
# The figure with its interval: a timed figure is judged by the interval
# (probe_targets), so that the machine's noise cannot flip its verdict.
with open(sys.argv[2], "w") as figure:
    figure.write(f"{(median - 1) * 100:.4f}:{(boot[50] - 1) * 100:.4f}:{(boot[1949] - 1) * 100:.4f}\n")
PY
figures+=("lttng-wall=$(cat "$work/wall-figure")")
print_targets
