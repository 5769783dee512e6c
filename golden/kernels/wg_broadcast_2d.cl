// build: -cl-std=CL3.0
// requires: __opencl_c_work_group_collective_functions
// work_group_broadcast with two and three local ids (OpenCL C 3.0 §6.15.16 [[work-group-functions]]) in 2D and 3D
// NDRanges with non-uniform work-groups: the ids name a work-item of the caller's own work-group (each below that
// group's size in its dimension), the same ids for the whole work-group.
kernel void wg_broadcast_2d(global const int* in, global int* out) {
  const size_t gx = get_global_id(0), gy = get_global_id(1), w = get_global_size(0);
  const size_t lx = (get_group_id(0) + 2 * get_group_id(1)) % get_local_size(0);
  const size_t ly = (get_group_id(1) + 1) % get_local_size(1);
  const size_t i = gy * w + gx;
  out[2 * i + 0] = work_group_broadcast(in[i], lx, ly);
  out[2 * i + 1] = work_group_broadcast((int)(get_local_id(0) * 100 + get_local_id(1)), get_local_size(0) - 1, 0);
}

kernel void wg_broadcast_3d(global const float* in, global float* out) {
  const size_t w = get_global_size(0), h = get_global_size(1);
  const size_t i = (get_global_id(2) * h + get_global_id(1)) * w + get_global_id(0);
  const size_t lx = get_group_id(2) % get_local_size(0), ly = get_local_size(1) - 1;
  const size_t lz = (get_group_id(0) + get_group_id(1)) % get_local_size(2);
  out[i] = work_group_broadcast(in[i], lx, ly, lz);
}
