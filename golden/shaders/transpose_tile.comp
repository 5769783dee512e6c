#version 450
// A matrix transpose through an 8×8 shared tile, on a 2-D dispatch: the tile is written by rows and read by columns.
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Dst { uint dst[]; };
layout(push_constant) uniform Push { uint width; uint height; } pc;
shared uint tile[8][9];
void main() {
  uvec2 l = gl_LocalInvocationID.xy;
  uvec2 g = gl_GlobalInvocationID.xy;
  tile[l.y][l.x] = src[g.y * pc.width + g.x];
  barrier();
  uvec2 base = gl_WorkGroupID.yx * 8u;
  dst[(base.y + l.y) * pc.height + base.x + l.x] = tile[l.x][l.y];
}
