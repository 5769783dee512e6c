#version 450
// Images, samplers and an array of storage-buffer descriptors: what tests/cli/shader_info_test.cpp expects
// `clref info` to say of each binding.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 2, binding = 0, rgba8) uniform readonly image2D src;
layout(set = 2, binding = 1, r32f) uniform writeonly image2D dst;
layout(set = 2, binding = 2) uniform sampler2D tex;
layout(set = 2, binding = 3) uniform texture2D plain;
layout(set = 2, binding = 4) uniform sampler nearest;
layout(set = 3, binding = 0) buffer Blocks { uint v[]; } blocks[4];
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  vec4 c = imageLoad(src, p) + textureLod(tex, vec2(p) / 8.0, 0.0) + texelFetch(sampler2D(plain, nearest), p, 0);
  imageStore(dst, p, c);
  blocks[1].v[p.x] = 1u;
}
