// Private arrays indexed dynamically: an insertion sort of eight values and a small histogram.
kernel void private_sort(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  int v[8];
  for (int k = 0; k < 8; ++k) v[k] = in[8 * i + k];
  for (int k = 1; k < 8; ++k) {
    int t = v[k];
    int j = k;
    while (j > 0 && v[j - 1] > t) {
      v[j] = v[j - 1];
      --j;
    }
    v[j] = t;
  }
  for (int k = 0; k < 8; ++k) out[8 * i + k] = v[k];
}

// An 8-bin histogram of each work-item's `len` bytes (bin = top three bits). The length is an
// argument: with a constant trip count, -O2 unrolls the loop into a block layout that
// llvm-spirv-15 emits out of dominance order.
kernel void private_histogram(global const uchar* in, global uint* out, uint len) {
  size_t i = get_global_id(0);
  uint h[8];
  for (int k = 0; k < 8; ++k) h[k] = 0;
  for (uint k = 0; k < len; ++k) h[in[len * i + k] >> 5] += 1u;
  for (int k = 0; k < 8; ++k) out[8 * i + k] = h[k];
}
