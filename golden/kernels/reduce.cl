// Work-group tree reductions in local memory with barriers. The local size must be a power of
// two; each work-group writes one partial result.
kernel void reduce_int_sum(global const int* in, global int* partial, local int* scratch) {
  size_t l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) scratch[l] += scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) partial[get_group_id(0)] = scratch[0];
}

// The same tree on floats with the local array declared in the kernel: the order of the
// additions is fixed by the tree, so the rounded result is deterministic.
#define WG 128
kernel void reduce_float_tree(global const float* in, global float* partial) {
  local float scratch[WG];
  size_t l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = WG / 2; s > 0; s >>= 1) {
    if (l < s) scratch[l] = scratch[l] + scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) partial[get_group_id(0)] = scratch[0];
}
