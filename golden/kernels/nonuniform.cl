// build: -cl-std=CL3.0
// Non-uniform work-groups (OpenCL 3.0 API §3.2.1 [[_mapping_work_items_onto_an_nd_range]], since OpenCL 2.0): the
// global size need not be a multiple of the local size; the last work-group in a dimension is smaller and
// get_local_size() returns its actual size.
kernel void nonuniform_ids(global uint* out) {
  size_t g = get_global_id(0);
  out[4 * g + 0] = (uint)get_local_id(0);
  out[4 * g + 1] = (uint)get_local_size(0);
  out[4 * g + 2] = (uint)get_group_id(0);
  out[4 * g + 3] = (uint)get_num_groups(0);
}

// 2D non-uniform ranges with a work-group sum through local memory: work-item (0,0) of each
// group adds up the values of its (possibly partial) group after a barrier.
kernel void nonuniform_groupsum(global const int* in, global int* sums) {
  local int tile[64];
  size_t lx = get_local_id(0), ly = get_local_id(1);
  size_t nx = get_local_size(0), ny = get_local_size(1);
  size_t gx = get_global_id(0), gy = get_global_id(1), w = get_global_size(0);
  tile[ly * nx + lx] = in[gy * w + gx];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lx == 0 && ly == 0) {
    int s = 0;
    for (size_t k = 0; k < nx * ny; ++k) s += tile[k];
    sums[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = s;
  }
}
