// OpenCL C 2.0: helpers taking generic pointers store a work-item's element into a local tile and read its
// neighbour's, and the caller has no barrier between the two calls: a race through the generic address space.
void put(int* p, size_t k, int v) { p[k] = v; }         // BUG: races with the read in get() below
int get(const int* p, size_t k) { return p[k]; }        // BUG: races with the write in put() above

kernel void race_generic_pointer(global const int* in, global int* out) {
  local int tile[8];
  size_t lid = get_local_id(0);
  put(tile, lid, in[get_global_id(0)]);
  out[get_global_id(0)] = get(tile, (lid + 1) % 8);  // needs a barrier(CLK_LOCAL_MEM_FENCE) before it
}
