#version 450
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer B { float v[]; } b;

void main() {
  b.v[0] = undeclared_name + 1.0;
}
