// build: -cl-std=CL3.0 -Xclang -cl-ext=+__opencl_c_images,+__opencl_c_read_write_images
// In-place update of a read_write image: each work-item reads its texel, fences image memory, and writes the
// brightened value back. OpenCL C 3.0 §6.15.15.6 [[reading-and-writing-to-the-same-image-in-a-kernel]]: the fence
// makes a work-item's writes visible to its later reads; here each work-item reads its texel before writing it.
#pragma OPENCL FP_CONTRACT OFF

kernel void brighten(read_write image2d_t img, float gain) {
  const int2 c = (int2)(get_global_id(0), get_global_id(1));
  const float4 v = read_imagef(img, c);
  atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
  write_imagef(img, c, (float4)(v.x * gain, v.y * gain, v.z * gain, v.w));
}
