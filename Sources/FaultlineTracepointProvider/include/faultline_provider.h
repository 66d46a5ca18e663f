#ifndef FAULTLINE_PROVIDER_H
#define FAULTLINE_PROVIDER_H

/// The provider library's version; a loader can dlsym it to check that the
/// library it opened is this one.
int faultline_tracepoint_provider_version(void);

#endif
