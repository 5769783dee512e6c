# The Vulkan check layer (layer/vulkan/check_layer/) in front of lavapipe: an ordinary Vulkan compute application of
# our own (vulkan_app.cpp, its shader compiled by glslangValidator) run without and with VK_LAYER_CLREF_check. Without
# glslangValidator (Debian glslang-tools) the test is not built; without lavapipe it exits 77 (skipped).
find_program(CLREF_GLSLANG_VALIDATOR glslangValidator)
file(GLOB _lvp_icd /usr/share/vulkan/icd.d/lvp_icd*.json)
set(_lvp_icd_file "")
if(_lvp_icd)
  list(GET _lvp_icd 0 _lvp_icd_file)
endif()
if(CLREF_GLSLANG_VALIDATOR)
  add_custom_command(
    OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/vulkan_app_spv.h
    COMMAND ${CLREF_GLSLANG_VALIDATOR} -V --quiet --vn kVulkanAppShader -o ${CMAKE_CURRENT_BINARY_DIR}/vulkan_app_spv.h
            ${CMAKE_CURRENT_SOURCE_DIR}/vulkan_app.comp
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/vulkan_app.comp
    COMMENT "Compiling tests/layer/vulkan_app.comp to SPIR-V")
  add_executable(vulkan_app vulkan_app.cpp ${CMAKE_CURRENT_BINARY_DIR}/vulkan_app_spv.h)
  target_include_directories(vulkan_app PRIVATE ${CMAKE_CURRENT_BINARY_DIR})
  target_link_libraries(vulkan_app PRIVATE Vulkan::Vulkan)
  add_executable(vulkan_layer_test vulkan_layer_test.cpp)
  target_link_libraries(vulkan_layer_test PRIVATE test_main nlohmann_json::nlohmann_json)
  add_dependencies(vulkan_layer_test VkLayer_clref_check vulkan_app)
  target_compile_definitions(vulkan_layer_test PRIVATE
    CLREF_VK_LAYER_DIR="$<TARGET_FILE_DIR:VkLayer_clref_check>"
    CLREF_VULKAN_APP="$<TARGET_FILE:vulkan_app>"
    CLREF_LVP_ICD="${_lvp_icd_file}"
    CLREF_SANITIZED=$<BOOL:${CLREF_SANITIZE}>)
  catch_discover_tests(vulkan_layer_test TEST_PREFIX "vulkan layer: "
                       PROPERTIES SKIP_RETURN_CODE 77 ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
endif()
