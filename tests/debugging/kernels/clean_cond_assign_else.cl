// Clean: a variable assigned on both branches of a conditional.
kernel void clean_cond_assign_else(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  int x;
  if (in[i] > 0)
    x = in[i] * 2;
  else
    x = -in[i];
  out[i] = x;
}
