// malloc_trim(0) for JavaScript (src/shared/malloc-trim.ts): glibc keeps the free chunks that a
// burst of allocations leaves inside its arenas; malloc_trim hands their whole pages back to the
// system. And mallopt(M_MMAP_THRESHOLD) (mmapThreshold): glibc raises its mmap threshold to the
// size of each mmapped block freed (up to 32 MiB), after which megabyte request bodies come from
// the arenas and stay there; a threshold set by mallopt stays put. Context-aware
// (NAPI_MODULE_INIT), so worker threads may load it too.
#include <malloc.h>
#include <node_api.h>

static napi_value Trim(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value released;
  napi_get_boolean(env, malloc_trim(0) != 0, &released);
  return released;
}

static napi_value MmapThreshold(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  double bytes = -1;
  napi_value ok;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 || napi_get_value_double(env, argv[0], &bytes) != napi_ok || !(bytes >= 0 && bytes <= 32.0 * 1024 * 1024)) {
    napi_throw_range_error(env, NULL, "mmapThreshold takes a byte count from 0 to 32 MiB");
    return NULL;
  }
  napi_get_boolean(env, mallopt(M_MMAP_THRESHOLD, (int)bytes) == 1, &ok);
  return ok;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "trim", NAPI_AUTO_LENGTH, Trim, NULL, &fn);
  napi_set_named_property(env, exports, "trim", fn);
  napi_create_function(env, "mmapThreshold", NAPI_AUTO_LENGTH, MmapThreshold, NULL, &fn);
  napi_set_named_property(env, exports, "mmapThreshold", fn);
  return exports;
}
