// int <-> float conversions with in-range values. Implicit and explicit conversions to an
// integer round toward zero; to a float they round to nearest even (OpenCL C 3.0 §6.4.3 [[explicit-conversions]]).
kernel void conv_int_float(global const int* ia, global const float* fa, global float* fout,
                           global int* iout) {
  size_t i = get_global_id(0);
  int x = ia[i];
  float f = fa[i];
  fout[2 * i + 0] = (float)x;         // rounds when |x| > 2^24
  fout[2 * i + 1] = convert_float(x);
  iout[2 * i + 0] = (int)f;           // truncation toward zero
  iout[2 * i + 1] = convert_int(f);   // default rounding for float -> int is _rtz
}

// Unsigned and narrow/wide conversions.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void conv_misc(global const uint* ua, global const float* fa, global const long* la,
                      global float* fout, global uint* uout, global double* dout,
                      global long* lout) {
  size_t i = get_global_id(0);
  uint u = ua[i];
  float f = fa[i];
  long l = la[i];
  fout[2 * i + 0] = (float)u;            // uint -> float, round to nearest even
  fout[2 * i + 1] = (float)(char)u;      // truncate to char (low byte, signed), then exact
  uout[2 * i + 0] = convert_uint(f < 0.0f ? -f : f);
  uout[2 * i + 1] = convert_uchar(f < 0.0f ? -f : f);  // inputs keep |f| < 256
  dout[2 * i + 0] = (double)l;           // rounds when |l| > 2^53
  dout[2 * i + 1] = (double)f;           // exact
  lout[i] = (long)((double)l * 0.5);     // truncation toward zero
}
