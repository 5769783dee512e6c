// Clean: a Hillis-Steele inclusive scan with two local buffers: each step reads one and writes the other, and a
// barrier separates the steps.
kernel void clean_scan_double_buffer(global const int* in, global int* out, local int* a, local int* b) {
  size_t lid = get_local_id(0), n = get_local_size(0);
  local int* src = a;
  local int* dst = b;
  src[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t off = 1; off < n; off <<= 1) {
    dst[lid] = lid >= off ? src[lid] + src[lid - off] : src[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    local int* t = src;
    src = dst;
    dst = t;
  }
  out[get_global_id(0)] = src[lid];
}
