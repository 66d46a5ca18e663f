#define _GNU_SOURCE
#include "faultline_descriptors.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int faultline_pipe_cloexec(int ends[2]) {
#if defined(__linux__)
    return pipe2(ends, O_CLOEXEC);
#else
    // No pipe2 (Darwin): as close as the system allows.
    if (pipe(ends) != 0) return -1;
    fcntl(ends[0], F_SETFD, FD_CLOEXEC);
    fcntl(ends[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

int faultline_mkstemp_cloexec(char *template_path) {
    return mkostemp(template_path, O_CLOEXEC);
}
