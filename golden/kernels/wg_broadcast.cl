// build: -cl-std=CL3.0
// requires: __opencl_c_work_group_collective_functions cl_khr_fp64
// work_group_broadcast in a 1D NDRange (OpenCL C 3.0 §6.15.16 [[work-group-functions]]): every work-item receives the
// value of the work-item whose local id it names, the same id in the whole work-group (a function of the group id,
// below the group's own size, which is smaller in the cases' last work-group). int, uint, long, float and double.
kernel void wg_broadcast(global const int* in, global const long* inl, global const float* inf,
                         global const double* ind, global int* out, global long* outl, global float* outf,
                         global double* outd) {
  const size_t g = get_global_id(0), n = get_local_size(0), group = get_group_id(0);
  const size_t src = (group * 7 + 3) % n;
  out[3 * g + 0] = work_group_broadcast(in[g], src);
  out[3 * g + 1] = (int)work_group_broadcast((uint)get_local_id(0) * 3u + 1u, n - 1);
  out[3 * g + 2] = work_group_broadcast(in[g] ^ (int)get_local_id(0), 0);
  outl[g] = work_group_broadcast(inl[g], (src + 1) % n);
  outf[g] = work_group_broadcast(inf[g], (src + 2) % n);
  outd[g] = work_group_broadcast(ind[g], n / 2);
}
