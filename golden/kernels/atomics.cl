// Atomic functions (OpenCL C 1.2 §6.12.11 "Atomic Functions") on global and local memory. Only results that do
// not depend on the order of the atomics are stored: final counters, histograms, min/max.
kernel void atomics(global const uint* in, global uint* hist, global int* stats, local uint* lhist) {
  const size_t l = get_local_id(0), g = get_global_id(0);
  if (l < 16) lhist[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint v = in[g];
  atomic_inc(&hist[v % 16]);               // global histogram
  atomic_add(&lhist[(v >> 4) % 16], 1u);   // per-group histogram in local memory
  atomic_max(&stats[0], (int)v);
  atomic_min(&stats[1], (int)v);
  atomic_add(&stats[2], (int)(v & 0xff));
  atomic_or(&stats[3], (int)(1u << (v % 31)));
  atomic_and(&stats[4], ~(int)(1u << (v % 29)));
  atomic_xor(&stats[5], (int)v);
  atomic_sub(&stats[6], 1);
  atomic_dec(&stats[7]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 16) atomic_add(&hist[16 + l], lhist[l]);
}
