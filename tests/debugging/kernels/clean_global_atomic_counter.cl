// Clean: stream compaction with a global atomic counter: each positive element goes to the slot atomic_inc returns,
// so no two work-items write the same element of `out`.
kernel void clean_global_atomic_counter(global const int* in, global int* out, global int* count) {
  int v = in[get_global_id(0)];
  if (v > 0) out[atomic_inc(count)] = v;
}
