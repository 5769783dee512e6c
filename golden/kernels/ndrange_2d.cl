// A 2D NDRange: every work-item function per dimension, packed into one record per item.
kernel void ndrange_2d(global uint* out) {
  size_t x = get_global_id(0), y = get_global_id(1);
  size_t k = (y - get_global_offset(1)) * get_global_size(0) + (x - get_global_offset(0));
  global uint* r = out + 10 * k;
  r[0] = get_work_dim();
  for (uint d = 0; d < 2; ++d) {
    // Packed per dimension: global id, local id, group id, local size (each < 256 here).
    r[1 + d] = (uint)(get_global_id(d) << 24 | get_local_id(d) << 16 | get_group_id(d) << 8 |
                      get_local_size(d));
    r[3 + d] = (uint)(get_global_size(d) << 16 | get_num_groups(d) << 8 | get_global_offset(d));
  }
  // Out-of-range dimensions: ids 0, sizes 1 (OpenCL C 3.0 §6.15.1 [[work-item-functions]]).
  r[5] = (uint)get_global_id(2);
  r[6] = (uint)get_local_size(2);
  r[7] = (uint)get_global_size(2);
  r[8] = (uint)get_num_groups(2);
  r[9] = (uint)(get_local_id(1) * get_local_size(0) + get_local_id(0));
}
