/*
 * The clock's checks that need a process of their own (ProbeClockTests):
 * a fork of the test process itself, with its many threads and libraries,
 * stalled the whole test run, and a clock run at a wrong rate would put
 * every other test's readings off.
 *
 *   ProbeClockCheck fork   a thread holds the lock under which the clock
 *                          measures its scale; the main thread forks
 *                          meanwhile; the child takes the lock, as its next
 *                          measurement would, and exits.
 *   ProbeClockCheck idle   the counter's line runs at a wrong rate (as a
 *                          rate measured wrong over the first millisecond
 *                          does), then nothing reads the clock for 0.4 s:
 *                          the first reading after that is within 1 ms of
 *                          the kernel's clock and not before the last one,
 *                          for a line too fast, too slow and far too fast,
 *                          and after a measurement whose pairings were all
 *                          preempted; and still within 1 ms a second on.
 *
 * Exit 0 when the check held, 1 when it did not (the reason on standard
 * error), 2 on an error, 3 when the kernel does not keep time with the
 * counter (nothing to check for `idle`).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "faultline_probe_clock.h"

static atomic_int holding;

static void hold(void *unused) {
    (void)unused;
    atomic_store(&holding, 1);
    usleep(300000);
    atomic_store(&holding, 2);
}

static void *holder(void *unused) {
    (void)unused;
    faultline_clock_while_deciding(hold, NULL);
    return NULL;
}

static void nothing(void *unused) { (void)unused; }

static int check_fork(void) {
    pthread_t thread;
    if (pthread_create(&thread, NULL, holder, NULL) != 0) { perror("pthread_create"); return 2; }
    while (atomic_load(&holding) == 0) usleep(1000);
    if (atomic_load(&holding) != 1) { fprintf(stderr, "the other thread let go of the lock before the fork\n"); return 2; }
    pid_t child = fork();
    if (child == 0) {
        faultline_clock_while_deciding(nothing, NULL);
        _exit(0);
    }
    if (child < 0) { perror("fork"); return 2; }
    int status = 0;
    for (int waited = 0; waited < 1000; waited++) {
        pid_t done = waitpid(child, &status, WNOHANG);
        if (done == child) {
            pthread_join(thread, NULL);
            if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
            fprintf(stderr, "the child ended with wait status %d\n", status);
            return 2;
        }
        if (done < 0 && errno != EINTR) { perror("waitpid"); return 2; }
        usleep(10000);
    }
    kill(child, SIGKILL);
    waitpid(child, &status, 0);
    fprintf(stderr, "the child waited 10 s for a lock that no thread of its own held\n");
    return 1;
}

/// Reads the probe clock for `nanoseconds` of the kernel's time.
static void read_for(uint64_t nanoseconds) {
    uint64_t start = faultline_clock_kernel();
    while (faultline_clock_kernel() - start < nanoseconds) (void)faultline_clock_now();
}

/// How far a probe reading is from the kernel's clock: the closest of a
/// few pairs, as the thread can be preempted between two readings.
static int64_t offset_from_kernel(uint64_t *reading) {
    int64_t closest = INT64_MAX;
    for (int attempt = 0; attempt < 5; attempt++) {
        uint64_t before = faultline_clock_kernel();
        uint64_t probe = faultline_clock_now();
        uint64_t after = faultline_clock_kernel();
        int64_t offset = (int64_t)(probe - (before + (after - before) / 2));
        if (llabs(offset) < llabs(closest)) closest = offset;
        if (attempt == 0) *reading = probe;
    }
    return closest;
}

static const int64_t allowed_offset_ns = 1000000;

/// A line at `factor` times the rate, unread for 0.4 s, then read (after a
/// measurement made to look preempted throughout when `preempted`).
static int check_idle_line(double factor, int preempted) {
    read_for(20000000);
    uint64_t last = faultline_clock_now();
    if (!faultline_clock_misrate_for_testing(factor)) { fprintf(stderr, "the counter went out of use\n"); return 2; }
    usleep(400000);
    if (preempted) (void)faultline_clock_measure_for_testing(1000);
    uint64_t first = 0;
    int64_t offset = offset_from_kernel(&first);
    const char *how = preempted ? " and a measurement preempted throughout" : "";
    if (first < last) {
        fprintf(stderr, "at %.2fx the rate%s, the first reading after 0.4 s without any ran back %llu ns\n", factor, how,
            (unsigned long long)(last - first));
        return 1;
    }
    if (llabs(offset) > allowed_offset_ns) {
        fprintf(stderr, "at %.2fx the rate%s, the first reading after 0.4 s without any was %lld ns off the kernel's clock\n",
            factor, how, (long long)offset);
        return 1;
    }
    return 0;
}

static int check_idle(void) {
    read_for(3000000);
    if (faultline_clock_source() != 2) {
        fprintf(stderr, "the kernel does not keep time with the counter: readings are its own\n");
        return 3;
    }
    static const struct { double factor; int preempted; } lines[] = {{1.25, 0}, {0.75, 0}, {5.0, 0}, {1.25, 1}};
    for (size_t index = 0; index < sizeof lines / sizeof lines[0]; index++) {
        int result = check_idle_line(lines[index].factor, lines[index].preempted);
        if (result != 0) return result;
    }
    read_for(1100000000);
    uint64_t reading = 0;
    int64_t offset = offset_from_kernel(&reading);
    if (llabs(offset) > allowed_offset_ns) {
        fprintf(stderr, "a second after the last idle line, readings were %lld ns off the kernel's clock\n", (long long)offset);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "fork") == 0) return check_fork();
    if (argc == 2 && strcmp(argv[1], "idle") == 0) return check_idle();
    fprintf(stderr, "usage: ProbeClockCheck fork|idle\n");
    return 2;
}
