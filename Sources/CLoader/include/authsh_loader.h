#ifndef AUTHSH_LOADER_H
#define AUTHSH_LOADER_H

#include <stddef.h>
#include <stdio.h>

// Loading a C library at run time (libcurl for https://, libpq for --db): authsh never links
// them, so a machine without them runs everything else, and start-up maps neither.

// dlopen's the first of `names` that opens (RTLD_NOW | RTLD_LOCAL); NULL when none does, with
// dlerror's words for the last attempt in `why` (or "not found").
void *authsh_dlopen_first(const char *const *names, size_t count, const char **loaded_name, const char **why);

// In a `static void load(void)` that fills `load_error[]`: resolves `name` in `handle` into the
// function pointer `field`, or says which function the library lacks and returns.
#define AUTHSH_RESOLVE(handle, field, name, loaded_name)                                      \
  *(void **)(&(field)) = authsh_dlsym(handle, name);                                          \
  if ((field) == NULL) {                                                                      \
    snprintf(load_error, sizeof load_error, "%s has no %s (too old?)", loaded_name, name);    \
    return;                                                                                   \
  }

void *authsh_dlsym(void *handle, const char *name);

#endif
