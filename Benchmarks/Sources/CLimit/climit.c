#ifdef __linux__
#include <malloc.h>
#endif
#include <limits.h>
#include "climit.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// The capture file, line by line:
//   C <count>                      connections
//   S <length> <sql bytes>         statement texts, numbered from 0
//   E <connection> <statement> <argument count> <arguments>
// with each argument one of: n | i<integer> | r<%a double> | t<length>:<bytes> | b<length>:<bytes>

typedef struct {
    int type;
    int64_t integer;
    double real;
    const char *bytes;
    int length;
} argument;

typedef struct {
    int connection;
    int statement;
    int argument_count;
    argument *arguments;
} execution;

typedef struct {
    char *text;
    int connection_count;
    int statement_count;
    const char **statements;
    int *statement_lengths;
    int64_t execution_count;
    execution *executions;
    argument *argument_storage;
} capture;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int fail(char *error, size_t size, const char *message, const char *detail) {
    snprintf(error, size, "%s%s%s", message, detail ? ": " : "", detail ? detail : "");
    return -1;
}

static int read_capture(const char *path, capture *c, char *error, size_t error_size) {
    memset(c, 0, sizeof *c);
    FILE *file = fopen(path, "rb");
    if (!file) return fail(error, error_size, "cannot open the capture", path);
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    c->text = malloc((size_t)size + 1);
    if (fread(c->text, 1, (size_t)size, file) != (size_t)size) {
        fclose(file);
        return fail(error, error_size, "cannot read the capture", path);
    }
    fclose(file);
    c->text[size] = 0;
    // Count first, then fill.
    int64_t executions = 0, statements = 0, arguments = 0;
    for (char *p = c->text; p < c->text + size;) {
        char kind = *p;
        if (kind == 'S') {
            statements++;
            long length = strtol(p + 2, &p, 10);
            p += 1 + length;
        } else if (kind == 'E') {
            executions++;
            strtol(p + 2, &p, 10);
            strtol(p, &p, 10);
            long count = strtol(p, &p, 10);
            arguments += count;
            for (long i = 0; i < count; i++) {
                p++;
                char type = *p++;
                if (type == 't' || type == 'b') {
                    long length = strtol(p, &p, 10);
                    p += 1 + length;
                } else if (type == 'i' || type == 'r') {
                    while (*p != ' ' && *p != '\n') p++;
                }
            }
        }
        while (p < c->text + size && *p != '\n') p++;
        p++;
    }
    c->statements = calloc((size_t)statements + 1, sizeof(char *));
    c->statement_lengths = calloc((size_t)statements + 1, sizeof(int));
    c->executions = calloc((size_t)executions + 1, sizeof(execution));
    c->argument_storage = calloc((size_t)arguments + 1, sizeof(argument));
    argument *next_argument = c->argument_storage;
    for (char *p = c->text; p < c->text + size;) {
        char kind = *p;
        if (kind == 'C') {
            c->connection_count = (int)strtol(p + 2, &p, 10);
        } else if (kind == 'S') {
            long length = strtol(p + 2, &p, 10);
            c->statements[c->statement_count] = p + 1;
            c->statement_lengths[c->statement_count++] = (int)length;
            p += 1 + length;
        } else if (kind == 'E') {
            execution *e = &c->executions[c->execution_count++];
            e->connection = (int)strtol(p + 2, &p, 10);
            e->statement = (int)strtol(p, &p, 10);
            e->argument_count = (int)strtol(p, &p, 10);
            e->arguments = next_argument;
            for (int i = 0; i < e->argument_count; i++) {
                argument *a = next_argument++;
                p++;
                char type = *p++;
                a->type = type;
                if (type == 'i') a->integer = strtoll(p, &p, 10);
                else if (type == 'r') a->real = strtod(p, &p);
                else if (type == 't' || type == 'b') {
                    a->length = (int)strtol(p, &p, 10);
                    a->bytes = p + 1;
                    p += 1 + a->length;
                }
            }
        }
        while (p < c->text + size && *p != '\n') p++;
        p++;
    }
    if (c->connection_count < 1) return fail(error, error_size, "the capture names no connection", path);
    return 0;
}

static void free_capture(capture *c) {
    free(c->text);
    free(c->statements);
    free(c->statement_lengths);
    free(c->executions);
    free(c->argument_storage);
}

// Rows in memory: an arena of copied values, and an open-addressing hash
// map from a row's key (its first integer column) to its first text value.
typedef struct {
    int64_t key;
    const char *text;
    int length;
    int used;
} slot;

typedef struct {
    slot *slots;
    size_t capacity;
    size_t count;
    char *arena;
    size_t arena_size;
    size_t arena_used;
} memory;

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

static const char *keep(memory *m, const void *bytes, int length) {
    if (m->arena_used + (size_t)length + 1 > m->arena_size) {
        // A new block; earlier values stay where they are (and stay
        // allocated: a replay is one short process).
        m->arena_size = m->arena_size * 2 + (size_t)length + 4096;
        m->arena = malloc(m->arena_size);
        m->arena_used = 0;
    }
    char *copy = m->arena + m->arena_used;
    memcpy(copy, bytes, (size_t)length);
    copy[length] = 0;
    m->arena_used += (size_t)length + 1;
    return copy;
}

