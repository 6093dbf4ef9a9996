// malloc_trim(0) for JavaScript (src/shared/malloc-trim.ts): glibc keeps the free chunks that a
// burst of allocations leaves inside its arenas; malloc_trim hands their whole pages back to the
// system. Context-aware (NAPI_MODULE_INIT), so worker threads may load it too.
#include <malloc.h>
#include <node_api.h>

static napi_value Trim(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value released;
  napi_get_boolean(env, malloc_trim(0) != 0, &released);
  return released;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "trim", NAPI_AUTO_LENGTH, Trim, NULL, &fn);
  napi_set_named_property(env, exports, "trim", fn);
  return exports;
}
