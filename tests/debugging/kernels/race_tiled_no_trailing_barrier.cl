// A tiled loop without its trailing barrier: each iteration loads a tile, waits, and reads the whole tile, then the
// next iteration overwrites the tile while other work-items may still be reading the current one.
kernel void race_tiled_no_trailing_barrier(global const float* in, global float* out, local float* tile, int tiles) {
  size_t lid = get_local_id(0), n = get_local_size(0);
  float acc = 0.0f;
  for (int t = 0; t < tiles; ++t) {
    tile[lid] = in[t * n + lid];  // BUG: overwrites the tile the others may still read (no barrier at the loop's end)
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t k = 0; k < n; ++k) acc += tile[k] * (float)(k + 1);
  }
  out[get_global_id(0)] = acc;
}
