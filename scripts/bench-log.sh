#!/usr/bin/env bash
# Measures how fast `perf-run log` reads large SQL debug logs, each against
# `wc -l` on the same file in the same run (the floor: reading the bytes and
# finding the newlines), and its peak resident memory. Four logs:
#   synthetic       Faultline's format, a fault storm over 5,000 keys (so
#                   duplicates and similar statements both occur), with one
#                   line in five of other output; no plan rows, no values
#   faultline L3    `perf-run run --sql-debug 3` of every built-in scenario at
#                   BENCH_LOG_SCALE, repeated up to the size
#   faultline L4    the same with `--sql-debug 4` (plan rows of each shape)
#   coredata L4     Core Data's layout: the corpus's real lines
#                   (Tests/ReportingTests/Fixtures/sqldebug-corpus and
#                   coredata-messy.log) with bound values, level 3 values and
#                   level 4 EXPLAIN QUERY PLAN rows, keys varying, repeated
# and the real-log forms:
#   corpus-NN       each real log of the corpus
#                   (Tests/ReportingTests/Fixtures/sqldebug-corpus/NN-*.log)
#                   as it was published, repeated to BENCH_LOG_CORPUS_MB
#   shapes          BENCH_LOG_SHAPES distinct statement shapes (each SELECT
#                   names a column of its own), Core Data's level 1 layout
#   literals        statements whose values are written inline (numbers,
#                   strings, some beyond ASCII, IN lists): every text
#                   distinct, a few shapes, BENCH_LOG_MB in all
# Each log's figure is printed beside its target (250 MB/s; 50 MB/s for
# shapes and literals, where each statement's text is new) with "met" or
# "not met". The figure judged is MB/s of the reader's CPU time (user +
# system): the reader is one thread, so on an idle machine it is the
# wall-clock figure, and on a shared one it is what the reader costs
# (the wall-clock figure is printed beside it); memory is flat when the whole log's peak resident size is at
# most 10% (and 4 MB) above the peak for its first copy (~15 MB; for shapes
# and literals, the log's first ~15 MB).
#   BENCH_LOG_MB      size of each log in MB (default 1024)
#   BENCH_LOG_CORPUS_MB  size of each corpus log in MB (default 100)
#   BENCH_LOG_SHAPES  distinct shapes of the shapes log (default 10000000)
#   BENCH_LOG_RUNS    timed runs of perf-run log per log (default 3): the
#                     figure is their median, printed with their range (one
#                     run moved by 15% from one invocation to the next)
#   BENCH_LOG_SCALE   data set scale of the generating runs (default 0.1)
#   BENCH_LOG_ONLY    measure only the logs whose name contains this word
#                     (synthetic, faultline-l3, faultline-l4, coredata-l4,
#                     corpus, corpus-09, shapes, literals)
#   BENCH_TMPDIR      where the logs are written (default /tmp); one log at
#                     a time is kept
set -euo pipefail
cd "$(dirname "$0")/.."

megabytes=${BENCH_LOG_MB:-1024}
scale=${BENCH_LOG_SCALE:-0.1}
only=${BENCH_LOG_ONLY:-}
runs=${BENCH_LOG_RUNS:-3}
corpus_megabytes=${BENCH_LOG_CORPUS_MB:-100}
shapes=${BENCH_LOG_SHAPES:-10000000}
if ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then
    echo "bench-log: BENCH_LOG_RUNS must be a whole number of at least 1, not '$runs'" >&2
    exit 2
