/*
 * The `faultline` tracepoint definitions (include/faultline_tp.h) and the
 * structures their fields come from (include/faultline_tracepoint_fields.h),
 * shared by the call sites (CTracepoints) and the provider
 * (FaultlineTracepointProvider) through this target's include directory.
 * Headers only: this file is here because a target needs a source.
 */
