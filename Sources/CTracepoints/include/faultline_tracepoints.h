#ifndef FAULTLINE_TRACEPOINTS_H
#define FAULTLINE_TRACEPOINTS_H

/*
 * Call sites of the `faultline` LTTng-UST tracepoints, for Swift.
 *
 * The application defines the tracepoints with dynamic linkage: it does not
 * link liblttng-ust. faultline_tracepoints_load() dlopens the provider
 * library; until it succeeds (and a session enables the events) every
 * faultline_tp_*_enabled() returns 0.
 */

#include <stdint.h>
#include "faultline_tracepoint_fields.h"

/// Loads the provider library at `path`. Returns NULL on success, or a
/// message saying why it could not be loaded (owned by the library, valid
/// until the next call). Not thread-safe: LTTngSink.load calls it under
/// FileMappings.holdingStill, which also keeps its mapping and unmapping
/// of the library away from a capture of the process's images.
const char *faultline_tracepoints_load(const char *path);

/// Whether liblttng-ust itself could be found (so tracepoints can work).
int faultline_lttng_available(void);

/// The calling thread's Linux thread ID, cached per thread.
int32_t faultline_thread_id(void);

/// The calling thread's name (pthread_getname_np) into `buffer`; 0 on success.
int faultline_thread_name(char *buffer, unsigned long size);


int faultline_tp_fetch_enabled(void);
int faultline_tp_relationship_fault_enabled(void);
int faultline_tp_save_enabled(void);
int faultline_tp_batch_request_enabled(void);
int faultline_tp_sql_shape_enabled(void);
int faultline_tp_call_site_enabled(void);
int faultline_tp_scenario_enabled(void);
/* The states of the tracepoints the engine asks about per fault and per
 * statement, read inline (what lttng_ust_tracepoint_enabled reads: a
 * volatile load of the tracepoint's state) rather than through a call. */
extern const volatile int *const faultline_tp_fault_state;
extern const volatile int *const faultline_tp_sql_state;
extern const volatile int *const faultline_tp_context_state;
static inline int faultline_tp_fault_on(void) { return *faultline_tp_fault_state != 0; }
static inline int faultline_tp_sql_on(void) { return *faultline_tp_sql_state != 0; }
static inline int faultline_tp_context_on(void) { return *faultline_tp_context_state != 0; }
/* "" as a C string, for the tracepoints' empty fields: a constant, which
 * Swift reads without the once-check a lazily made global costs. */
extern const char *const faultline_empty_string;
/* 1 when any faultline tracepoint is on: some session records this
 * process's events; 0 between sessions. */
int faultline_tp_any_enabled(void);

void faultline_tp_fetch(const struct faultline_fetch_fields *fields);
void faultline_tp_fault(const char *context, const char *entity, int64_t primary_key, int32_t source,
    int32_t miss_reason, uint64_t count, uint64_t duration_ns, uint64_t call_site);
void faultline_tp_relationship_fault(const struct faultline_relationship_fault_fields *fields);
void faultline_tp_save(const char *context, uint64_t inserted, uint64_t updated, uint64_t deleted,
    uint64_t duration_ns, int32_t success, const char *error, uint64_t call_site);
void faultline_tp_batch_request(const char *kind, const char *entity, uint64_t rows_affected, uint64_t duration_ns,
    uint64_t call_site);
void faultline_tp_sql_shape(uint64_t shape, const char *text);
/* A call site's number and text (`function` "" where the site names none). */
void faultline_tp_call_site(uint64_t call_site, const char *module, const char *file, int64_t line, const char *function);
void faultline_tp_sql(const struct faultline_sql_fields *fields);
void faultline_tp_context(const char *context, const char *kind, uint64_t count, uint64_t objects_registered,
    uint64_t objects_registered_peak, const char *detail);
void faultline_tp_scenario(const char *scenario, const char *phase, const char *step, int64_t iteration);

#endif
