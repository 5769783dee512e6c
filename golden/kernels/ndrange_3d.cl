// A 3D NDRange: each work-item writes its linear ids into a 3D array.
kernel void ndrange_3d(global uint* out) {
  size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  size_t sx = get_global_size(0), sy = get_global_size(1);
  size_t k = (z * sy + y) * sx + x;
  size_t lin_local =
      (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) + get_local_id(0);
  size_t lin_group =
      (get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) + get_group_id(0);
  out[3 * k + 0] = (uint)lin_local;
  out[3 * k + 1] = (uint)lin_group;
  out[3 * k + 2] = get_work_dim() * 1000u + (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}