static void grow(memory *m);

static void put(memory *m, int64_t key, const char *text, int length) {
    if ((m->count + 1) * 2 > m->capacity) grow(m);
    size_t i = mix((uint64_t)key) & (m->capacity - 1);
    while (m->slots[i].used && m->slots[i].key != key) i = (i + 1) & (m->capacity - 1);
    if (!m->slots[i].used) m->count++;
    m->slots[i] = (slot){key, text, length, 1};
}

static void grow(memory *m) {
    slot *old = m->slots;
    size_t capacity = m->capacity;
    m->capacity = capacity ? capacity * 2 : 1024;
    m->slots = calloc(m->capacity, sizeof(slot));
    m->count = 0;
    for (size_t i = 0; i < capacity; i++)
        if (old[i].used) put(m, old[i].key, old[i].text, old[i].length);
    free(old);
}

static const slot *get(const memory *m, int64_t key) {
    if (!m->capacity) return NULL;
    size_t i = mix((uint64_t)key) & (m->capacity - 1);
    while (m->slots[i].used) {
        if (m->slots[i].key == key) return &m->slots[i];
        i = (i + 1) & (m->capacity - 1);
    }
    return NULL;
}

void climit_keep_heap(void) {
#ifdef __linux__
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
#endif
}

void climit_measured_begin(void) { __asm__ volatile("" ::: "memory"); }
void climit_measured_end(void) { __asm__ volatile("" ::: "memory"); }

// The replay's work, the warm-up's and the measured one's alike.
__attribute__((noinline)) static int climit_work(sqlite3 **connections, sqlite3_stmt **prepared, const capture *c,
                                                 int64_t accesses, memory *m, climit_result *result, char *error,
                                                 size_t error_size) {
    double start = now();
    int64_t *keys = NULL;
    size_t key_count = 0, key_capacity = 0;
    for (int64_t n = 0; n < c->execution_count; n++) {
        const execution *e = &c->executions[n];
        sqlite3 *db = connections[e->connection];
        sqlite3_stmt **slot_pointer = &prepared[(size_t)e->connection * (size_t)c->statement_count + (size_t)e->statement];
        if (!*slot_pointer) {
            int code = sqlite3_prepare_v3(db, c->statements[e->statement], c->statement_lengths[e->statement],
                                          SQLITE_PREPARE_PERSISTENT, slot_pointer, NULL);
            if (code != SQLITE_OK) return fail(error, error_size, "cannot prepare", sqlite3_errmsg(db));
        }
        sqlite3_stmt *statement = *slot_pointer;
        for (int i = 0; i < e->argument_count; i++) {
            const argument *a = &e->arguments[i];
            switch (a->type) {
            case 'n': sqlite3_bind_null(statement, i + 1); break;
            case 'i': sqlite3_bind_int64(statement, i + 1, a->integer); break;
            case 'r': sqlite3_bind_double(statement, i + 1, a->real); break;
            case 't': sqlite3_bind_text(statement, i + 1, a->bytes, a->length, SQLITE_STATIC); break;
            case 'b': sqlite3_bind_blob(statement, i + 1, a->bytes, a->length, SQLITE_STATIC); break;
            }
        }
        int columns = sqlite3_column_count(statement);
        int code;
        while ((code = sqlite3_step(statement)) == SQLITE_ROW) {
            result->rows_read++;
            int64_t key = result->rows_read;
            const char *text = NULL;
            int length = 0;
            int keyed = 0;
            for (int column = 0; column < columns; column++) {
                switch (sqlite3_column_type(statement, column)) {
                case SQLITE_INTEGER:
                    if (!keyed) {
                        key = sqlite3_column_int64(statement, column);
                        keyed = 1;
                    } else {
                        volatile int64_t value = sqlite3_column_int64(statement, column);
                        (void)value;
                    }
                    break;
                case SQLITE_FLOAT: {
                    volatile double value = sqlite3_column_double(statement, column);
                    (void)value;
                    break;
                }
                case SQLITE_TEXT:
                case SQLITE_BLOB: {
                    const void *bytes = sqlite3_column_blob(statement, column);
                    int size = sqlite3_column_bytes(statement, column);
                    const char *copy = keep(m, bytes, size);
                    if (!text) {
                        text = copy;
                        length = size;
                    }
                    break;
                }
                default: break;
                }
            }
            // Rows with a value (objects, not join rows) are what accesses read.
            if (!text) continue;
            put(m, key, text, length);
            if (key_count == key_capacity) {
                key_capacity = key_capacity ? key_capacity * 2 : 1024;
                keys = realloc(keys, key_capacity * sizeof *keys);
            }
            keys[key_count++] = key;
        }
        if (code != SQLITE_DONE) {
            // Folded transactions: a BEGIN inside one, a COMMIT outside one.
            const char *message = sqlite3_errmsg(db);
            if (!strstr(message, "within a transaction") && !strstr(message, "no transaction is active")) {
                free(keys);
                return fail(error, error_size, c->statements[e->statement], message);
            }
        }
        result->rows_changed += sqlite3_stmt_readonly(statement) ? 0 : sqlite3_changes64(db);
        sqlite3_reset(statement);
        sqlite3_clear_bindings(statement);
        result->statements++;
    }
    double accessed = now();
    // The in-memory work per object access: look the row up, copy its value.
    char scratch[256];
    volatile size_t copied = 0;
    for (int64_t n = 0; n < accesses && key_count; n++) {
        const slot *s = get(m, keys[(size_t)n % key_count]);
        if (s && s->text) {
            size_t length = (size_t)s->length < sizeof scratch ? (size_t)s->length : sizeof scratch;
            memcpy(scratch, s->text, length);
            copied += length;
        }
    }
    (void)copied;
    double end = now();
    result->seconds = end - start;
    result->access_seconds = end - accessed;
    free(keys);
    return 0;
}

