#define _GNU_SOURCE
#include "caller_frames.h"

#include <pthread.h>

/// The calling thread's stack, found once per thread.
static __thread uintptr_t stack_low;
static __thread uintptr_t stack_high;

static int find_stack(void) {
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
    void *base = 0;
    size_t size = 0;
    int found = pthread_attr_getstack(&attributes, &base, &size) == 0;
    pthread_attr_destroy(&attributes);
    if (!found) return 0;
    stack_low = (uintptr_t)base;
    stack_high = (uintptr_t)base + size;
    return 1;
}

/// The walk from `frame` (a frame record of the calling thread's stack).
static inline int walk(uintptr_t frame, uintptr_t mark, uintptr_t *addresses, int capacity) {
    int count = 0;
    while (count < capacity) {
        // A frame record is two words on the stack, above the last one.
        if (frame < stack_low || frame + 2 * sizeof(uintptr_t) > stack_high || (frame & (sizeof(uintptr_t) - 1)) != 0) break;
        uintptr_t next = ((uintptr_t *)frame)[0];
        uintptr_t address = ((uintptr_t *)frame)[1];
        if (address == 0) break;
        // The stack grows down: a record below the mark is an inner call's.
        if (frame >= mark) addresses[count++] = address;
        if (next <= frame) break;
        frame = next;
    }
    return count;
}

__attribute__((noinline))
int faultline_caller_frames(uintptr_t *addresses, int capacity) {
    if (stack_high == 0 && !find_stack()) return 0;
    return walk((uintptr_t)__builtin_frame_address(0), 0, addresses, capacity);
}

__attribute__((noinline))
int faultline_caller_frames_above(uintptr_t mark, uintptr_t *addresses, int capacity) {
    if (stack_high == 0 && !find_stack()) return 0;
    return walk((uintptr_t)__builtin_frame_address(0), mark, addresses, capacity);
}

__attribute__((noinline))
int faultline_caller_frames_below(uintptr_t mark) {
    if (mark == 0 || (stack_high == 0 && !find_stack())) return 0;
    uintptr_t frame = (uintptr_t)__builtin_frame_address(0);
    int count = 0;
    while (frame < mark) {
        if (frame < stack_low || frame + 2 * sizeof(uintptr_t) > stack_high || (frame & (sizeof(uintptr_t) - 1)) != 0) break;
        uintptr_t next = ((uintptr_t *)frame)[0];
        if (((uintptr_t *)frame)[1] == 0) break;
        count++;
        if (next <= frame) break;
        frame = next;
    }
    return count;
}
