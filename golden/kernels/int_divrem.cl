// Integer division and remainder with nonzero divisors: truncation toward zero, and the
// remainder has the sign of the dividend (OpenCL C 3.0 §6.5 [[operators]] follows C99 §6.5.5 [external]). A zero
// divisor from the input is replaced in the kernel; INT_MIN / -1 never occurs (input ranges).
// The remainders are computed in separate non-inlined functions: at -O2 a division and a
// remainder of the same operands are paired with `freeze`, which llvm-spirv-15 cannot translate.
__attribute__((noinline)) int rem_int(int x, int y) { return x % y; }
__attribute__((noinline)) uint rem_uint(uint x, uint y) { return x % y; }
__attribute__((noinline)) long rem_long(long x, long y) { return x % y; }
__attribute__((noinline)) char rem_char(char x, char y) { return x % y; }

kernel void divrem_int(global const int* a, global const int* b, global int* out) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  if (y == 0) y = -3;
  out[2 * i + 0] = x / y;
  out[2 * i + 1] = rem_int(x, y);
}

kernel void divrem_uint(global const uint* a, global const uint* b, global uint* out) {
  size_t i = get_global_id(0);
  uint x = a[i], y = b[i] | 1u;
  out[2 * i + 0] = x / y;
  out[2 * i + 1] = rem_uint(x, y);
}

kernel void divrem_long(global const long* a, global const long* b, global long* out) {
  size_t i = get_global_id(0);
  long x = a[i], y = b[i];
  if (y == 0) y = 5;
  out[2 * i + 0] = x / y;
  out[2 * i + 1] = rem_long(x, y);
}

// char operands are promoted to int; division by constants too.
kernel void divrem_char(global const char* a, global const char* b, global char* out) {
  size_t i = get_global_id(0);
  char x = a[i], y = b[i];
  if (y == 0) y = 1;
  out[4 * i + 0] = x / y;
  out[4 * i + 1] = rem_char(x, y);
  out[4 * i + 2] = x / 3;
  out[4 * i + 3] = x % -5;
}
