#define _GNU_SOURCE
#define LTTNG_UST_TRACEPOINT_DEFINE
#define LTTNG_UST_TRACEPOINT_PROBE_DYNAMIC_LINKAGE
#include "faultline_tp.h"
#include "faultline_tracepoints.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static void *provider_handle;

const char *faultline_tracepoints_load(const char *path) {
    static char message[160];
    if (provider_handle) return NULL;
    void *handle = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    if (!handle) return dlerror();
    int (*version)(void) = (int (*)(void))dlsym(handle, "faultline_tracepoint_provider_version");
    int found = version ? version() : 0;
    if (found != FAULTLINE_TRACEPOINT_PROVIDER_VERSION) {
        dlclose(handle);
        snprintf(message, sizeof message, "it defines the tracepoints of version %d, this program those of version %d",
            found, FAULTLINE_TRACEPOINT_PROVIDER_VERSION);
        return message;
    }
    provider_handle = handle;
    return NULL;
}

int faultline_lttng_available(void) {
    return lttng_ust_tracepoint_dlopen_ptr != NULL && lttng_ust_tracepoint_dlopen_ptr->liblttngust_handle != NULL;
}

int32_t faultline_thread_id(void) {
    static __thread int32_t cached;
    if (!cached) cached = (int32_t)syscall(SYS_gettid);
    return cached;
}

int faultline_thread_name(char *buffer, unsigned long size) {
    return pthread_getname_np(pthread_self(), buffer, size);
}

#define ENABLED(name) \
    int faultline_tp_##name##_enabled(void) { return lttng_ust_tracepoint_enabled(faultline, name) ? 1 : 0; }
ENABLED(fetch)
ENABLED(relationship_fault)
ENABLED(save)
ENABLED(batch_request)
ENABLED(sql_shape)
ENABLED(call_site)
ENABLED(scenario)

const char *const faultline_empty_string = "";

const volatile int *const faultline_tp_fault_state = &lttng_ust_tracepoint_faultline___fault.state;
const volatile int *const faultline_tp_sql_state = &lttng_ust_tracepoint_faultline___sql.state;
const volatile int *const faultline_tp_context_state = &lttng_ust_tracepoint_faultline___context.state;

int faultline_tp_any_enabled(void) {
    return lttng_ust_tracepoint_enabled(faultline, fetch) || lttng_ust_tracepoint_enabled(faultline, fault)
        || lttng_ust_tracepoint_enabled(faultline, relationship_fault) || lttng_ust_tracepoint_enabled(faultline, save)
        || lttng_ust_tracepoint_enabled(faultline, batch_request) || lttng_ust_tracepoint_enabled(faultline, sql_shape)
        || lttng_ust_tracepoint_enabled(faultline, call_site) || lttng_ust_tracepoint_enabled(faultline, sql)
        || lttng_ust_tracepoint_enabled(faultline, context) || lttng_ust_tracepoint_enabled(faultline, scenario);
}

void faultline_tp_fetch(const struct faultline_fetch_fields *fields) {
    lttng_ust_do_tracepoint(faultline, fetch, fields);
}

void faultline_tp_fault(const char *context, const char *entity, int64_t primary_key, int32_t source,
    int32_t miss_reason, uint64_t count, uint64_t duration_ns, uint64_t call_site) {
    lttng_ust_do_tracepoint(faultline, fault, context, entity, primary_key, source, miss_reason, count, duration_ns, call_site);
}

void faultline_tp_relationship_fault(const struct faultline_relationship_fault_fields *fields) {
    lttng_ust_do_tracepoint(faultline, relationship_fault, fields);
}

void faultline_tp_save(const char *context, uint64_t inserted, uint64_t updated, uint64_t deleted,
    uint64_t duration_ns, int32_t success, const char *error, uint64_t call_site) {
    lttng_ust_do_tracepoint(faultline, save, context, inserted, updated, deleted, duration_ns, success, error, call_site);
}

void faultline_tp_batch_request(const char *kind, const char *entity, uint64_t rows_affected, uint64_t duration_ns,
    uint64_t call_site) {
    lttng_ust_do_tracepoint(faultline, batch_request, kind, entity, rows_affected, duration_ns, call_site);
}

void faultline_tp_sql_shape(uint64_t shape, const char *text) {
    lttng_ust_do_tracepoint(faultline, sql_shape, shape, text);
}

void faultline_tp_call_site(uint64_t call_site, const char *module, const char *file, int64_t line, const char *function) {
    lttng_ust_do_tracepoint(faultline, call_site, call_site, module, file, line, function);
}

void faultline_tp_sql(const struct faultline_sql_fields *fields) {
    lttng_ust_do_tracepoint(faultline, sql, fields);
}

void faultline_tp_context(const char *context, const char *kind, uint64_t count, uint64_t objects_registered,
    uint64_t objects_registered_peak, const char *detail) {
    lttng_ust_do_tracepoint(faultline, context, context, kind, count, objects_registered, objects_registered_peak, detail);
}

void faultline_tp_scenario(const char *scenario, const char *phase, const char *step, int64_t iteration) {
    lttng_ust_do_tracepoint(faultline, scenario, scenario, phase, step, iteration);
}
