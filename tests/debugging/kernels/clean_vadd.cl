// Clean: one element per work-item, the NDRange exactly the buffers.
kernel void clean_vadd(global const float* a, global const float* b, global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
