// Global offsets: get_global_id includes the offset, get_global_offset returns it, and the
// group and local ids do not depend on it (OpenCL C 3.0 §6.15.1 [[work-item-functions]]).
kernel void global_offset_ids(global uint* out) {
  size_t g = get_global_id(0), o = get_global_offset(0);
  size_t k = g - o;  // 0-based index of the work-item
  out[4 * k + 0] = (uint)g;
  out[4 * k + 1] = (uint)o;
  out[4 * k + 2] = (uint)get_group_id(0);
  out[4 * k + 3] = (uint)get_local_id(0);
}

// A 2D offset used to address a sub-rectangle of a larger row-major image.
kernel void global_offset_2d(global int* img, uint width) {
  size_t x = get_global_id(0), y = get_global_id(1);
  img[y * width + x] = (int)(x * 100 + y) - (int)(get_global_offset(0) + get_global_offset(1));
}
