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
# (`recorder=9.1`); an argument naming no target is an error (exit 2).
probe_targets() {
    printf '%s\n' "${PROBE_TARGETS[@]}" | awk -v figures="$*" '
        BEGIN {
            n = split(figures, given, " ")
            for (i = 1; i <= n; i++) {
                if (split(given[i], pair, "=") != 2 || pair[2] !~ /^[-+]?[0-9]+(\.[0-9]+)?$/) {
                    printf "probe_targets: %s is not FIGURE=PERCENT\n", given[i] > "/dev/stderr"
                    failed = 1
                    exit 2
                }
                value[pair[1]] = pair[2] + 0
            }
        }
        { count++; split($0, field, "|"); name[count] = field[1]; what[count] = field[2]; most[count] = field[3]; stretch[count] = field[4]; known[field[1]] = 1 }
        END {
            if (failed) exit 2
            for (figure in value) if (!(figure in known)) { printf "probe_targets: no target for %s\n", figure > "/dev/stderr"; exit 2 }
            for (i = 1; i <= count; i++) {
                bound = sprintf("target <= %+g%%", most[i])
                if (!(name[i] in value)) {
                    printf "  %-66s %8s  %s: not measured\n", what[i], "-", bound
                    continue
                }
                figure = value[name[i]]
                line = sprintf("  %-66s %+7.2f%%  %s: %s", what[i], figure, bound, figure <= most[i] + 0 ? "met" : "not met")
                if (stretch[i] != "-") line = line sprintf("; stretch <= %+g%%: %s", stretch[i], figure <= stretch[i] + 0 ? "met" : "not met")
                print line
            }
        }'
}
