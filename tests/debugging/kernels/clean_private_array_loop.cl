// Clean: a private array filled by a loop over all its elements, then read in another order.
kernel void clean_private_array_loop(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  int v[4];
  for (int k = 0; k < 4; ++k) v[k] = in[i] + k;
  int s = 0;
  for (int k = 0; k < 4; ++k) s += v[k] * v[3 - k];
  out[i] = s;
}
