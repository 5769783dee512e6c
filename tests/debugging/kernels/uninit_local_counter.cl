// A local counter that no work-item zeroes before the group increments it.
kernel void uninit_local_counter(global const int* in, global int* out) {
  local int count;
  if (in[get_global_id(0)] > 0) atomic_inc(&count);  // counts on from whatever `count` held
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[get_group_id(0)] = count;  // BUG: count was never zeroed
}