fi
for setting in BENCH_LOG_MB=$megabytes BENCH_LOG_CORPUS_MB=$corpus_megabytes BENCH_LOG_SHAPES=$shapes; do
    if ! [[ ${setting#*=} =~ ^[1-9][0-9]*$ ]]; then
        echo "bench-log: ${setting%%=*} must be a whole number of at least 1, not '${setting#*=}'" >&2
        exit 2
    fi
done
corpus=Tests/ReportingTests/Fixtures/sqldebug-corpus
swift build -c release -j 2 --product perf-run >/dev/null
perfrun=$PWD/.build/release/perf-run
work=$(mktemp -d -p "${BENCH_TMPDIR:-/tmp}")
trap 'rm -rf "$work"' EXIT

# The first copy of a log, written to $1 (a name from the list above).
generate_base() {
    local name=$1 out=$2
    case $name in
    corpus-*)
        # The published log as it is (a last line without a newline
        # ended), repeated to ~15 MB.
        python3 - "$out" "$corpus/${name#corpus-}"-*.log <<'PY'
import sys
log = open(sys.argv[2], 'rb').read()
if not log.endswith(b'\n'):
    log += b'\n'
with open(sys.argv[1], 'wb') as f:
    f.write(log * (15_000_000 // len(log) + 1))
PY
        ;;
    synthetic)
        python3 - "$out" <<'PY'
import sys
block = []
for i in range(5000):
    block.append('faultline: sql: SELECT t0.pk, t0."name" FROM "Network" t0 WHERE t0.pk = ?\n')
    block.append(f'faultline: details: bind[0] = {i}\n')
    block.append('faultline: annotation: sql execution time: 0.000012s, rows: 1, changed: 0, purpose: fault\n')
    block.append(f'faultline: annotation: fault fulfilled from database for Network/p{i} in 0.000020s\n')
    block.append(f'app: request {i} handled, rendering the next view\n')
block = ''.join(block).encode()
with open(sys.argv[1], 'wb') as f:
    while f.tell() < 15_000_000:
        f.write(block)
PY
        ;;
    faultline-l3 | faultline-l4)
        local level=${name#faultline-l} status=0
        "$perfrun" run --scale "$scale" --iterations 1 --warmup 0 --sql-debug "$level" --sql-log "$out" \
            --json "$work/run.json" --html "$work/run.html" >"$work/run.out" 2>&1 || status=$?
        # 1: a scenario failed its check; the log is whole all the same.
        if [ "$status" -gt 1 ] || [ ! -s "$out" ]; then
            echo "bench-log: perf-run run --sql-debug $level failed (exit $status):" >&2
            tail -5 "$work/run.out" >&2
            exit 2
        fi
        ;;
    coredata-l4)
        python3 - "$out" <<'PY'
import sys
# Real lines of Core Data's SQLDebug output, from the corpus (file named),
# keys and bound values varied; level 4's EXPLAIN QUERY PLAN detail and its
# rows (as CoreDataLogLevelsTests has them, the rows in the shell's two
# forms), level 3's fetched values.
uri = 'x-coredata://0783522F-1851-4BC7-AE0D-AB4C83489E8B'
item = 'SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTIMESTAMP FROM ZITEM t0'                                  # 01
tags = 'SELECT 0, t0.Z_PK FROM Z_1TAGS t1 JOIN ZTAG t0 ON t0.Z_PK = t1.Z_2TAGS WHERE t1.Z_1ITEMS = ?'  # 01
person = 'SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZPERSON t0 WHERE  t0.ZAGE >  ? ORDER BY t0.ZNAME'  # messy
region = ('SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZMARKEDFORDELETIONDATE, t0.ZNUMBEROFMOODS, t0.ZNUMERICISO3166CODE, '
          't0.ZUNIQUENESSDUMMY, t0.ZUPDATEDAT, t0.ZNUMBEROFCOUNTRIES, t0.ZCONTINENT FROM ZGEOGRAPHICREGION t0 WHERE t0.Z_PK = ?')  # 28
count = ('SELECT COUNT(DISTINCT t0.Z_PK) FROM ZWORD t0 JOIN ZWORDCATEGORY t1 ON t0.ZWORDCATEGORY = t1.Z_PK '
         'WHERE  t1.ZFIRSTLETTER = ?')  # 09
block = []
def line(text): block.append(text + '\n')
for i in range(1, 2001):
    line(f'CoreData: sql: {item}')
    line('CoreData: annotation: sql connection fetch time: 0.0002s')
    line('CoreData: annotation: total fetch execution time: 0.0004s for 190 rows.')
    line(f'CoreData: details: SQLite: EXPLAIN QUERY PLAN {item}')
    line('0 0 0 SCAN TABLE ZITEM AS t0')
    line(f'CoreData: sql: {tags}')
    line(f'CoreData: details: SQLite bind[0] = {i}')
    line('CoreData: annotation: sql connection fetch time: 0.0001s')
    line('CoreData: annotation: total fetch execution time: 0.0001s for 0 rows.')
    line(f'CoreData: details: SQLite: EXPLAIN QUERY PLAN {tags}')
    line('0 0 1 SEARCH TABLE Z_1TAGS AS t1 USING COVERING INDEX Z_1TAGS_Z_1ITEMS_INDEX (Z_1ITEMS=?)')
    line('0 1 0 SEARCH TABLE ZTAG AS t0 USING INTEGER PRIMARY KEY (rowid=?)')
    line(f'CoreData: annotation: to-many relationship fault "tags" for objectID 0xa7ab2d44ebb9106e <{uri}/Item/p{i}> '
         'fulfilled from database.  Got 0 rows')
    line(f'CoreData: sql: {person}')
    line(f'CoreData: details: SQLite bind[0] = {20 + i % 50}')
    line('CoreData: annotation: sql connection fetch time: 0.0020s')
    line(f"CoreData: annotation: fetch using NSSQLiteStatement <0x81d3400> on entity 'Person' with sql text '{person} ' "
         'returned 3 rows with values: (')                                                           # 17
    for k in range(3):
        line(f'    "<NSManagedObject: 0x748bd50> (entity: Person; id: 0x7486f80 {uri}/Person/p{i + k} ; data: <fault>)",')
    line(')')
    line('CoreData: annotation: total fetch execution time: 0.0025s for 3 rows.')
    line(f'CoreData: details: SQLite: EXPLAIN QUERY PLAN {person}')
    line('0|0|0|SCAN TABLE ZPERSON AS t0')
    line('0|0|0|USE TEMP B-TREE FOR ORDER BY')
    line(f'CoreData: sql: {region}')
    line(f'CoreData: details: SQLite bind[0] = {i}')
    line('CoreData: annotation: sql connection fetch time: 0.0005s')
    line('CoreData: annotation: total fetch execution time: 0.0008s for 1 rows.')
    line(f'CoreData: details: SQLite: EXPLAIN QUERY PLAN {region}')
    line('0 0 0 SEARCH TABLE ZGEOGRAPHICREGION AS t0 USING INTEGER PRIMARY KEY (rowid=?)')
    line(f'CoreData: annotation: fault fulfilled from database for : 0xd000000000100002 <{uri}/Country/p{i}>')
    line(f'CoreData: sql: {count}')
    line(f'CoreData: details: SQLite bind[0] = "{chr(97 + i % 26)}"')
    line('CoreData: annotation: total count request execution time: 0.0254s for count of 18988.')
    line(f'CoreData: details: SQLite: EXPLAIN QUERY PLAN {count}')
    line('0 0 1 SEARCH TABLE ZWORDCATEGORY AS t1 USING INDEX ZWORDCATEGORY_ZFIRSTLETTER_INDEX (ZFIRSTLETTER=?)')
    line('0 1 0 SEARCH TABLE ZWORD AS t0 USING INDEX ZWORD_ZWORDCATEGORY_INDEX (ZWORDCATEGORY=?)')
block = ''.join(block).encode()
with open(sys.argv[1], 'wb') as f:
    while f.tell() < 15_000_000:
        f.write(block)
PY
        ;;
    esac
}

# A log made whole (not a copy repeated), written to $2: each of its
# statement texts is new.
generate_whole() {
    local name=$1 out=$2
    case $name in
    shapes)
        python3 - "$out" "$shapes" <<'PY'
import sys
# Distinct shapes in Core Data's level 1 layout: each SELECT names a column
# of its own (identifiers stay in a shape; values do not).
count = int(sys.argv[2])
with open(sys.argv[1], 'w') as f:
    for start in range(0, count, 10000):
        f.write(''.join(
            f'CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZPERSON t0 WHERE t0.ZFIELD{i} = ? ORDER BY t0.ZNAME\n'
            'CoreData: annotation: sql connection fetch time: 0.0002s\n'
            'CoreData: annotation: total fetch execution time: 0.0004s for 3 rows.\n'
            for i in range(start, min(start + 10000, count))))
PY
        ;;
    literals)
        python3 - "$out" "$megabytes" <<'PY'
import sys
# Values written inline, as SQL logged by other layers has them: strings
# (a quote doubled, letters beyond ASCII), numbers, an IN list.
limit = int(sys.argv[2]) * 1_000_000
names = ['Maui', "O''Hara", 'Zoë', 'Lisbon']
with open(sys.argv[1], 'w') as f:
    i = 0
    while f.tell() < limit:
        block = []
        for _ in range(5000):
            i += 1
            block.append(
                f"CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZPERSON t0 WHERE t0.ZNAME = '{names[i % 4]} {i}' "
                f"AND t0.ZAGE > {i % 97} ORDER BY t0.ZNAME\n"
                'CoreData: annotation: sql connection fetch time: 0.0002s\n'
                'CoreData: annotation: total fetch execution time: 0.0004s for 1 rows.\n'
                f"CoreData: sql: UPDATE ZPERSON SET ZAGE = {i % 90}, Z_OPT = Z_OPT + 1 WHERE Z_PK = {i} AND Z_OPT = 3\n"
                'CoreData: annotation: sql execution time: 0.0001s\n'
                f"CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE t0.ZCREATED > {i}.5 AND t0.ZKIND IN (1, 2, {i % 7}) LIMIT 20\n"
                'CoreData: annotation: sql connection fetch time: 0.0001s\n'
                'CoreData: annotation: total fetch execution time: 0.0002s for 20 rows.\n')
        f.write(''.join(block))
PY
        ;;
    esac
}

