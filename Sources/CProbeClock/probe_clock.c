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

int faultline_clock_state;
uint64_t faultline_clock_tick0;
uint64_t faultline_clock_ns0;
uint64_t faultline_clock_scale;

static pthread_mutex_t deciding = PTHREAD_MUTEX_INITIALIZER;

/// How long the counter is measured against the kernel's clock before it is
/// used: the two readings at each end agree within ~10 ns, so the scale is
/// right within ~2e-5 (2 µs in 100 ms).
static const uint64_t calibration_ns = 1000000;

enum { undecided = 0, calibrating = 1, counter = 2, kernel = 3 };

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

/// A counter reading and a kernel reading taken at the same moment: the
/// counter read on both sides of the kernel's, the closest pair of a few.
static void paired_reading(uint64_t *tick, uint64_t *ns) {
    uint64_t best = UINT64_MAX;
    for (int attempt = 0; attempt < 5; attempt++) {
        uint64_t before = __builtin_ia32_rdtsc();
        uint64_t now = faultline_clock_kernel();
        uint64_t after = __builtin_ia32_rdtsc();
        if (after - before < best) {
            best = after - before;
            *tick = before + (after - before) / 2;
            *ns = now;
        }
    }
}
#endif

uint64_t faultline_clock_slow(void) {
    int state = __atomic_load_n(&faultline_clock_state, __ATOMIC_ACQUIRE);
#if defined(__x86_64__)
    if (state == counter) return faultline_clock_now();
    if (state == kernel) return faultline_clock_kernel();
    uint64_t now = faultline_clock_kernel();
    if (state == calibrating && now - faultline_clock_ns0 < calibration_ns) return now;
    pthread_mutex_lock(&deciding);
    state = __atomic_load_n(&faultline_clock_state, __ATOMIC_ACQUIRE);
    if (state == undecided) {
        if (counter_usable()) {
            paired_reading(&faultline_clock_tick0, &faultline_clock_ns0);
            __atomic_store_n(&faultline_clock_state, calibrating, __ATOMIC_RELEASE);
        } else {
            __atomic_store_n(&faultline_clock_state, kernel, __ATOMIC_RELEASE);
        }
    } else if (state == calibrating) {
        uint64_t tick, ns;
        paired_reading(&tick, &ns);
        if (ns - faultline_clock_ns0 >= calibration_ns && tick > faultline_clock_tick0) {
            // Scaled from the first pair, the second pair's tick reads as
            // its kernel time: no step where the counter takes over.
            faultline_clock_scale = (uint64_t)(((unsigned __int128)(ns - faultline_clock_ns0) << 32) / (tick - faultline_clock_tick0));
            __atomic_store_n(&faultline_clock_state, counter, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&deciding);
    return faultline_clock_kernel();
#else
    (void)state;
    return faultline_clock_kernel();
#endif
}

int faultline_clock_source(void) {
    if (__atomic_load_n(&faultline_clock_state, __ATOMIC_ACQUIRE) == undecided) faultline_clock_slow();
    int state = __atomic_load_n(&faultline_clock_state, __ATOMIC_ACQUIRE);
#if !defined(__x86_64__)
    return kernel;
#else
    return state;
#endif
}
