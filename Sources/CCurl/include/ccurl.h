#ifndef AUTHSH_CCURL_H
#define AUTHSH_CCURL_H
// libcurl's easy interface, loaded at run time (dlopen) so that neither start-up nor a plain
// http:// run maps libcurl and the ~30 libraries it needs. No curl header is needed to build:
// the few option and error numbers below are libcurl's stable ABI (curl.h, unchanged since 7.x).
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call; these wrappers
// call them with one argument of the type each option takes.
#include <stddef.h>
#include <stdint.h>

enum {
  AUTHSH_CURLOPT_WRITEDATA = 10001,
  AUTHSH_CURLOPT_URL = 10002,
  AUTHSH_CURLOPT_ERRORBUFFER = 10010,
  AUTHSH_CURLOPT_WRITEFUNCTION = 20011,
  AUTHSH_CURLOPT_POSTFIELDS = 10015,
  AUTHSH_CURLOPT_HTTPHEADER = 10023,
  AUTHSH_CURLOPT_HEADERDATA = 10029,
  AUTHSH_CURLOPT_CUSTOMREQUEST = 10036,
  AUTHSH_CURLOPT_NOPROGRESS = 43,
  AUTHSH_CURLOPT_NOBODY = 44,
  AUTHSH_CURLOPT_HTTPGET = 80,
  AUTHSH_CURLOPT_NOSIGNAL = 99,
  AUTHSH_CURLOPT_ACCEPT_ENCODING = 10102,
  AUTHSH_CURLOPT_CAINFO = 10065,
  AUTHSH_CURLOPT_HEADERFUNCTION = 20079,
  AUTHSH_CURLOPT_POSTFIELDSIZE_LARGE = 30120,
  AUTHSH_CURLOPT_TIMEOUT_MS = 155,
  AUTHSH_CURLOPT_CONNECTTIMEOUT_MS = 156,
  AUTHSH_CURLOPT_XFERINFODATA = 10057,
  AUTHSH_CURLOPT_XFERINFOFUNCTION = 20219,
  AUTHSH_CURLOPT_PROTOCOLS_STR = 10318,
  AUTHSH_CURLOPT_PROTOCOLS = 181,
  AUTHSH_CURLPROTO_HTTP_HTTPS = 3,
  AUTHSH_CURLOPT_USERAGENT = 10018,
  AUTHSH_CURL_ERROR_SIZE = 256,
};

enum {
  AUTHSH_CURLE_OK = 0,
  AUTHSH_CURLE_UNSUPPORTED_PROTOCOL = 1,
  AUTHSH_CURLE_URL_MALFORMAT = 3,
  AUTHSH_CURLE_COULDNT_RESOLVE_PROXY = 5,
  AUTHSH_CURLE_COULDNT_RESOLVE_HOST = 6,
  AUTHSH_CURLE_COULDNT_CONNECT = 7,
  AUTHSH_CURLE_WEIRD_SERVER_REPLY = 8,
  AUTHSH_CURLE_HTTP2 = 16,
  AUTHSH_CURLE_PARTIAL_FILE = 18,
  AUTHSH_CURLE_WRITE_ERROR = 23,
  AUTHSH_CURLE_OPERATION_TIMEDOUT = 28,
  AUTHSH_CURLE_SSL_CONNECT_ERROR = 35,
  AUTHSH_CURLE_ABORTED_BY_CALLBACK = 42,
  AUTHSH_CURLE_GOT_NOTHING = 52,
  AUTHSH_CURLE_UNKNOWN_OPTION = 48,
  AUTHSH_CURLE_SEND_ERROR = 55,
  AUTHSH_CURLE_RECV_ERROR = 56,
  AUTHSH_CURLE_SSL_CERTPROBLEM = 58,
  AUTHSH_CURLE_SSL_CIPHER = 59,
  AUTHSH_CURLE_PEER_FAILED_VERIFICATION = 60,
  AUTHSH_CURLE_SSL_CACERT_BADFILE = 77,
  AUTHSH_CURLE_SSL_CRL_BADFILE = 82,
  AUTHSH_CURLE_SSL_ISSUER_ERROR = 83,
  AUTHSH_CURLE_SSL_PINNEDPUBKEYNOTMATCH = 90,
  AUTHSH_CURLE_SSL_INVALIDCERTSTATUS = 91,
  AUTHSH_CURLE_HTTP2_STREAM = 92,
};

typedef size_t (*authsh_curl_data_callback)(char *data, size_t size, size_t count, void *user);
typedef int (*authsh_curl_progress_callback)(void *user, int64_t dltotal, int64_t dlnow, int64_t ultotal, int64_t ulnow);

/// Loads libcurl once (thread-safe) and runs curl_global_init. 1 when loaded, 0 when no libcurl
/// (or a symbol authsh needs) is there; `authsh_curl_load_error` then says why.
int authsh_curl_load(void);
const char *authsh_curl_load_error(void);
/// The soname that was loaded.
const char *authsh_curl_loaded_name(void);

void *authsh_curl_easy_init(void);
void authsh_curl_easy_cleanup(void *easy);
void authsh_curl_easy_reset(void *easy);
long authsh_curl_perform(void *easy);
long authsh_curl_setopt_long(void *easy, long option, long value);
long authsh_curl_setopt_pointer(void *easy, long option, const void *value);
/// A string option (libcurl copies it).
long authsh_curl_setopt_string(void *easy, long option, const char *value);
long authsh_curl_setopt_size(void *easy, long option, int64_t value);
long authsh_curl_setopt_data_callback(void *easy, long option, authsh_curl_data_callback callback);
long authsh_curl_setopt_progress_callback(void *easy, long option, authsh_curl_progress_callback callback);
/// The last HTTP status received, or 0.
long authsh_curl_response_code(void *easy);
/// A body of no bytes that stays valid for the whole transfer (POSTFIELDS is not copied).
const void *authsh_curl_empty_body(void);
const char *authsh_curl_strerror(long code);
void *authsh_curl_slist_append(void *list, const char *line);
void authsh_curl_slist_free_all(void *list);

#endif
