// A copy from a buffer the host created without data and never wrote (run through the OpenCL API with `in` created
// without CL_MEM_COPY_HOST_PTR): every value read is uninitialised.
kernel void uninit_global_nohostdata(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  out[i] = in[i] + 1;  // BUG: `in` holds no data
}
