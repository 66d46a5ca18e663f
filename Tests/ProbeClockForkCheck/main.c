/*
 * The clock's fork safety, checked in a process of its own (a fork of the
 * test process itself, with its many threads and libraries, stalled the
 * whole test run): a thread holds the lock under which the clock measures
 * its scale; the main thread forks meanwhile; the child takes the lock, as
 * its next measurement would, and exits. Exit 0 when the child did so,
 * 1 when it still waited after 10 seconds (it is killed), 2 on an error.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
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

int main(void) {
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
