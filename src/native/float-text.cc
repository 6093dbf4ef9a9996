// Float32 arrays as JSON text at native speed (src/shared/float-text.ts): each value as the
// shortest decimal that reads back to the same float32 (std::to_chars, which chooses the nearest
// such decimal), laid out as JavaScript's Number#toString lays out that decimal, so the text is
// byte for byte what JSON.stringify writes for float.ts's float32ToNumber of each value.
// Context-aware (NAPI_MODULE_INIT): worker threads load it too.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <node_api.h>

namespace {

// The most bytes one value takes, a comma before it: 22 for "-100000000000000000000" (1e20; up
// to 21 digits are written out in full), 17 for "-0.0000012345678" (down to 1e-6 likewise).
constexpr size_t MAX_VALUE_BYTES = 24;

// One value at out; answers where it ends.
char* WriteValue(float x, char* out) {
  if (!std::isfinite(x)) {
    std::memcpy(out, "null", 4);
    return out + 4;
  }
  if (x == 0) {
    *out = '0';  // -0 too, as JSON.stringify writes it
    return out + 1;
  }
  // Scientific form gives the digits and the exponent: "-d.ddde-xx".
  char sci[32];
  auto res = std::to_chars(sci, sci + sizeof sci, x, std::chars_format::scientific);
  const char* p = sci;
  if (*p == '-') *out++ = *p++;
  char digits[12];
  int k = 0;
  for (; p < res.ptr && *p != 'e'; p++)
    if (*p != '.') digits[k++] = *p;
  int exp10 = 0;
  std::from_chars(p + 1 + (p[1] == '+'), res.ptr, exp10);
  // ECMAScript's Number::toString: value = 0.digits x 10^n.
  const int n = exp10 + 1;
  if (k <= n && n <= 21) {
    std::memcpy(out, digits, k);
    out += k;
    for (int i = k; i < n; i++) *out++ = '0';
  } else if (0 < n && n <= 21) {
    std::memcpy(out, digits, n);
    out += n;
    *out++ = '.';
    std::memcpy(out, digits + n, k - n);
    out += k - n;
  } else if (-6 < n && n <= 0) {
    *out++ = '0';
    *out++ = '.';
    for (int i = 0; i < -n; i++) *out++ = '0';
    std::memcpy(out, digits, k);
    out += k;
  } else {
    *out++ = digits[0];
    if (k > 1) {
      *out++ = '.';
      std::memcpy(out, digits + 1, k - 1);
      out += k - 1;
    }
    *out++ = 'e';
    *out++ = n - 1 < 0 ? '-' : '+';
    out = std::to_chars(out, out + 4, n - 1 < 0 ? 1 - n : n - 1).ptr;
  }
  return out;
}

bool TypedArray(napi_env env, napi_value v, napi_typedarray_type want, void** data, size_t* length) {
  bool is = false;
  if (napi_is_typedarray(env, v, &is) != napi_ok || !is) return false;
  napi_typedarray_type type;
  napi_value buffer;
  size_t offset;
  if (napi_get_typedarray_info(env, v, &type, length, data, &buffer, &offset) != napi_ok) return false;
  return type == want;
}

// writeArrayJson(values: Float32Array, out: Uint8Array, at: number) -> the end offset; `out` must
// hold at least at + 2 + 24 * values.length bytes (float.ts float32ArrayJsonBytes).
napi_value WriteArrayJson(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  float* values = nullptr;
  uint8_t* out = nullptr;
  size_t count = 0, room = 0;
  double at = 0;
  if (napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr) != napi_ok || argc < 3 ||
      !TypedArray(env, argv[0], napi_float32_array, reinterpret_cast<void**>(&values), &count) ||
      !TypedArray(env, argv[1], napi_uint8_array, reinterpret_cast<void**>(&out), &room) ||
      napi_get_value_double(env, argv[2], &at) != napi_ok || !(at >= 0) || at + 2 + MAX_VALUE_BYTES * count > room) {
    napi_throw_type_error(env, nullptr, "writeArrayJson(values: Float32Array, out: Uint8Array, at: number) needs room for 2 + 24 bytes a value after at");
    return nullptr;
  }
  char* w = reinterpret_cast<char*>(out) + static_cast<size_t>(at);
  char* const start = reinterpret_cast<char*>(out);
  *w++ = '[';
  for (size_t i = 0; i < count; i++) {
    if (i > 0) *w++ = ',';
    w = WriteValue(values[i], w);
  }
  *w++ = ']';
  napi_value end;
  napi_create_double(env, static_cast<double>(w - start), &end);
  return end;
}

}  // namespace

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "writeArrayJson", NAPI_AUTO_LENGTH, WriteArrayJson, nullptr, &fn);
  napi_set_named_property(env, exports, "writeArrayJson", fn);
  return exports;
}