# Seconds, peak resident size in KB, and CPU seconds (user and system) of
# a command, its output dropped. A log of the corpus with no statement
# (a `log show` export of CloudKit lines) is read whole and exits 2: its
# time counts all the same.
measure() {
    local start end rss user system
    start=$(date +%s.%N)
    /usr/bin/time -f '%M %U %S' -o "$work/rss" "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    read -r rss user system < <(tail -n 1 "$work/rss")
    echo "$(python3 -c "print(f'{$end - $start:.3f} $rss {$user + $system:.3f}')")"
}

declare -A titles=(
    [synthetic]="synthetic (Faultline's format, no plan rows)"
    [faultline-l3]="faultline level 3 (perf-run run --sql-debug 3, scale $scale, repeated)"
    [faultline-l4]="faultline level 4 (perf-run run --sql-debug 4, scale $scale, repeated)"
    [coredata-l4]="coredata level 4 (Core Data's layout, the corpus's lines, repeated)"
    [corpus]="(a real log as published, repeated)"
    [shapes]="shapes ($shapes distinct statement shapes, Core Data's level 1 layout)"
    [literals]="literals (values written inline: each statement text new)"
)
names=(synthetic faultline-l3 faultline-l4 coredata-l4)
for file in "$corpus"/[0-9][0-9]-*.log; do
    file=$(basename "$file" .log)
    names+=("corpus-${file%%-*}")
    titles[corpus-${file%%-*}]="corpus $file ${titles[corpus]}"
