// Rotation of an image about its centre. Output pixel (x, y) samples the source at the centre
// plus the rotated offset of the pixel's centre: u = cs*dx - sn*dy + cx, v = sn*dx + cs*dy + cy.
#pragma OPENCL FP_CONTRACT OFF

// Bilinear, normalized coordinates: the sampler is an argument (CLK_ADDRESS_CLAMP, CLK_FILTER_LINEAR in the
// cases); inv_w and inv_h are 1/width and 1/height of the source.
kernel void rotate_bilinear(read_only image2d_t src, write_only image2d_t dst, sampler_t smp, float cs, float sn,
                            float inv_w, float inv_h) {
  const int x = get_global_id(0), y = get_global_id(1);
  const float cx = (float)get_image_width(src) * 0.5f, cy = (float)get_image_height(src) * 0.5f;
  const float dx = ((float)x + 0.5f) - cx, dy = ((float)y + 0.5f) - cy;
  const float u = ((cs * dx) - (sn * dy)) + cx;
  const float v = ((sn * dx) + (cs * dy)) + cy;
  write_imagef(dst, (int2)(x, y), read_imagef(src, smp, (float2)(u * inv_w, v * inv_h)));
}

constant sampler_t kUnnormalized = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;

// Bilinear, unnormalized coordinates, border colour outside; the result goes to a buffer.
kernel void rotate_unnormalized(read_only image2d_t src, global float4* out, float cs, float sn) {
  const int x = get_global_id(0), y = get_global_id(1);
  const float cx = (float)get_image_width(src) * 0.5f, cy = (float)get_image_height(src) * 0.5f;
  const float dx = ((float)x + 0.5f) - cx, dy = ((float)y + 0.5f) - cy;
  const float u = ((cs * dx) - (sn * dy)) + cx;
  const float v = ((sn * dx) + (cs * dy)) + cy;
  out[y * get_global_size(0) + x] = read_imagef(src, kUnnormalized, (float2)(u, v));
}
