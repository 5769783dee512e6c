// Non-inlined function calls: by-value arguments, structs returned by value, private and
// global pointer parameters, and calls from calls.
typedef struct {
  int q;
  int r;
} DivMod;

__attribute__((noinline)) DivMod divmod(int a, int b) {
  DivMod d;
  d.q = a / b;
  d.r = a % b;
  return d;
}

// Writes through a private pointer and returns a value.
__attribute__((noinline)) int minmax(int a, int b, int* hi) {
  *hi = a > b ? a : b;
  return a < b ? a : b;
}

// Reads through a global pointer.
__attribute__((noinline)) int sum3(global const int* p) { return p[0] + p[1] + p[2]; }

__attribute__((noinline)) uint mix(uint x) {
  x ^= x >> 7;
  x *= 0x85ebca6bu;
  return x ^ (x >> 13);
}

__attribute__((noinline)) uint twice_mixed(uint x) { return mix(mix(x)); }

kernel void calls_noinline(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  int a = in[3 * i], b = in[3 * i + 1];
  int d = b == 0 ? 7 : b;
  DivMod dm = divmod(a, d);
  int hi;
  int lo = minmax(a, b, &hi);
  out[6 * i + 0] = dm.q;
  out[6 * i + 1] = dm.r;
  out[6 * i + 2] = lo;
  out[6 * i + 3] = hi;
  out[6 * i + 4] = sum3(in + 3 * i);
  out[6 * i + 5] = (int)twice_mixed((uint)a);
}
