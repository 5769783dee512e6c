// Image benchmark: a 5x5 box blur with sampler-less reads; the kernel clamps the coordinates to the image.
#pragma OPENCL FP_CONTRACT OFF

kernel void box_blur5(read_only image2d_t src, write_only image2d_t dst) {
  const int x = get_global_id(0), y = get_global_id(1);
  const int w = get_image_width(src), h = get_image_height(src);
  float4 sum = (float4)(0.0f);
  // Unrolled: clang -O2 lays the rolled loops out in an order llvm-spirv-15 cannot translate.
#pragma unroll
  for (int dy = -2; dy <= 2; ++dy) {
    const int yy = clamp(y + dy, 0, h - 1);
#pragma unroll
    for (int dx = -2; dx <= 2; ++dx) sum += read_imagef(src, (int2)(clamp(x + dx, 0, w - 1), yy));
  }
  write_imagef(dst, (int2)(x, y), sum * 0.04f);
}
