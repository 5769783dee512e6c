add_executable(clref_image_bench ${CMAKE_CURRENT_LIST_DIR}/image_bench.cpp)
target_link_libraries(clref_image_bench PRIVATE images)
