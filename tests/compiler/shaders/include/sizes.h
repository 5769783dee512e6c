// Included by shader_source_test.cpp's GLSL #include test.
#define SIZE_X 32
