#include "ccurl.h"

#include <authsh_loader.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

typedef int (*setopt_fn)(void *, int, ...);
typedef int (*getinfo_fn)(void *, int, ...);

static const char empty_body[1] = "";
const void *authsh_curl_empty_body(void) { return empty_body; }

static struct {
  void *(*easy_init)(void);
  void (*easy_cleanup)(void *);
  void (*easy_reset)(void *);
  int (*easy_perform)(void *);
  setopt_fn easy_setopt;
  getinfo_fn easy_getinfo;
  const char *(*easy_strerror)(int);
  void *(*slist_append)(void *, const char *);
  void (*slist_free_all)(void *);
  int (*global_init)(long);
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static const char *loaded_name = "";
static char load_error[512] = "";

// Debian and Ubuntu name the OpenSSL build libcurl.so.4 and the GnuTLS one libcurl-gnutls.so.4;
// macOS ships libcurl.4.dylib.
static const char *const names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.4.dylib", "libcurl.so"};

static void load(void) {
  const char *why = NULL;
  void *handle = authsh_dlopen_first(names, sizeof names / sizeof names[0], &loaded_name, &why);
  if (handle == NULL) {
    snprintf(load_error, sizeof load_error, "libcurl is not installed (looked for libcurl.so.4 and libcurl-gnutls.so.4)");
    return;
  }
#define SYMBOL(field, name) AUTHSH_RESOLVE(handle, curl.field, name, loaded_name)
  SYMBOL(easy_init, "curl_easy_init")
  SYMBOL(easy_cleanup, "curl_easy_cleanup")
  SYMBOL(easy_reset, "curl_easy_reset")
  SYMBOL(easy_perform, "curl_easy_perform")
  SYMBOL(easy_setopt, "curl_easy_setopt")
  SYMBOL(easy_getinfo, "curl_easy_getinfo")
  SYMBOL(easy_strerror, "curl_easy_strerror")
  SYMBOL(slist_append, "curl_slist_append")
  SYMBOL(slist_free_all, "curl_slist_free_all")
  SYMBOL(global_init, "curl_global_init")
#undef SYMBOL
  // CURL_GLOBAL_DEFAULT (SSL | WIN32): once, before any thread uses an easy handle.
  if (curl.global_init(3) != 0) {
    snprintf(load_error, sizeof load_error, "curl_global_init failed in %s", loaded_name);
    return;
  }
  loaded = 1;
}

int authsh_curl_load(void) {
  pthread_once(&once, load);
  return loaded;
}

const char *authsh_curl_load_error(void) { return load_error; }
const char *authsh_curl_loaded_name(void) { return loaded_name; }

void *authsh_curl_easy_init(void) { return curl.easy_init(); }
void authsh_curl_easy_cleanup(void *easy) { curl.easy_cleanup(easy); }
void authsh_curl_easy_reset(void *easy) { curl.easy_reset(easy); }
long authsh_curl_perform(void *easy) { return curl.easy_perform(easy); }

long authsh_curl_setopt_long(void *easy, long option, long value) { return curl.easy_setopt(easy, (int)option, value); }
long authsh_curl_setopt_pointer(void *easy, long option, const void *value) { return curl.easy_setopt(easy, (int)option, value); }
long authsh_curl_setopt_string(void *easy, long option, const char *value) { return curl.easy_setopt(easy, (int)option, value); }
long authsh_curl_setopt_size(void *easy, long option, int64_t value) {
  return curl.easy_setopt(easy, (int)option, (long long)value);
}
long authsh_curl_setopt_data_callback(void *easy, long option, authsh_curl_data_callback callback) {
  return curl.easy_setopt(easy, (int)option, callback);
}
long authsh_curl_setopt_progress_callback(void *easy, long option, authsh_curl_progress_callback callback) {
  return curl.easy_setopt(easy, (int)option, callback);
}

long authsh_curl_response_code(void *easy) {
  long code = 0;
  // CURLINFO_RESPONSE_CODE: CURLINFO_LONG (0x200000) + 2.
  if (curl.easy_getinfo(easy, 0x200002, &code) != 0) return 0;
  return code;
}

const char *authsh_curl_strerror(long code) { return curl.easy_strerror((int)code); }
void *authsh_curl_slist_append(void *list, const char *line) { return curl.slist_append(list, line); }
void authsh_curl_slist_free_all(void *list) { curl.slist_free_all(list); }
