// Format conversions through read_imagef and write_imagef: the image formats do the work.

// CL_BGRA / CL_UNORM_INT8 -> CL_RGBA / CL_FLOAT.
kernel void rgba8_to_float(read_only image2d_t src, write_only image2d_t dst) {
  const int2 c = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, c, read_imagef(src, c));
}

// CL_RGBA / CL_FLOAT -> CL_RGBA / CL_UNORM_INT16 (round to nearest even, saturating).
kernel void float_to_rgba16(read_only image2d_t src, write_only image2d_t dst) {
  const int2 c = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, c, read_imagef(src, c));
}

// CL_sRGBA / CL_UNORM_INT8 -> linear CL_RGBA / CL_FLOAT.
kernel void srgb_to_linear(read_only image2d_t src, write_only image2d_t dst) {
  const int2 c = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, c, read_imagef(src, c));
}
