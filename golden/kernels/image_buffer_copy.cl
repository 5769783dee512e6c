// Copies between images and buffers in a kernel.

// CL_RGBA / CL_UNSIGNED_INT16 -> uint4 buffer, row by row.
kernel void image_to_buffer(read_only image2d_t src, global uint4* out) {
  const int x = get_global_id(0), y = get_global_id(1);
  out[y * get_image_width(src) + x] = read_imageui(src, (int2)(x, y));
}

// float4 buffer -> CL_RGBA / CL_HALF_FLOAT.
kernel void buffer_to_image(global const float4* in, write_only image2d_t dst) {
  const int x = get_global_id(0), y = get_global_id(1);
  write_imagef(dst, (int2)(x, y), in[y * get_image_width(dst) + x]);
}
