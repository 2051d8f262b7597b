#include "cpq.h"

#include <authsh_loader.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

static struct {
  void *(*connectdb_params)(const char *const *, const char *const *, int);
  int (*status)(const void *);
  char *(*error_message)(const void *);
  void (*finish)(void *);
  void *(*get_cancel)(void *);
  int (*cancel)(void *, char *, int);
  void (*free_cancel)(void *);
  void *(*exec_params)(void *, const char *, int, const unsigned int *, const char *const *, const int *, const int *, int);
  int (*result_status)(const void *);
  char *(*result_error_field)(const void *, int);
  char *(*result_error_message)(const void *);
  int (*ntuples)(const void *);
  int (*nfields)(const void *);
  char *(*fname)(const void *, int);
  char *(*getvalue)(const void *, int, int);
  int (*getisnull)(const void *, int, int);
  void (*clear)(void *);
} pq;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static const char *loaded_name = "";
static char load_error[512] = "";

// Debian and Ubuntu's libpq5 package installs libpq.so.5; macOS (Homebrew) libpq.5.dylib.
static const char *const names[] = {"libpq.so.5", "libpq.5.dylib"};

static void load(void) {
  const char *why = NULL;
  void *handle = authsh_dlopen_first(names, sizeof names / sizeof names[0], &loaded_name, &why);
  if (handle == NULL) {
    snprintf(load_error, sizeof load_error, "libpq.so.5 could not be loaded (%s)", why);
    return;
  }
#define SYMBOL(field, name) AUTHSH_RESOLVE(handle, pq.field, name, loaded_name)
  SYMBOL(connectdb_params, "PQconnectdbParams")
  SYMBOL(status, "PQstatus")
  SYMBOL(error_message, "PQerrorMessage")
  SYMBOL(finish, "PQfinish")
  SYMBOL(get_cancel, "PQgetCancel")
  SYMBOL(cancel, "PQcancel")
  SYMBOL(free_cancel, "PQfreeCancel")
  SYMBOL(exec_params, "PQexecParams")
  SYMBOL(result_status, "PQresultStatus")
  SYMBOL(result_error_field, "PQresultErrorField")
  SYMBOL(result_error_message, "PQresultErrorMessage")
  SYMBOL(ntuples, "PQntuples")
  SYMBOL(nfields, "PQnfields")
  SYMBOL(fname, "PQfname")
  SYMBOL(getvalue, "PQgetvalue")
  SYMBOL(getisnull, "PQgetisnull")
  SYMBOL(clear, "PQclear")
#undef SYMBOL
  loaded = 1;
}

int authsh_pq_load(void) {
  pthread_once(&once, load);
  return loaded;
}

const char *authsh_pq_load_error(void) { return load_error; }
const char *authsh_pq_loaded_name(void) { return loaded_name; }

void *authsh_pq_connect(const char *const *keywords, const char *const *values) {
  return pq.connectdb_params(keywords, values, 0);
}
int authsh_pq_status(const void *connection) { return pq.status(connection); }
const char *authsh_pq_error_message(const void *connection) { return pq.error_message(connection); }
void authsh_pq_finish(void *connection) { pq.finish(connection); }
void *authsh_pq_get_cancel(void *connection) { return pq.get_cancel(connection); }
int authsh_pq_cancel(void *cancel) {
  char reason[256];
  return pq.cancel(cancel, reason, (int)sizeof reason);
}
void authsh_pq_free_cancel(void *cancel) { pq.free_cancel(cancel); }

void *authsh_pq_exec(void *connection, const char *sql, int count, const char *const *values) {
  return pq.exec_params(connection, sql, count, NULL, values, NULL, NULL, 0);
}
int authsh_pq_result_status(const void *result) { return pq.result_status(result); }
const char *authsh_pq_result_error_field(const void *result, int field) { return pq.result_error_field(result, field); }
const char *authsh_pq_result_error_message(const void *result) { return pq.result_error_message(result); }
int authsh_pq_ntuples(const void *result) { return pq.ntuples(result); }
int authsh_pq_nfields(const void *result) { return pq.nfields(result); }
const char *authsh_pq_fname(const void *result, int column) { return pq.fname(result, column); }
const char *authsh_pq_getvalue(const void *result, int row, int column) { return pq.getvalue(result, row, column); }
int authsh_pq_getisnull(const void *result, int row, int column) { return pq.getisnull(result, row, column); }
void authsh_pq_clear(void *result) { pq.clear(result); }
