#define _GNU_SOURCE
#include "faultline_probe_clock.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

const faultline_clock_params *faultline_clock_current;

enum { undecided = 0, calibrating = 1, counter = 2, kernel = 3 };

/// Guarded by `deciding`, but read without it by faultline_clock_source().
static int state;
static pthread_mutex_t deciding = PTHREAD_MUTEX_INITIALIZER;
/// The first paired reading: every measurement of the scale spans the time
/// since it, so the scale grows more exact the longer the program runs.
static uint64_t first_tick, first_ns;
/// CLOCK_MONOTONIC_RAW just after the first paired reading, for tests: the
/// kernel's slewing of CLOCK_MONOTONIC since then (NTP) is what the
/// measured scale averages.
static uint64_t first_raw_ns;
/// The first measurement after 1 ms; each next one after 5 times the time
/// since the first reading, at most a second later.
static const uint64_t first_interval_ns = 1000000;
static const uint64_t longest_interval_ns = 1000000000;
/// The parameters published in turn (measure_scale), under `deciding`.
enum { slot_count = 64 };
static faultline_clock_params slots[slot_count];
static unsigned published;

/// A fork() while another thread holds `deciding` (measuring the scale,
/// for microseconds once a second) would leave the child a lock no thread
/// of its own will give back, and its next measurement would wait forever:
/// the forking thread takes the lock first, and both sides give it back.
static void fork_prepare(void) { pthread_mutex_lock(&deciding); }
static void fork_done(void) { pthread_mutex_unlock(&deciding); }

__attribute__((constructor)) static void register_fork_handlers(void) {
    pthread_atfork(fork_prepare, fork_done, fork_done);
}

void faultline_clock_while_deciding(void (*body)(void *), void *context) {
    pthread_mutex_lock(&deciding);
    body(context);
    pthread_mutex_unlock(&deciding);
}

uint64_t faultline_clock_kernel(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

#if defined(__x86_64__)
/// Whether the kernel keeps time with an invariant TSC: then the counter
/// runs at one rate on every CPU, in every power state.
static int counter_usable(void) {
    const char *choice = getenv("FAULTLINE_CLOCK");
    if (choice && strcmp(choice, "kernel") == 0) return 0;
    unsigned a, b, c, d;
    if (!__get_cpuid(0x80000007, &a, &b, &c, &d) || !(d & (1u << 8))) return 0;
    FILE *file = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "re");
    if (!file) return 0;
    char source[32] = {0};
    int read = fgets(source, sizeof source, file) != NULL;
    fclose(file);
    return read && strcmp(source, "tsc\n") == 0;
}

/// The widest pairing a measurement uses: the counter's ticks from before
/// the kernel's reading to after it. An unhindered pairing takes well under
/// a microsecond; one this wide (4 to 20 µs at 1 to 5 GHz) had its thread
/// preempted, and its kernel reading may belong anywhere in that time. A
/// measurement from it would steer the clock toward the wrong time for up
/// to a second (on a loaded 2-core VM, readings strayed 133 µs).
static const uint64_t widest_pair_ticks = 20000;
/// Attempts at a pairing: the closest of each round of 5, and another
/// round while the closest is still too wide.
enum { pair_attempts = 5, pair_rounds = 8 };
/// For tests: attempts still to be made to look preempted.
static int preempted_attempts;
/// After a measurement refused for its pairings, the next is tried this
/// much later (not at every reading, each of which would take the lock
/// and make up to 40 pairings on a machine busy enough to preempt them).
static const uint64_t retry_interval_ns = 10000000;
/// While calibrating: no measurement is tried before this kernel time
/// (a refused first measurement puts it off).
static uint64_t retry_at_ns;

/// A counter reading and a kernel reading taken at the same moment: the
/// counter read on both sides of the kernel's, the closest pair of a few.
/// Returns the pair's width in ticks (above widest_pair_ticks when every
/// attempt was preempted).
static uint64_t paired_reading(uint64_t *tick, uint64_t *ns) {
    uint64_t best = UINT64_MAX;
    for (int round = 0; round < pair_rounds && best > widest_pair_ticks; round++) {
        for (int attempt = 0; attempt < pair_attempts; attempt++) {
            uint64_t before = __builtin_ia32_rdtsc();
            uint64_t now = faultline_clock_kernel();
            uint64_t after = __builtin_ia32_rdtsc();
            if (preempted_attempts > 0) {
                preempted_attempts--;
                after += widest_pair_ticks + 1;
            }
            if (after - before < best) {
                best = after - before;
                *tick = before + (after - before) / 2;
                *ns = now;
            }
        }
    }
    return best;
}

