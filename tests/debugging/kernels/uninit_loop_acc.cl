// A loop accumulator that is never initialised (it should start at 0): every sum starts from garbage.
kernel void uninit_loop_acc(global const float* in, global float* out, int m) {
  size_t i = get_global_id(0);
  float sum;
  for (int k = 0; k < m; ++k) sum += in[i * m + k];
  out[i] = sum;  // BUG: sum was never initialised
}
