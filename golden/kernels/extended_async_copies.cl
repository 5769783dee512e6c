// build: -cl-std=CL3.0
// spirv: 1.0
// requires: cl_khr_extended_async_copies
// cl_khr_extended_async_copies (OpenCL C 3.0 §6.15.11.1 [[extended-async-copies]]): async_work_group_copy_2D2D and
// _3D3D between global and local memory, with element offsets, line lengths and plane areas that differ on the two
// sides. Element (p, l, e) of a copy moves from src + (src_offset + p * src_total_plane_area + l *
// src_total_line_length + e) * num_bytes_per_element to the same place in dst with the dst_ values; bytes outside the
// copied elements keep their values. Each work-group copies its own block in, changes it in local memory, and copies
// it out, two copies sharing one event.
#define TW 6  // elements per line of a 2D block
#define TH 4  // lines of a 2D block
#define TL (TW + 2)
#define TILE (TL * TH + 1)

kernel void async_copy_2d2d(global const int* in, global int* out, uint width) {
  local int tile[TILE];
  const size_t l = get_local_id(0), n = get_local_size(0), group = get_group_id(0);
  for (size_t i = l; i < TILE; i += n) tile[i] = -1;
  barrier(CLK_LOCAL_MEM_FENCE);
  // The group's block: lines 1 .. TH of the input (lines `width` elements long), from column group * TW; into the
  // tile from element 1, lines TL long.
  event_t e = async_work_group_copy_2D2D(tile, 1, in, width + group * TW, sizeof(int), TW, TH, width, TL, 0);
  wait_group_events(1, &e);
  for (size_t i = l; i < TW * TH; i += n) {
    const size_t line = i / TW, at = 1 + line * TL + (i - line * TW);
    tile[at] = tile[at] * 3 + (int)group;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Out: the changed block into lines `width` long from column group * TW + 1 (its right neighbour's first column is
  // copied last), and the whole tile, fill included, as TH lines of TL elements below it.
  e = async_work_group_copy_2D2D(out, group * TW + 1, tile, 1, sizeof(int), TW, TH, TL, width, 0);
  e = async_work_group_copy_2D2D(out, (TH + 1) * width + group * TL, tile, 0, sizeof(int), TL, TH, TL, width, e);
  wait_group_events(1, &e);
}

#define BX 4   // elements per line of a 3D box
#define BY 3   // lines per plane
#define BZ 2   // planes
#define VW 9   // the input volume's line length
#define VA 54  // the input volume's plane area (6 lines)
#define LL 5   // the local box's line length
#define LA 16  // the local box's plane area
#define BOX (LA * BZ)

kernel void async_copy_3d3d(global const ushort* in, global ushort* out) {
  local ushort box[BOX];
  const size_t l = get_local_id(0), n = get_local_size(0), group = get_group_id(0);
  for (size_t i = l; i < BOX; i += n) box[i] = 0xffff;
  barrier(CLK_LOCAL_MEM_FENCE);
  // The group's box: from (x, y, z) = (1 + group, 2, 1) of the volume into the local box from element 2.
  event_t e =
      async_work_group_copy_3D3D(box, 2, in, VA + 2 * VW + 1 + group, sizeof(ushort), BX, BY, BZ, VW, VA, LL, LA, 0);
  wait_group_events(1, &e);
  for (size_t i = l; i < BOX; i += n) box[i] = (ushort)(box[i] ^ (ushort)(0x0101 * (group + 1)));
  barrier(CLK_LOCAL_MEM_FENCE);
  // Out: the box packed tightly (lines BX long, planes BX * BY), one box per group, then the whole local box with its
  // fill as 2 planes of 3 lines of LL elements, lines 7 apart, planes 24 apart.
  e = async_work_group_copy_3D3D(out, group * BX * BY * BZ, box, 2, sizeof(ushort), BX, BY, BZ, LL, LA, BX, BX * BY, 0);
  e = async_work_group_copy_3D3D(out, 200 + group * 48, box, 0, sizeof(ushort), LL, BY, BZ, LL, LA, 7, 24, e);
  wait_group_events(1, &e);
}