static uint64_t fixed_point_ratio(uint64_t nanoseconds, uint64_t ticks) {
    return (uint64_t)(((unsigned __int128)nanoseconds << 32) / ticks);
}

/// How far the current line may be from the kernel's time and still be
/// steered back: a line on a rate measured over a second or more strays
/// microseconds by its next measurement (NTP's slewing of the kernel's
/// clock, 500 µs a second at most, included).
static const uint64_t steerable_offset_ns = 1000000;

/// Where the readings go on from at counter value `tick`, the kernel's
/// time there being `ns`: the current line's reading, so that the clock
/// does not step, while it is within `steerable_offset_ns` of the kernel's.
/// A line farther off was read past its `recalibrate_at`, after a time
/// without readings (its rate's error grows with that time: a rate
/// measured 1.4% off over the first millisecond puts readings 4 s ahead
/// after 290 s, as a test process once saw), and no reading past `recalibrate_at` was handed out (the
/// first one measures): the readings go on from the kernel's time, or from
/// the last reading the line could have handed out if that is later, so
/// that they never run back.
static uint64_t where_readings_continue(uint64_t tick, uint64_t ns) {
    const faultline_clock_params *current = faultline_clock_current;
    if (!current) return ns;
    uint64_t line = faultline_clock_reading(current, tick);
    uint64_t offset = line > ns ? line - ns : ns - line;
    if (offset <= steerable_offset_ns) return line;
    uint64_t handed = faultline_clock_reading(current, tick < current->recalibrate_at ? tick : current->recalibrate_at);
    return handed > ns ? handed : ns;
}

/// Measures the scale from the first reading until now and publishes
/// parameters that continue from the current ones (no step) and meet the
/// kernel's clock at the next measurement. Under `deciding`.
static void measure_scale(void) {
    uint64_t tick = 0, ns = 0;
    // Preempted throughout: the current parameters stay (republished to
    // be measured again 10 ms on; never changed in place), or while
    // calibrating the kernel's readings do, for 10 ms. A line read long
    // past its measurement, and so far off, goes on from the kernel's
    // time at its rate: the pairing is too wide to measure a rate from,
    // but far closer than the line.
    if (paired_reading(&tick, &ns) > widest_pair_ticks) {
        const faultline_clock_params *current = faultline_clock_current;
        if (!current || current->scale == 0) {
            __atomic_store_n(&retry_at_ns, faultline_clock_kernel() + retry_interval_ns, __ATOMIC_RELAXED);
            return;
        }
        uint64_t retry_ticks = (uint64_t)(((unsigned __int128)retry_interval_ns << 32) / current->scale);
        uint64_t from = where_readings_continue(tick, ns);
        faultline_clock_params *next = &slots[published++ % slot_count];
        *next = *current;
        if (from != faultline_clock_reading(current, tick)) {
            next->tick0 = tick;
            next->ns0 = from;
        }
        next->recalibrate_at = __builtin_ia32_rdtsc() + retry_ticks;
        __atomic_store_n(&faultline_clock_current, next, __ATOMIC_RELEASE);
        return;
    }
    if (tick <= first_tick || ns <= first_ns) return;
    uint64_t elapsed_ns = ns - first_ns;
    uint64_t scale = fixed_point_ratio(elapsed_ns, tick - first_tick);
    if (scale == 0) return;
    uint64_t interval_ns = elapsed_ns * 5 < longest_interval_ns ? elapsed_ns * 5 : longest_interval_ns;
    uint64_t interval_ticks = (uint64_t)(((unsigned __int128)interval_ns << 32) / scale);
    if (interval_ticks == 0) return;
    uint64_t from = where_readings_continue(tick, ns);
    // Steered: from `from` now to the kernel's time one interval on. A
    // lead of more than the interval (the kernel's clock jumped back
    // against the counter) runs at half the rate until it is gone.
    uint64_t target = ns + interval_ns;
    uint64_t steered = target > from ? fixed_point_ratio(target - from, interval_ticks) : scale / 2;
    // Parameters are published, never changed in place: a reader may hold
    // the pointer it loaded. The slots are used in turn, at most one a
    // second (one per 10 ms while measurements are refused), so a slot is
    // written again a minute (at least 640 ms) after it was published,
    // long after any reader let go of it (a reading holds it for
    // nanoseconds).
    faultline_clock_params *next = &slots[published++ % slot_count];
    *next = (faultline_clock_params){ .tick0 = tick, .ns0 = from, .scale = steered, .recalibrate_at = tick + interval_ticks };
    __atomic_store_n(&faultline_clock_current, next, __ATOMIC_RELEASE);
    __atomic_store_n(&state, counter, __ATOMIC_RELEASE);
}
#endif

