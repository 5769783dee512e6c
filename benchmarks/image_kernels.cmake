# Image benchmark: 1024x1024 CL_RGBA / CL_UNORM_INT8 rotation with bilinear filtering and 5x5 box blur through the
# host API (benchmarks/peers/README.md has the peers' numbers for the same kernels).
add_executable(clref_image_kernels_bench ${CMAKE_CURRENT_LIST_DIR}/image_kernels_bench.cpp)
target_link_libraries(clref_image_kernels_bench PRIVATE host)
target_compile_definitions(clref_image_kernels_bench PRIVATE CLREF_BENCH_KERNELS="${CMAKE_CURRENT_LIST_DIR}/kernels")
