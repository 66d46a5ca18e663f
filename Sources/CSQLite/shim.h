#ifndef FAULTLINE_CSQLITE_SHIM_H
#define FAULTLINE_CSQLITE_SHIM_H

#include <sqlite3.h>

/// `SQLITE_TRANSIENT` is a macro casting -1 to a function pointer, which Swift
/// cannot import; this constant makes SQLite copy bound text and blobs.
static const sqlite3_destructor_type faultline_sqlite_transient = (sqlite3_destructor_type)-1;

#endif
