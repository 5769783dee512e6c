// A gather whose index is assigned only for non-negative inputs: `idx` is uninitialised otherwise, and is used to
// form an address.
kernel void uninit_index_address(global const int* table, global const int* in, global int* out) {
  size_t i = get_global_id(0);
  int idx;
  if (in[i] >= 0) idx = in[i] % 16;
  out[i] = table[idx];  // BUG: idx is uninitialised where in[i] < 0
}
