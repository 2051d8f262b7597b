#include "authsh_loader.h"

#include <dlfcn.h>

void *authsh_dlopen_first(const char *const *names, size_t count, const char **loaded_name, const char **why) {
  *why = "not found";
  for (size_t i = 0; i < count; i++) {
    void *handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (handle != NULL) {
      *loaded_name = names[i];
      return handle;
    }
    const char *error = dlerror();
    if (error != NULL) *why = error;
  }
  return NULL;
}

void *authsh_dlsym(void *handle, const char *name) { return dlsym(handle, name); }
