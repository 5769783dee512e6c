// Image benchmark: rotation about the centre with bilinear filtering, normalized coordinates, CLK_ADDRESS_CLAMP.
// Output pixel (x, y) samples the source at the centre plus the rotated offset of the pixel's centre.
#pragma OPENCL FP_CONTRACT OFF

constant sampler_t kBilinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;

kernel void rotate_bilinear(read_only image2d_t src, write_only image2d_t dst, float cs, float sn) {
  const int x = get_global_id(0), y = get_global_id(1);
  const int w = get_image_width(src), h = get_image_height(src);
  const float cx = (float)w * 0.5f, cy = (float)h * 0.5f;
  const float dx = ((float)x + 0.5f) - cx, dy = ((float)y + 0.5f) - cy;
  const float u = ((cs * dx) - (sn * dy)) + cx;
  const float v = ((sn * dx) + (cs * dy)) + cy;
  write_imagef(dst, (int2)(x, y), read_imagef(src, kBilinear, (float2)(u / (float)w, v / (float)h)));
}