// faultline_like(text, pattern, options) as C does it at best: the LIKE
// pattern (`*`, `?`) turned into a GLOB pattern once per statement (kept as
// auxiliary data) and matched per row with sqlite3_strglob. Folding
// options are not in the C limit: a pattern with any is an error.
static void like_free(void *pattern) { free(pattern); }

static void faultline_like(sqlite3_context *context, int count, sqlite3_value **values) {
    (void)count;
    if (sqlite3_value_type(values[0]) == SQLITE_NULL || sqlite3_value_type(values[1]) == SQLITE_NULL) {
        sqlite3_result_null(context);
        return;
    }
    if (sqlite3_value_int(values[2]) != 0) {
        sqlite3_result_error(context, "faultline_like: the C limit has no [c] or [d] folding", -1);
        return;
    }
    char *glob = sqlite3_get_auxdata(context, 1);
    if (glob == NULL) {
        const unsigned char *pattern = sqlite3_value_text(values[1]);
        int length = sqlite3_value_bytes(values[1]);
        glob = malloc((size_t)length * 3 + 1);
        char *out = glob;
        for (int i = 0; i < length; i++) {
            if (pattern[i] == '[') { memcpy(out, "[[]", 3); out += 3; } else { *out++ = (char)pattern[i]; }
        }
        *out = 0;
        sqlite3_set_auxdata(context, 1, glob, like_free);
        glob = sqlite3_get_auxdata(context, 1);
        if (glob == NULL) {
            sqlite3_result_error_nomem(context);
            return;
        }
    }
    sqlite3_result_int(context, sqlite3_strglob(glob, (const char *)sqlite3_value_text(values[0])) == 0);
}

// The measured replay's work, in a function of its own: callgrind counts
// it alone (`--toggle-collect=climit_measured`), never the warm-up's.
__attribute__((noinline)) static int climit_measured(sqlite3 **connections, sqlite3_stmt **prepared, const capture *c,
                                                     int64_t accesses, memory *m, climit_result *result, char *error,
                                                     size_t error_size) {
    return climit_work(connections, prepared, c, accesses, m, result, error, error_size);
}

int climit_replay(const char *db_path, const char *capture_path, int64_t accesses, int measured, climit_result *result,
                  char *error, size_t error_size) {
    memset(result, 0, sizeof *result);
    capture c;
    if (read_capture(capture_path, &c, error, error_size) != 0) return -1;
    sqlite3 **connections = calloc((size_t)c.connection_count, sizeof(sqlite3 *));
    for (int i = 0; i < c.connection_count; i++) {
        if (sqlite3_open_v2(db_path, &connections[i], SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
            free_capture(&c);
            return fail(error, error_size, "cannot open", db_path);
        }
        // The engine's settings: WAL, synchronous=NORMAL, a busy timeout.
        sqlite3_exec(connections[i], "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL", NULL, NULL, NULL);
        sqlite3_busy_timeout(connections[i], 5000);
        sqlite3_create_function_v2(connections[i], "faultline_like", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, faultline_like,
                                   NULL, NULL, NULL);
    }
    sqlite3_stmt **prepared = calloc((size_t)c.connection_count * (size_t)c.statement_count + 1, sizeof(sqlite3_stmt *));
    memory m = {0};
    int status;
    if (measured) {
        climit_measured_begin();
        status = climit_measured(connections, prepared, &c, accesses, &m, result, error, error_size);
        climit_measured_end();
    } else {
        status = climit_work(connections, prepared, &c, accesses, &m, result, error, error_size);
    }
    for (size_t i = 0; i < (size_t)c.connection_count * (size_t)c.statement_count; i++) sqlite3_finalize(prepared[i]);
    for (int i = 0; i < c.connection_count; i++) sqlite3_close_v2(connections[i]);
    free(prepared);
    free(connections);
    free(m.slots);
    free_capture(&c);
    return status;
}
