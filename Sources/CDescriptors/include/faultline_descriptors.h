#ifndef FAULTLINE_DESCRIPTORS_H
#define FAULTLINE_DESCRIPTORS_H

/*
 * Descriptors made close-on-exec from the start (pipe2, mkostemp), which
 * the C library declares only with _GNU_SOURCE and Swift's Glibc module
 * does not show. Setting FD_CLOEXEC after making a descriptor leaves a
 * moment in which a program another thread spawns inherits it.
 */

/// A pipe whose ends close on exec: 0, or -1 with errno set.
int faultline_pipe_cloexec(int ends[2]);

/// mkostemp(template, O_CLOEXEC): the open file's descriptor (its name
/// written into `template`), or -1 with errno set.
int faultline_mkstemp_cloexec(char *template_path);

#endif
