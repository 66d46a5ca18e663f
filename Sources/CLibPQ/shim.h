#ifndef FAULTLINE_CLIBPQ_SHIM_H
#define FAULTLINE_CLIBPQ_SHIM_H

/* PostgreSQL's C client (Debian's libpq-dev puts it under
   /usr/include/postgresql, which pkg-config's libpq gives). */
#include <libpq-fe.h>

#endif
