#version 450
// Read by pipelines.amber through SHADER … FILE.
layout(local_size_x = 4) in;
layout(binding = 0) buffer Data { int d[]; };
void main() { d[gl_GlobalInvocationID.x] = -d[gl_GlobalInvocationID.x]; }
