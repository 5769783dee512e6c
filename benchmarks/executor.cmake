add_executable(clref_bench ${CMAKE_CURRENT_LIST_DIR}/executor_bench.cpp)
target_link_libraries(clref_bench PRIVATE host)
target_compile_definitions(clref_bench PRIVATE CLREF_BENCH_KERNELS="${CMAKE_CURRENT_LIST_DIR}/kernels")
