// Mixed-type expressions: integer promotions and the usual arithmetic conversions
// (OpenCL C 3.0 §6.4 [[conversions-and-type-casting]], C99 §6.3.1.8 [external]).
kernel void promotion(global const char* c, global const uchar* uc, global const short* s,
                      global const ushort* us, global const int* in, global const uint* u,
                      global long* out) {
  size_t i = get_global_id(0);
  out[6 * i + 0] = c[i] * uc[i];        // int * int
  out[6 * i + 1] = s[i] + us[i];        // int + int, no wrap at 16 bits
  out[6 * i + 2] = in[i] + u[i];        // int converted to uint: wraps mod 2^32, then zero-extends
  out[6 * i + 3] = in[i] < u[i];        // compared as uint
  out[6 * i + 4] = (long)in[i] * u[i];  // long * (uint -> long)
  out[6 * i + 5] = c[i] + 0u;           // char -> int -> uint: sign-extended then reinterpreted
}
