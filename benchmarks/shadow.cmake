add_executable(clref_shadow_bench ${CMAKE_CURRENT_LIST_DIR}/shadow_bench.cpp)
target_link_libraries(clref_shadow_bench PRIVATE check)
target_compile_definitions(clref_shadow_bench PRIVATE CLREF_BENCH_KERNELS="${CMAKE_CURRENT_LIST_DIR}/kernels")
