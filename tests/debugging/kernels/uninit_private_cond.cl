// A value assigned on one path only: `x` is never assigned where in[i] <= 0, and reaches the output there.
kernel void uninit_private_cond(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  int x;
  if (in[i] > 0) x = in[i] * 2;
  out[i] = x;  // BUG: x is uninitialised where in[i] <= 0
}
