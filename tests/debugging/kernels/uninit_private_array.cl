// A private array filled by a loop that stops one element short: the last element reaches the output uninitialised.
kernel void uninit_private_array(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  int v[4];
  for (int k = 0; k < 3; ++k) v[k] = in[i] + k;
  out[i] = v[0] + v[3];  // BUG: v[3] is never assigned
}
