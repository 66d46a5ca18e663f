#ifndef CLIMIT_H
#define CLIMIT_H

#include <stddef.h>
#include <stdint.h>

/// What one replay did.
typedef struct {
    /// Wall time of the replay and the in-memory accesses, in seconds.
    double seconds;
    /// Of which the accesses (hash-map lookups and copies).
    double access_seconds;
    /// Statements executed, rows returned, rows changed.
    int64_t statements;
    int64_t rows_read;
    int64_t rows_changed;
} climit_result;

/// Replays a capture file (written by the benchmark from the engine's own
/// statement hook) on the database at `db_path`: one connection per
/// connection the engine used, each statement prepared once and reused,
/// every bound value bound as captured, every row's columns copied into
/// memory and the rows keyed by their first integer column in a hash map.
/// Then `accesses` times: one hash-map lookup and one copy of a value, the
/// in-memory work a C program needs per object access.
///
/// `measured` is 0 for a warm-up replay, which callgrind does not count
/// (only a measured replay runs in `climit_measured`).
///
/// Returns 0, or -1 with a message in `error`.
int climit_replay(const char *db_path, const char *capture_path, int64_t accesses, int measured, climit_result *result,
                  char *error, size_t error_size);

/// Keeps freed memory mapped for the rest of the process (glibc: no heap
/// trimming, no mmap for blocks under 32 MB), so that a warm-up's frees do
/// not cost the measured run page faults. Called first by every worker.
void climit_keep_heap(void);

/// Marks the measured work for callgrind (`--toggle-collect=climit_measured*`).
void climit_measured_begin(void);
void climit_measured_end(void);

#endif
