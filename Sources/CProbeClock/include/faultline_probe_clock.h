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
 * (readings in that millisecond come from clock_gettime). Anywhere else,
 * or with FAULTLINE_CLOCK=kernel in the environment, every reading is
 * clock_gettime(CLOCK_MONOTONIC).
 *
 * Two readings on different CPUs can be a few nanoseconds out of order:
 * take durations with faultline_clock_since(), which never wraps.
 */

#include <stdint.h>

/// 0: not decided yet, 1: measuring the counter's scale, 2: counter, 3: kernel.
extern int faultline_clock_state;
extern uint64_t faultline_clock_tick0;
extern uint64_t faultline_clock_ns0;
/// Nanoseconds per tick, 32.32 fixed point.
extern uint64_t faultline_clock_scale;

/// A reading when the counter is not (yet) in use: decides, measures the scale.
uint64_t faultline_clock_slow(void);

/// clock_gettime(CLOCK_MONOTONIC) in nanoseconds, whatever the state.
uint64_t faultline_clock_kernel(void);

/// 2 when readings come from the time-stamp counter, 3 when from the kernel
/// (deciding first if need be; 1 while the counter's scale is measured).
int faultline_clock_source(void);

static inline __attribute__((always_inline)) uint64_t faultline_clock_now(void) {
#if defined(__x86_64__)
    if (__builtin_expect(__atomic_load_n(&faultline_clock_state, __ATOMIC_ACQUIRE) == 2, 1)) {
        int64_t ticks = (int64_t)(__builtin_ia32_rdtsc() - faultline_clock_tick0);
        if (ticks < 0) ticks = 0;
        return faultline_clock_ns0 + (uint64_t)(((unsigned __int128)(uint64_t)ticks * faultline_clock_scale) >> 32);
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
