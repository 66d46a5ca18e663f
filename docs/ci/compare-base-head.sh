#!/usr/bin/env bash
# Runs the performance scenarios on a pull request's base and head, each
# built from its own checkout and labelled with its own commit, compares
# them, and keeps both runs in the history store.
#
# Run it from the head's checkout (a clone with the base's commit in it:
# actions/checkout with fetch-depth: 0). docs/ci.md explains each step.
#
# Environment:
#   PERF_BASE           the base: a commit or ref (required; a pull request's: origin/$GITHUB_BASE_REF)
#   PERF_BUILD          the build command, run in each checkout
#                       (default: swift build -c release --product perf-run)
#   PERF_TOOL           the built tool, relative to a checkout or absolute
#                       (default: .build/release/perf-run; an app's own: .build/release/app-perf)
#   PERF_RUN_ARGS       what to run (default: --scale 0.1)
#   PERF_COMPARE_ARGS   more compare options (--accepted-insights FILE, --thresholds FILE, …)
#   PERF_OUT            where the reports go (default: perf-reports)
#   PERF_HISTORY        the history store (a SQLite path or a postgresql:// URL); unset: not recorded
#   PERF_BASE_BRANCH    the base's branch in the history (default: GITHUB_BASE_REF, else PERF_BASE without origin/)
#   PERF_HEAD_BRANCH    the head's branch in the history (default: GITHUB_HEAD_REF, GITHUB_REF_NAME, else git's current branch)
#   GITHUB_STEP_SUMMARY the job summary, where the comparison's Markdown is appended (when set)
#
# Exit status: compare's (0 no regression, 1 a regression, 2 bad input or
# nothing comparable), or 2 when a step before it failed. The reports are
# kept in PERF_OUT whatever the verdict.
set -euo pipefail

: "${PERF_BASE:?PERF_BASE names the base commit or ref (in a pull request: origin/\$GITHUB_BASE_REF)}"
build=${PERF_BUILD:-swift build -c release --product perf-run}
tool=${PERF_TOOL:-.build/release/perf-run}
read -r -a run_args <<<"${PERF_RUN_ARGS:---scale 0.1}"
read -r -a compare_args <<<"${PERF_COMPARE_ARGS:-}"
mkdir -p "${PERF_OUT:-perf-reports}"
out=$(cd "${PERF_OUT:-perf-reports}" && pwd)

fail() {
    echo "compare-base-head: $*" >&2
    exit 2
}

head_dir=$(git rev-parse --show-toplevel) || fail "not in a git checkout"
head_commit=$(git rev-parse --verify HEAD) || fail "the checkout has no commit"
base_commit=$(git rev-parse --verify "$PERF_BASE^{commit}") || fail "PERF_BASE $PERF_BASE: no such commit here (fetch-depth: 0?)"

# The base in a worktree of its own: its binary, run in its own checkout.
scratch=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/perf-base.XXXXXX")
base_dir="$scratch/base"
cleanup() {
    git -C "$head_dir" worktree remove --force "$base_dir" >/dev/null 2>&1 || true
    rm -rf "$scratch"
}
trap cleanup EXIT
git -C "$head_dir" worktree add --detach --quiet "$base_dir" "$base_commit" || fail "cannot check out the base $base_commit"

tool_in() {
    case "$tool" in
        /*) echo "$tool" ;;
        *) echo "$1/$tool" ;;
    esac
}

echo "::group::Build head ($head_commit) and base ($base_commit)"
(cd "$head_dir" && eval "$build") || fail "the head's build failed: $build"
(cd "$base_dir" && eval "$build") || fail "the base's build failed: $build"
echo "::endgroup::"

# Each side runs in its own checkout and says which commit it measured.
run_side() { # side directory commit
    local status=0
    (cd "$2" && "$(tool_in "$2")" run "${run_args[@]}" --commit "$3" --json "$out/$1.json" --quiet) || status=$?
    # 1 is a scenario that failed: the report says which, and compare judges it.
    if ((status != 0 && status != 1)); then fail "the $1's run exited $status"; fi
}
run_side base "$base_dir" "$base_commit"
run_side head "$head_dir" "$head_commit"

# One comparison: Markdown for the job summary, text for the log, and its exit status for the job.
verdict=0
"$(tool_in "$head_dir")" compare "$out/base.json" "$out/head.json" --markdown "$out/comparison.md" "${compare_args[@]}" || verdict=$?
if [[ -n "${GITHUB_STEP_SUMMARY:-}" && -f "$out/comparison.md" ]]; then
    cat "$out/comparison.md" >>"$GITHUB_STEP_SUMMARY"
fi

if [[ -n "${PERF_HISTORY:-}" ]]; then
    base_branch=${PERF_BASE_BRANCH:-${GITHUB_BASE_REF:-${PERF_BASE#origin/}}}
    head_branch=${PERF_HEAD_BRANCH:-${GITHUB_HEAD_REF:-${GITHUB_REF_NAME:-$(git -C "$head_dir" rev-parse --abbrev-ref HEAD)}}}
    "$(tool_in "$head_dir")" history add "$out/base.json" --history "$PERF_HISTORY" --branch "$base_branch" || fail "the base's run was not kept"
    "$(tool_in "$head_dir")" history add "$out/head.json" --history "$PERF_HISTORY" --branch "$head_branch" || fail "the head's run was not kept"
fi

exit "$verdict"
