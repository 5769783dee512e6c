// A flag only the "found" path sets: `found` is uninitialised where the key is absent, and a branch depends on it.
kernel void uninit_flag_branch(global const int* keys, global int* out, int key, int m) {
  size_t i = get_global_id(0);
  bool found;
  for (int k = 0; k < m; ++k)
    if (keys[i * m + k] == key) found = true;
  if (found)  // BUG: found is uninitialised where the key is absent
    out[i] = 1;
  else
    out[i] = 0;
}
