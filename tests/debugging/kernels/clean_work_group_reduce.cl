// Clean, OpenCL C 2.0: the work-group sum by work_group_reduce_add, written by one work-item per group.
kernel void clean_work_group_reduce(global const int* in, global int* out) {
  int s = work_group_reduce_add(in[get_global_id(0)]);
  if (get_local_id(0) == 0) out[get_group_id(0)] = s;
}
