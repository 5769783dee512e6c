// Image blurs: a 5x5 box blur with sampler-less reads (the kernel clamps the coordinates, so
// every read is inside the image) and a 3x3 Gaussian blur whose sampler clamps to the edge.
#pragma OPENCL FP_CONTRACT OFF

kernel void box_blur5(read_only image2d_t src, write_only image2d_t dst) {
  const int x = get_global_id(0), y = get_global_id(1);
  const int w = get_image_width(src), h = get_image_height(src);
  float4 sum = (float4)(0.0f);
  // Fully unrolled: clang -O2 lays the rolled loops out with the exit block before the loop, which llvm-spirv-15
  // translates into a use before the definition.
#pragma unroll
  for (int dy = -2; dy <= 2; ++dy) {
    const int yy = clamp(y + dy, 0, h - 1);
#pragma unroll
    for (int dx = -2; dx <= 2; ++dx) sum += read_imagef(src, (int2)(clamp(x + dx, 0, w - 1), yy));
  }
  write_imagef(dst, (int2)(x, y), sum * 0.04f);
}

constant sampler_t kEdge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

// Weights 1 2 1 / 2 4 2 / 1 2 1, divided by 16.
kernel void gauss3(read_only image2d_t src, write_only image2d_t dst) {
  const int x = get_global_id(0), y = get_global_id(1);
  float4 sum = (float4)(0.0f);
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const float weight = (float)((2 - abs(dx)) * (2 - abs(dy)));
      sum += read_imagef(src, kEdge, (int2)(x + dx, y + dy)) * weight;
    }
  write_imagef(dst, (int2)(x, y), sum * 0.0625f);
}
