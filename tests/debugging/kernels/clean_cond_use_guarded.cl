// Clean: a variable assigned on one path only, and read only on that path (the same condition guards the use).
kernel void clean_cond_use_guarded(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  int x;
  bool have = in[i] > 0;
  if (have) x = in[i] * 2;
  out[i] = have ? x : 0;
}
