// Local memory declared in the kernel, and local memory passed as a kernel argument.
// Work-items exchange data through it across a barrier.
#define WG 64

// Reverses each work-group's slice (the local size must be WG).
kernel void local_reverse(global const int* in, global int* out) {
  local int tile[WG];
  size_t l = get_local_id(0);
  tile[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[WG - 1 - l];
}

// Rotates each work-group's slice left by `shift` through a local buffer sized by the host.
kernel void local_arg_rotate(global const float* in, global float* out, local float* scratch,
                             uint shift) {
  size_t l = get_local_id(0), n = get_local_size(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[(l + shift) % n];
}
