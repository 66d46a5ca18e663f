#ifndef FAULTLINE_TRACEPOINT_FIELDS_H
#define FAULTLINE_TRACEPOINT_FIELDS_H

#include <stdint.h>

/* The version of these tracepoints' definitions: the provider library
   returns it, and a program loads only a provider of its own version (an
   older provider's events have other fields). */
#define FAULTLINE_TRACEPOINT_PROVIDER_VERSION 4

/* A call site is interned: a `call_site` event gives it its number and its
   text (module, file, line, function) once per session, and every event of
   that site carries the number in its `call_site` field. */

/* The `source` and `miss_reason` fields of faults and relationship faults. */
enum faultline_source {
    FAULTLINE_SOURCE_CONTEXT = 0,
    FAULTLINE_SOURCE_ROW_CACHE = 1,
    FAULTLINE_SOURCE_DATABASE = 2,
};

enum faultline_miss_reason {
    FAULTLINE_MISS_NONE = 0,
    FAULTLINE_MISS_ABSENT = 1,
    FAULTLINE_MISS_STALE = 2,
};

/* Tracepoints take at most ten arguments: the three widest events pass
   their fields in a struct. */

struct faultline_fetch_fields {
    const char *context;
    const char *entity;
    const char *predicate;
    const char *sort;
    const char *result_type;
    uint64_t result_count;
    uint64_t duration_ns;
    int64_t fetch_limit;
    int64_t fetch_offset;
    int64_t batch_size;
    int32_t returns_faults;
    int32_t includes_values;
    int32_t includes_pending;
    const char *prefetch;
    uint64_t call_site;
};

struct faultline_relationship_fault_fields {
    const char *context;
    const char *entity;
    const char *relationship;
    int64_t primary_key;
    const char *destination_entity;
    uint64_t destination_count;
    int32_t source;
    int32_t miss_reason;
    uint64_t duration_ns;
    uint64_t call_site;
};

/* `shape` is the number a `sql_shape` event gave the statement's shape;
   `statement` is "" when the statement's text is the shape's. */
struct faultline_sql_fields {
    uint64_t shape;
    const char *statement;
    const char *arguments;
    uint64_t duration_ns;
    uint64_t rows_returned;
    uint64_t rows_changed;
    uint64_t full_scan_steps;
    uint64_t sorts;
    uint64_t auto_indexes;
    uint64_t vm_steps;
    const char *purpose;
    const char *query_plan;
    uint64_t call_site;
};

#endif
