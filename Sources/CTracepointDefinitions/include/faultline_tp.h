/*
 * The `faultline` LTTng-UST tracepoint provider: one tracepoint per event
 * type of Faultline's engine. Fields are documented in docs/tracepoints.md.
 *
 * This header is read twice by lttng-ust's macros (LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ):
 * by the provider library (probes) and by CTracepoints (call sites, with
 * dynamic linkage: the application does not link liblttng-ust).
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER faultline

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "faultline_tp.h"

#if !defined(FAULTLINE_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define FAULTLINE_TP_H

#include <stdint.h>
#include <lttng/tracepoint.h>
#include "faultline_tracepoint_fields.h"

/* A fault's source and a miss's reason are enumerations: an integer in the
   trace, its label in the metadata (babeltrace2 prints `( "database" :
   container = 2 )`). The values are faultline_source and
   faultline_miss_reason (faultline_tracepoint_fields.h). */
LTTNG_UST_TRACEPOINT_ENUM(faultline, source,
    LTTNG_UST_TP_ENUM_VALUES(
        lttng_ust_field_enum_value("context", FAULTLINE_SOURCE_CONTEXT)
        lttng_ust_field_enum_value("row cache", FAULTLINE_SOURCE_ROW_CACHE)
        lttng_ust_field_enum_value("database", FAULTLINE_SOURCE_DATABASE)
    )
)

LTTNG_UST_TRACEPOINT_ENUM(faultline, miss_reason,
    LTTNG_UST_TP_ENUM_VALUES(
        lttng_ust_field_enum_value("", FAULTLINE_MISS_NONE)
        lttng_ust_field_enum_value("absent", FAULTLINE_MISS_ABSENT)
        lttng_ust_field_enum_value("stale", FAULTLINE_MISS_STALE)
    )
)

LTTNG_UST_TRACEPOINT_EVENT(faultline, fetch,
    LTTNG_UST_TP_ARGS(const struct faultline_fetch_fields *, f),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_string(context, f->context)
        lttng_ust_field_string(entity, f->entity)
        lttng_ust_field_string(predicate, f->predicate)
        lttng_ust_field_string(sort, f->sort)
        lttng_ust_field_string(result_type, f->result_type)
        lttng_ust_field_integer(uint64_t, result_count, f->result_count)
        lttng_ust_field_integer(uint64_t, duration_ns, f->duration_ns)
        lttng_ust_field_integer(int64_t, fetch_limit, f->fetch_limit)
        lttng_ust_field_integer(int64_t, fetch_offset, f->fetch_offset)
        lttng_ust_field_integer(int64_t, batch_size, f->batch_size)
        lttng_ust_field_integer(int32_t, returns_faults, f->returns_faults)
        lttng_ust_field_integer(int32_t, includes_values, f->includes_values)
        lttng_ust_field_integer(int32_t, includes_pending, f->includes_pending)
        lttng_ust_field_string(prefetch, f->prefetch)
        lttng_ust_field_integer(uint64_t, call_site, f->call_site)
    )
)

LTTNG_UST_TRACEPOINT_EVENT(faultline, fault,
    LTTNG_UST_TP_ARGS(const char *, context, const char *, entity, int64_t, primary_key, int32_t, source,
        int32_t, miss_reason, uint64_t, count, uint64_t, duration_ns, uint64_t, call_site),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_string(context, context)
        lttng_ust_field_string(entity, entity)
        lttng_ust_field_integer(int64_t, primary_key, primary_key)
        lttng_ust_field_enum(faultline, source, int32_t, source, source)
        lttng_ust_field_enum(faultline, miss_reason, int32_t, miss_reason, miss_reason)
        lttng_ust_field_integer(uint64_t, count, count)
        lttng_ust_field_integer(uint64_t, duration_ns, duration_ns)
        lttng_ust_field_integer(uint64_t, call_site, call_site)
    )
)

LTTNG_UST_TRACEPOINT_EVENT(faultline, relationship_fault,
    LTTNG_UST_TP_ARGS(const struct faultline_relationship_fault_fields *, f),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_string(context, f->context)
        lttng_ust_field_string(entity, f->entity)
        lttng_ust_field_string(relationship, f->relationship)
        lttng_ust_field_integer(int64_t, primary_key, f->primary_key)
        lttng_ust_field_string(destination_entity, f->destination_entity)
        lttng_ust_field_integer(uint64_t, destination_count, f->destination_count)
        lttng_ust_field_enum(faultline, source, int32_t, source, f->source)
        lttng_ust_field_enum(faultline, miss_reason, int32_t, miss_reason, f->miss_reason)
        lttng_ust_field_integer(uint64_t, duration_ns, f->duration_ns)
        lttng_ust_field_integer(uint64_t, call_site, f->call_site)
    )
)

