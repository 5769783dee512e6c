// Clean: a histogram in local memory, zeroed before a barrier, filled with local atomics, and merged into the global
// histogram with global atomics after another barrier (the local size is at least 8).
kernel void clean_histogram_local(global const uint* in, global uint* hist) {
  local uint bins[8];
  size_t lid = get_local_id(0);
  if (lid < 8) bins[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&bins[in[get_global_id(0)] % 8]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 8) atomic_add(&hist[lid], bins[lid]);
}
