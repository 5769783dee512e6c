// Off by one, local read: each work-item adds its right neighbour's element from a local tile that holds exactly
// one element per work-item, so the last work-item of each group reads past the end of the tile.
kernel void oob_local_read(global const int* in, global int* out, local int* tile) {
  size_t lid = get_local_id(0), i = get_global_id(0);
  tile[lid] = in[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = tile[lid] + tile[lid + 1];  // BUG: tile[local size] does not exist
}
