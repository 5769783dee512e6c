// Every work-item of the group publishes its id into the same local variable: a write-write race in local memory
// (the value the group then reads depends on the schedule).
kernel void race_local_ww(global int* out) {
  local int last;
  last = (int)get_local_id(0);  // BUG: all work-items write `last` without synchronisation
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = last;
}