uint64_t faultline_clock_slow(void) {
#if defined(__x86_64__)
    int seen = __atomic_load_n(&state, __ATOMIC_ACQUIRE);
    if (seen == kernel) return faultline_clock_kernel();
    uint64_t now = faultline_clock_kernel();
    if (seen == calibrating && (now - first_ns < first_interval_ns || now < __atomic_load_n(&retry_at_ns, __ATOMIC_RELAXED))) {
        return now;
    }
    pthread_mutex_lock(&deciding);
    seen = __atomic_load_n(&state, __ATOMIC_ACQUIRE);
    if (seen == undecided) {
        if (counter_usable()) {
            paired_reading(&first_tick, &first_ns);
            struct timespec raw;
            clock_gettime(CLOCK_MONOTONIC_RAW, &raw);
            first_raw_ns = (uint64_t)raw.tv_sec * 1000000000u + (uint64_t)raw.tv_nsec;
            __atomic_store_n(&state, calibrating, __ATOMIC_RELEASE);
        } else {
            __atomic_store_n(&state, kernel, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&deciding);
        return faultline_clock_kernel();
    }
    if (seen == calibrating || (seen == counter && __builtin_ia32_rdtsc() >= faultline_clock_current->recalibrate_at)) {
        measure_scale();
    }
    const faultline_clock_params *params = faultline_clock_current;
    pthread_mutex_unlock(&deciding);
    if (seen == calibrating || !params) return now;
    // Not through faultline_clock_now(): if no new parameters could be
    // made, this reading must not come back here.
    return faultline_clock_reading(params, __builtin_ia32_rdtsc());
#else
    return faultline_clock_kernel();
#endif
}

int faultline_clock_measure_for_testing(int preempted) {
#if defined(__x86_64__)
    pthread_mutex_lock(&deciding);
    int made = 0;
    if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == counter) {
        const faultline_clock_params *before = faultline_clock_current;
        uint64_t scale = before->scale, tick0 = before->tick0;
        preempted_attempts = preempted;
        measure_scale();
        preempted_attempts = 0;
        // A refused measurement republishes the same line, to be measured
        // again later, or one that goes on from the kernel's time when the
        // line was more than 1 ms off: only a new line (a new rate or a
        // new starting point) counts as made.
        const faultline_clock_params *after = faultline_clock_current;
        made = after->scale != scale || after->tick0 != tick0;
    }
    pthread_mutex_unlock(&deciding);
    return made;
#else
    (void)preempted;
    return 0;
#endif
}

int faultline_clock_misrate_for_testing(double factor) {
#if defined(__x86_64__)
    pthread_mutex_lock(&deciding);
    int counting = __atomic_load_n(&state, __ATOMIC_ACQUIRE) == counter;
    if (counting) {
        const faultline_clock_params *current = faultline_clock_current;
        uint64_t tick = __builtin_ia32_rdtsc();
        faultline_clock_params *next = &slots[published++ % slot_count];
        *next = *current;
        next->tick0 = tick;
        next->ns0 = faultline_clock_reading(current, tick);
        next->scale = (uint64_t)((double)current->scale * factor);
        next->recalibrate_at = tick;
        __atomic_store_n(&faultline_clock_current, next, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&deciding);
    return counting;
#else
    (void)factor;
    return 0;
#endif
}

int faultline_clock_first_reading_for_testing(uint64_t *monotonic_ns, uint64_t *raw_ns) {
#if defined(__x86_64__)
    pthread_mutex_lock(&deciding);
    int counting = __atomic_load_n(&state, __ATOMIC_ACQUIRE) == counter;
    if (counting) {
        *monotonic_ns = first_ns;
        *raw_ns = first_raw_ns;
    }
    pthread_mutex_unlock(&deciding);
    return counting;
#else
    (void)monotonic_ns;
    (void)raw_ns;
    return 0;
#endif
}

int faultline_clock_source(void) {
    if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == undecided) faultline_clock_slow();
#if defined(__x86_64__)
    int seen = __atomic_load_n(&state, __ATOMIC_ACQUIRE);
    if (seen != calibrating) return seen;
    // The counter is chosen; its first measurement is due a millisecond
    // after the first reading. Past that, take a reading (which measures):
    // a measurement that could not be made leaves the kernel's readings.
    // (first_ns was written before the state said calibrating.)
    if (faultline_clock_kernel() - first_ns < first_interval_ns) return counter;
    faultline_clock_slow();
    return __atomic_load_n(&state, __ATOMIC_ACQUIRE) == counter ? counter : kernel;
#else
    return kernel;
#endif
}
