#ifndef AUTHSH_CPQ_H
#define AUTHSH_CPQ_H
// libpq (PostgreSQL's client library), loaded at run time (dlopen) by `user export --db` alone:
// neither start-up nor any other command maps it and the libraries it needs (OpenSSL, Kerberos,
// LDAP). No libpq header is needed to build: the few numbers below are libpq's stable ABI
// (libpq-fe.h and postgres_ext.h, unchanged since libpq.so.5 of PostgreSQL 8.0).

enum {
  AUTHSH_CONNECTION_OK = 0,       // ConnStatusType CONNECTION_OK
  AUTHSH_PGRES_COMMAND_OK = 1,    // ExecStatusType
  AUTHSH_PGRES_TUPLES_OK = 2,
  AUTHSH_PG_DIAG_SQLSTATE = 'C',  // PQresultErrorField's field codes
  AUTHSH_PG_DIAG_MESSAGE_PRIMARY = 'M',
};

/// Loads libpq once (thread-safe). 1 when loaded, 0 when no libpq.so.5 (or a symbol authsh
/// needs) is there; `authsh_pq_load_error` then says why.
int authsh_pq_load(void);
const char *authsh_pq_load_error(void);
/// The soname that was loaded.
const char *authsh_pq_loaded_name(void);

/// PQconnectdbParams(keywords, values, 0): NULL-terminated arrays; libpq copies them.
void *authsh_pq_connect(const char *const *keywords, const char *const *values);
int authsh_pq_status(const void *connection);
/// PQerrorMessage: the last failure's text, owned by the connection.
const char *authsh_pq_error_message(const void *connection);
void authsh_pq_finish(void *connection);
/// PQgetCancel: what `authsh_pq_cancel` needs, made once while no statement runs.
void *authsh_pq_get_cancel(void *connection);
/// PQcancel: asks the server (on a connection of its own) to stop the running statement. Safe
/// from any thread while another waits in `authsh_pq_exec`. 1 when the request was sent.
int authsh_pq_cancel(void *cancel);
void authsh_pq_free_cancel(void *cancel);

/// PQexecParams with text parameters (NULL values are SQL NULLs), types left to the server, rows
/// in text form.
void *authsh_pq_exec(void *connection, const char *sql, int count, const char *const *values);
int authsh_pq_result_status(const void *result);
/// The SQLSTATE or the primary message of a failed statement (NULL when there is none).
const char *authsh_pq_result_error_field(const void *result, int field);
const char *authsh_pq_result_error_message(const void *result);
int authsh_pq_ntuples(const void *result);
int authsh_pq_nfields(const void *result);
const char *authsh_pq_fname(const void *result, int column);
/// The value's text (never NULL: "" for a SQL NULL; ask `authsh_pq_getisnull`).
const char *authsh_pq_getvalue(const void *result, int row, int column);
int authsh_pq_getisnull(const void *result, int row, int column);
void authsh_pq_clear(void *result);

#endif