LTTNG_UST_TRACEPOINT_EVENT(faultline, save,
    LTTNG_UST_TP_ARGS(const char *, context, uint64_t, inserted, uint64_t, updated, uint64_t, deleted,
        uint64_t, duration_ns, int32_t, success, const char *, error, uint64_t, call_site),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_string(context, context)
        lttng_ust_field_integer(uint64_t, inserted, inserted)
        lttng_ust_field_integer(uint64_t, updated, updated)
        lttng_ust_field_integer(uint64_t, deleted, deleted)
        lttng_ust_field_integer(uint64_t, duration_ns, duration_ns)
        lttng_ust_field_integer(int32_t, success, success)
        lttng_ust_field_string(error, error)
        lttng_ust_field_integer(uint64_t, call_site, call_site)
    )
)

LTTNG_UST_TRACEPOINT_EVENT(faultline, batch_request,
    LTTNG_UST_TP_ARGS(const char *, kind, const char *, entity, uint64_t, rows_affected, uint64_t, duration_ns,
        uint64_t, call_site),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_string(kind, kind)
        lttng_ust_field_string(entity, entity)
        lttng_ust_field_integer(uint64_t, rows_affected, rows_affected)
        lttng_ust_field_integer(uint64_t, duration_ns, duration_ns)
        lttng_ust_field_integer(uint64_t, call_site, call_site)
    )
)

LTTNG_UST_TRACEPOINT_EVENT(faultline, sql_shape,
    LTTNG_UST_TP_ARGS(uint64_t, shape, const char *, text),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(uint64_t, shape, shape)
        lttng_ust_field_string(text, text)
    )
)

/* A call site, once per session: its number, which the events of that
   site carry in their `call_site` field, and its text. */
LTTNG_UST_TRACEPOINT_EVENT(faultline, call_site,
    LTTNG_UST_TP_ARGS(uint64_t, call_site, const char *, module, const char *, file, int64_t, line, const char *, function),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(uint64_t, call_site, call_site)
        lttng_ust_field_string(module, module)
        lttng_ust_field_string(file, file)
        lttng_ust_field_integer(int64_t, line, line)
        lttng_ust_field_string(function, function)
    )
)

LTTNG_UST_TRACEPOINT_EVENT(faultline, sql,
    LTTNG_UST_TP_ARGS(const struct faultline_sql_fields *, f),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(uint64_t, shape, f->shape)
        lttng_ust_field_string(statement, f->statement)
        lttng_ust_field_string(arguments, f->arguments)
        lttng_ust_field_integer(uint64_t, duration_ns, f->duration_ns)
        lttng_ust_field_integer(uint64_t, rows_returned, f->rows_returned)
        lttng_ust_field_integer(uint64_t, rows_changed, f->rows_changed)
        lttng_ust_field_integer(uint64_t, full_scan_steps, f->full_scan_steps)
        lttng_ust_field_integer(uint64_t, sorts, f->sorts)
        lttng_ust_field_integer(uint64_t, auto_indexes, f->auto_indexes)
        lttng_ust_field_integer(uint64_t, vm_steps, f->vm_steps)
        lttng_ust_field_string(purpose, f->purpose)
        lttng_ust_field_string(query_plan, f->query_plan)
        lttng_ust_field_integer(uint64_t, call_site, f->call_site)
    )
)

LTTNG_UST_TRACEPOINT_EVENT(faultline, context,
    LTTNG_UST_TP_ARGS(const char *, context, const char *, kind, uint64_t, count, uint64_t, objects_registered,
        uint64_t, objects_registered_peak, const char *, detail),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_string(context, context)
        lttng_ust_field_string(kind, kind)
        lttng_ust_field_integer(uint64_t, count, count)
        lttng_ust_field_integer(uint64_t, objects_registered, objects_registered)
        lttng_ust_field_integer(uint64_t, objects_registered_peak, objects_registered_peak)
        lttng_ust_field_string(detail, detail)
    )
)

LTTNG_UST_TRACEPOINT_EVENT(faultline, scenario,
    LTTNG_UST_TP_ARGS(const char *, scenario, const char *, phase, const char *, step, int64_t, iteration),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_string(scenario, scenario)
        lttng_ust_field_string(phase, phase)
        lttng_ust_field_string(step, step)
        lttng_ust_field_integer(int64_t, iteration, iteration)
    )
)

#endif /* FAULTLINE_TP_H */

#include <lttng/tracepoint-event.h>
