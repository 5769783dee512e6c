// The integer built-ins min, max, abs and clamp (OpenCL C 3.0 §6.15.3 [[integer-functions]]). abs returns the
// unsigned type, so abs(INT_MIN) is 2^31.
kernel void int_minmax_clamp(global const int* a, global const int* b, global int* iout,
                             global uint* uout) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  iout[3 * i + 0] = min(x, y);
  iout[3 * i + 1] = max(x, y);
  iout[3 * i + 2] = clamp(x, -1000, 1000);
  uout[3 * i + 0] = abs(x);
  uout[3 * i + 1] = min((uint)x, (uint)y);  // unsigned comparison of the same bits
  uout[3 * i + 2] = clamp((uint)y, 10u, 0x80000000u);
}

kernel void small_minmax(global const char* a, global const ulong* b, global char* cout,
                         global ulong* lout) {
  size_t i = get_global_id(0);
  char c = a[i];
  ulong u = b[i];
  cout[3 * i + 0] = max(c, (char)-7);
  cout[3 * i + 1] = (char)abs(c);  // abs(char) is uchar; abs(-128) = 128 -> (char)-128
  cout[3 * i + 2] = clamp(c, (char)-20, (char)20);
  lout[2 * i + 0] = min(u, 0x8000000000000000ul);
  lout[2 * i + 1] = clamp(u, 1000ul, 0xFFFFFFFFFFFFul);
}
