#ifndef FAULTLINE_PROBE_CLOCK_H
#define FAULTLINE_PROBE_CLOCK_H

/*
 * The clock of every event: nanoseconds on CLOCK_MONOTONIC's scale.
 *
 * Where the kernel itself keeps time with the CPU's time-stamp counter
 * (x86-64, an invariant TSC, clock source "tsc"), a reading is one RDTSC
 * scaled to nanoseconds, a third of clock_gettime's cost: clock_gettime
 * orders its read with a fence, which costs more than the read. The scale
 * is measured against CLOCK_MONOTONIC over the first millisecond of use
 * (readings in that millisecond come from clock_gettime), then again at
 * 5, 25, 125… milliseconds and every second after that, each time over
 * the whole time since the first reading and steered to meet the kernel's
 * clock by the next measurement: readings stay within microseconds of
 * CLOCK_MONOTONIC, however long the program runs, while the kernel runs it
 * at a steady rate. While NTP slews CLOCK_MONOTONIC away from that rate,
 * readings can differ by what it slewed in the last two seconds (the
 * scale is the average rate since the first reading). The first reading
 * after a time without any (past the next measurement's due time) goes
 * on from the kernel's time when the line is more than a millisecond off:
 * no reading in between was handed out, so nothing runs back. Anywhere else,
 * or with FAULTLINE_CLOCK=kernel in the environment, every reading is
 * clock_gettime(CLOCK_MONOTONIC).
 *
 * Two readings on different CPUs can be a few nanoseconds out of order:
 * take durations with faultline_clock_since(), which never wraps.
 */

#include <stdint.h>

/// How counter readings become nanoseconds: `ns0` at `tick0`, `scale`
/// nanoseconds per tick (32.32 fixed point), until `recalibrate_at`, when
/// a reading measures the scale again and publishes new parameters.
typedef struct {
    uint64_t tick0;
    uint64_t ns0;
    uint64_t scale;
    uint64_t recalibrate_at;
} faultline_clock_params;

/// The parameters in use; NULL while readings come from the kernel.
extern const faultline_clock_params *faultline_clock_current;

/// A reading when the counter is not (yet) in use, or due to be measured
/// again: decides, measures the scale.
uint64_t faultline_clock_slow(void);

/// Runs `body` holding the lock under which the clock decides its source
/// and measures its scale: for tests that a fork() in the meantime leaves
/// the child a clock it can use, forking from another thread (a fork from
/// `body` itself would wait for the lock it holds). Not for other uses
/// (readings that need the lock wait for `body`).
void faultline_clock_while_deciding(void (*body)(void *), void *context);

/// For tests: measures the scale now, as a reading past `recalibrate_at`
/// would, with the first `preempted` attempts at pairing the counter with
/// the kernel made to look preempted (their thread descheduled between the
/// two readings). Returns 1 if new parameters were published (a new rate,
/// or, when every pairing is too wide to trust and the line is more than
/// 1 ms off, the line going on from the kernel's time), 0 if not (the same
/// line republished, or the counter not in use).
int faultline_clock_measure_for_testing(int preempted);

/// For tests: runs the counter's line `factor` times as fast from now on,
/// as a rate measured wrong would, with its next measurement due at once,
/// as after a time without readings (the line goes on from the current
/// reading). Returns 1 while the counter is in use, else 0 (and changes
/// nothing).
int faultline_clock_misrate_for_testing(double factor);

/// For tests: CLOCK_MONOTONIC (the first paired reading's) and
/// CLOCK_MONOTONIC_RAW at the counter's first paired reading, the start of
/// the span every measurement of the scale averages over. Returns 1 while
/// the counter is in use, else 0 (and writes nothing).
int faultline_clock_first_reading_for_testing(uint64_t *monotonic_ns, uint64_t *raw_ns);

/// clock_gettime(CLOCK_MONOTONIC) in nanoseconds, whatever the state.
uint64_t faultline_clock_kernel(void);

/// 2 when readings come from the time-stamp counter (also while its first
/// measurement is due, its first millisecond, whose readings are the
/// kernel's), 3 when from the kernel (a counter whose measurement could not
/// be made included); deciding first if need be.
int faultline_clock_source(void);

/// The reading `params` give at counter value `tick` (no earlier than
/// their own start).
static inline __attribute__((always_inline)) uint64_t faultline_clock_reading(const faultline_clock_params *params, uint64_t tick) {
    int64_t ticks = (int64_t)(tick - params->tick0);
    if (ticks < 0) ticks = 0;
    return params->ns0 + (uint64_t)(((unsigned __int128)(uint64_t)ticks * params->scale) >> 32);
}

static inline __attribute__((always_inline)) uint64_t faultline_clock_now(void) {
#if defined(__x86_64__)
    const faultline_clock_params *params = __atomic_load_n(&faultline_clock_current, __ATOMIC_ACQUIRE);
    if (__builtin_expect(params != 0, 1)) {
        uint64_t tick = __builtin_ia32_rdtsc();
        if (__builtin_expect(tick < params->recalibrate_at, 1)) return faultline_clock_reading(params, tick);
    }
#endif
    return faultline_clock_slow();
}

/// Nanoseconds from `start` (a reading) until now; 0 rather than a wrapped
/// value when now reads earlier.
static inline __attribute__((always_inline)) uint64_t faultline_clock_since(uint64_t start) {
    uint64_t now = faultline_clock_now();
    return now > start ? now - start : 0;
}

#endif
