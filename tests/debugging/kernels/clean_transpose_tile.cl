// Clean: a transpose of a w x h matrix through a padded local tile, with a barrier between loading the tile and
// reading it transposed.
#define TS 4
kernel void clean_transpose_tile(global const float* in, global float* out, int w, int h) {
  local float tile[TS][TS + 1];
  int x = get_global_id(0), y = get_global_id(1), lx = get_local_id(0), ly = get_local_id(1);
  tile[ly][lx] = in[y * w + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  int ox = get_group_id(1) * TS + lx, oy = get_group_id(0) * TS + ly;
  out[oy * h + ox] = tile[lx][ly];
}
