/*
 * The probes of the `faultline` tracepoint provider, built as the dynamic
 * library libFaultlineTracepointProvider.so and linked with liblttng-ust.
 * perf-run loads it at start (dlopen) when it is present; without it, or
 * without liblttng-ust, the tracepoints stay off and everything else works.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#include "faultline_tp.h"
#include "faultline_provider.h"

int faultline_tracepoint_provider_version(void) { return FAULTLINE_TRACEPOINT_PROVIDER_VERSION; }
