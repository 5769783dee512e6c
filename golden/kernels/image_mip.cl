// build: -cl-std=CL3.0 -Xclang -cl-ext=+cl_khr_mipmap_image
// Mip-level selection with an explicit lod (cl_khr_mipmap_image): row y of the output reads at lod lods[y].
#pragma OPENCL FP_CONTRACT OFF

kernel void mip_lod(read_only image2d_t img, sampler_t smp, global const float* lods, global float4* out,
                    global int* levels) {
  const int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  const float u = ((float)x + 0.5f) * 0.0625f;  // w is 16 in the cases
  out[y * w + x] = read_imagef(img, smp, (float2)(u, 0.375f), lods[y]);
  if (x == 0 && y == 0) levels[0] = get_image_num_mip_levels(img);
}

// The same in a mipmapped 3D image (each level halves width, height and depth) and a mipmapped 2D image array
// (layers stay): slice y of the output reads at lod lods[y]. The levels of these images are the ones a host program
// names with origin[3] (cl_khr_mipmap_image).
kernel void mip_lod_3d(read_only image3d_t img, sampler_t smp, global const float* lods, global float4* out,
                       global int* levels) {
  const int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  const float u = ((float)x + 0.5f) * 0.125f;  // w is 8 in the case
  out[y * w + x] = read_imagef(img, smp, (float4)(u, 0.375f, 0.625f, 0.0f), lods[y]);
  if (x == 0 && y == 0) levels[0] = get_image_num_mip_levels(img);
}

kernel void mip_lod_array(read_only image2d_array_t img, sampler_t smp, global const float* lods, global float4* out,
                          global int* levels) {
  const int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  const float u = ((float)x + 0.5f) * 0.125f;  // w is 8 in the case
  out[y * w + x] = read_imagef(img, smp, (float4)(u, 0.625f, (float)(y % 3), 0.0f), lods[y]);
  if (x == 0 && y == 0) levels[0] = get_image_num_mip_levels(img);
}
