// Clean: a local accumulator initialised by one work-item before a barrier, added to atomically by all, and read by
// one after another barrier.
kernel void clean_local_accumulator(global const int* in, global int* out) {
  local int acc;
  if (get_local_id(0) == 0) acc = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&acc, in[get_global_id(0)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[get_group_id(0)] = acc;
}
