// Clean, OpenCL C 2.0: helpers taking generic pointers store into and read from a local tile, with a barrier
// between the calls.
void put(int* p, size_t k, int v) { p[k] = v; }
int get(const int* p, size_t k) { return p[k]; }

kernel void clean_generic_pointer(global const int* in, global int* out) {
  local int tile[8];
  size_t lid = get_local_id(0);
  put(tile, lid, in[get_global_id(0)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = get(tile, (lid + 1) % 8);
}