done
names+=(shapes literals)
summary=()
for name in "${names[@]}"; do
    [[ -n $only && $name != *$only* ]] && continue
    base="$work/$name.base.log"
    log="$work/$name.log"
    target=250
    case $name in
    shapes | literals)
        target=50
        echo "generating $name..." >&2
        generate_whole "$name" "$log"
        # Its first ~15 MB, cut at a line's end.
        head -c 15000000 "$log" | python3 -c 'import sys; d = sys.stdin.buffer.read(); sys.stdout.buffer.write(d[:d.rfind(b"\n") + 1])' >"$base"
        ;;
    *)
        size=$megabytes
        [[ $name == corpus-* ]] && size=$corpus_megabytes
        echo "generating $name ($size MB)..." >&2
        generate_base "$name" "$base"
        limit=$((size * 1000000))
        cp "$base" "$log"
        while [ "$(stat -c %s "$log")" -lt "$limit" ]; do cat "$base" >>"$log"; done
        ;;
    esac
    bytes=$(stat -c %s "$log")
    base_bytes=$(stat -c %s "$base")

    read -r wc_seconds _ _ < <(measure wc -l "$log")
    # The runs' times (wall clock and CPU), and the largest peak resident size among them.
    log_times=()
    log_rss=0
    for ((run = 0; run < runs; run++)); do
        read -r seconds rss cpu < <(measure "$perfrun" log "$log")
        log_times+=("$seconds,$cpu")
        if ((rss > log_rss)); then log_rss=$rss; fi
    done
    read -r _ base_rss _ < <(measure "$perfrun" log "$base")
    line=$(python3 - "$name" "${titles[$name]}" "$bytes" "$base_bytes" "$wc_seconds" "$log_rss" "$base_rss" "$target" "${log_times[@]}" <<'PY'
import statistics, sys
name, title = sys.argv[1], sys.argv[2]
size, base, wc, rss, base_rss, target = (float(a) for a in sys.argv[3:9])
times = [float(a.split(',')[0]) for a in sys.argv[9:]]
cpus = [max(float(a.split(',')[1]), 0.001) for a in sys.argv[9:]]
log, cpu = statistics.median(times), statistics.median(cpus)
mb, wall_rate, rate = size / 1e6, size / 1e6 / log, size / 1e6 / cpu
flat = rss <= base_rss * 1.10 + 4096
print(title)
print(f"  size              {mb:10.1f} MB")
print(f"  wc -l             {wc:10.2f} s  {mb / wc:8.1f} MB/s  (the floor)")
print(f"  perf-run log      {log:10.2f} s  {wall_rate:8.1f} MB/s  {log / wc:6.1f} x wc -l  (wall clock, median of {len(times)} runs: {mb / max(times):.1f} to {mb / min(times):.1f} MB/s)")
print(f"  perf-run log CPU  {cpu:10.2f} s  {rate:8.1f} MB/s  (user + system, median of {len(cpus)} runs: {mb / max(cpus):.1f} to {mb / min(cpus):.1f} MB/s)")
print(f"  peak RSS          {rss / 1024:10.1f} MB  (first copy, {base / 1e6:.1f} MB: {base_rss / 1024:.1f} MB)")
print(f"  target ≥{target:.0f} MB/s (CPU): {'met' if rate >= target else 'not met'}; memory flat: {'met' if flat else 'not met'}")
print(f"SUMMARY {name:13s} {rate:8.1f} MB/s CPU {wall_rate:8.1f} MB/s wall  {rss / 1024:6.1f} MB  target ≥{target:.0f} MB/s: {'met' if rate >= target else 'not met'}")
PY
)
    echo "$line" | grep -v '^SUMMARY'
    summary+=("$(echo "$line" | grep '^SUMMARY' | sed 's/^SUMMARY //')")
    rm -f "$log" "$base"
done
echo
echo "summary (log, perf-run log MB/s of CPU time and of wall-clock time, peak RSS, target on CPU time)"
printf '  %s\n' "${summary[@]}"
