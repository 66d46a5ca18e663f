#define _GNU_SOURCE
#include "faultline_descriptors.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int faultline_pipe_cloexec(int ends[2]) {
    return pipe2(ends, O_CLOEXEC);
}

int faultline_mkstemp_cloexec(char *template_path) {
    return mkostemp(template_path, O_CLOEXEC);
}
