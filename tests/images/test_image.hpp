// An image in host memory for the images module's tests: a desc completed by makeDesc over zeroed storage.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "images/image.hpp"

namespace clref_test {

struct TestImage {
  std::vector<uint8_t> mem;
  clref::images::ImageView view;
  // h is the layer count of a 1D array, d that of a 2D array.
  TestImage(clref::images::ImageType type, clref::images::ImageFormat f, uint64_t w, uint64_t h = 1, uint64_t d = 1,
            uint32_t levels = 1) {
    clref::images::ImageDesc desc;
    desc.type = type;
    desc.format = f;
    desc.width = w;
    desc.height = h;
    desc.depth = d;
    desc.arraySize = type == clref::images::ImageType::Image1DArray ? h : d;
    desc.numMipLevels = levels;
    desc = clref::images::makeDesc(desc);
    mem.assign(clref::images::storageBytes(desc), 0);
    view = {desc, mem.data(), mem.size()};
  }
  uint8_t* at(uint64_t x, uint64_t y = 0, uint64_t z = 0, uint32_t level = 0) { return view.element(x, y, z, level); }
  void setR8(uint64_t x, uint64_t y, uint64_t z, uint8_t v) { at(x, y, z)[0] = v; }
  void setFloat(uint64_t x, uint64_t y, uint64_t z, float v, uint32_t level = 0) {
    std::memcpy(at(x, y, z, level), &v, 4);
  }
};

}  // namespace clref_test
