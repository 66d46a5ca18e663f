# The targets of `make bench-probes` (scripts/bench-probes.sh sources this
# file), as data: one line each, as
#   figure|what the figure is|at most (percent)|stretch, at most (percent, or -)
# docs/performance.md says why each bound is what it is.
PROBE_TARGETS=(
    "sinks-off|sinks off, instructions against compiled out|0.1|-"
    "recorder|recorder on, instructions against compiled out|6.6|-"
    "lttng|LTTng session, instructions against no session|20|15"
    "lttng-wall|LTTng session, wall time against no session (median of pairs)|20|15"
)

# Prints every target beside its figure: the figure, the bound and "met"
# or "not met" (and the stretch's, where there is one); "not measured" for
# a figure not given. Arguments: FIGURE=PERCENT for each figure measured
# (`recorder=9.1`), or FIGURE=PERCENT:LOW:HIGH for a timed one with its
# 95% confidence interval (`lttng-wall=20.4:16.8:22.9`). A timed figure is
# judged by its interval, so that the machine's noise cannot flip a
# verdict: met when the whole interval is within the bound, not met when
# the whole of it is beyond, "inconclusive" when it spans the bound. An
# argument naming no target, or not in those forms, is an error (exit 2).
probe_targets() {
    # The figures joined by spaces, whatever the caller's IFS.
    local IFS=' '
    printf '%s\n' "${PROBE_TARGETS[@]}" | awk -v figures="$*" '
        function verdict(i, bound) {
            if (!(i in low)) return figure <= bound + 0 ? "met" : "not met"
            if (high[i] <= bound + 0) return "met"
            return low[i] > bound + 0 ? "not met" : "inconclusive"
        }
        BEGIN {
            number = "[-+]?[0-9]+([.][0-9]+)?"
            n = split(figures, given, " ")
            for (i = 1; i <= n; i++) {
                if (split(given[i], pair, "=") != 2 || pair[2] !~ ("^" number "(:" number ":" number ")?$")) {
                    printf "probe_targets: %s is not FIGURE=PERCENT or FIGURE=PERCENT:LOW:HIGH\n", given[i] > "/dev/stderr"
                    failed = 1
                    exit 2
                }
                parts = split(pair[2], part, ":")
                value[pair[1]] = part[1] + 0
                if (parts == 3) { lowOf[pair[1]] = part[2] + 0; highOf[pair[1]] = part[3] + 0 }
            }
        }
        { count++; split($0, field, "|"); name[count] = field[1]; what[count] = field[2]; most[count] = field[3]; stretch[count] = field[4]; known[field[1]] = 1 }
        END {
            if (failed) exit 2
            for (f in value) if (!(f in known)) { printf "probe_targets: no target for %s\n", f > "/dev/stderr"; exit 2 }
            for (i = 1; i <= count; i++) {
                bound = sprintf("target <= %+g%%", most[i])
                if (!(name[i] in value)) {
                    printf "  %-66s %8s  %s: not measured\n", what[i], "-", bound
                    continue
                }
                figure = value[name[i]]
                if (name[i] in lowOf) { low[i] = lowOf[name[i]]; high[i] = highOf[name[i]] }
                line = sprintf("  %-66s %+7.2f%%  %s: %s", what[i], figure, bound, verdict(i, most[i]))
                if (stretch[i] != "-") line = line sprintf("; stretch <= %+g%%: %s", stretch[i], verdict(i, stretch[i]))
                if (i in low) line = line sprintf(" (95%% CI %+.1f%% .. %+.1f%%)", low[i], high[i])
                print line
            }
        }'
}
