// Integer images: read_imageui of a CL_R / CL_UNSIGNED_INT8 image, a 16-bin histogram with atomics, and a
// write_imagei of values that CL_RG / CL_SIGNED_INT16 saturates.
kernel void posterize(read_only image2d_t src, write_only image2d_t dst, global uint* hist) {
  const int x = get_global_id(0), y = get_global_id(1);
  const uint v = read_imageui(src, (int2)(x, y)).x;
  atomic_inc(&hist[v >> 4]);
  const int d = ((int)v - 128) * 300;  // beyond the range of a short for most v: saturated
  write_imagei(dst, (int2)(x, y), (int4)((int)(v >> 4) * 17, d, 0, 0));
}
