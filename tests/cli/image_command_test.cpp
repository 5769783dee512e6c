// `clref image` end to end: the reference value of reads and writes, verdicts with their exit status (0 allowed,
// 1 not allowed, 2 rejected input), candidates at texel boundaries, linear filtering (a weighted average of the
// footprint), bad input. Expected values are worked out by hand from the conversion rules (OpenCL C 3.0 §8.3
// [[conversion-rules]]).
#include <catch2/catch.hpp>

#include "clref_run.hpp"

using clref::cli::test::has;
using Run = clref::cli::test::CliResult;

namespace {

Run clrefImage(const std::string& args) { return clref::cli::test::runClref("image " + args); }

}  // namespace

TEST_CASE("clref image read prints the exact reference value", "[reference][cli][image]") {
  // Texel (0x33, 0xff, 0x80, 0x00) of CL_RGBA / CL_UNORM_INT8: (0.2, 1, 128/255, 0).
  const Run r = clrefImage("read --format CL_RGBA,CL_UNORM_INT8 --size 2x2 --texels 33ff8000 --coord 1,1");
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(has(r.out, "read_imagef(CL_RGBA,CL_UNORM_INT8 CL_MEM_OBJECT_IMAGE2D 2x2, coord (1, 1))"));
  CHECK(has(r.out, "reference:  (0x1.99999ap-3 (0.2), 0x1p+0 (1), 0x1.010102p-1 (0.5019608), 0x0p+0 (0))"));
  CHECK(has(r.out, "candidates: 1"));
}

TEST_CASE("clref image read --check: 1.5 ulp around the exact normalized value", "[reference][cli][image]") {
  // 0x33 / 255 = 0.2 exactly as a real number; 0.2f is 0x3e4ccccd, one step up 0x3e4cccce, two 0x3e4ccccf.
  const std::string base = "read --format CL_R,CL_UNORM_INT8 --size 4 --texels 33 --coord 2 --check ";
  const Run ok = clrefImage(base + "0x3e4ccccd:bits");
  INFO(ok.out << ok.err);
  CHECK(ok.status == 0);
  CHECK(has(ok.out, "verdict:    allowed"));
  CHECK(has(ok.out, "rule:       <= 1.5 ulp of the exact normalized value; 0, 1 and -1 exact"));
  CHECK(has(ok.out, "[[converting-normalized-integer-channel-data-types-to-floating-point-values]]"));
  CHECK(
      has(ok.out,
          "allowed:    [0x1.999998p-3 (0.19999999), 0x1.99999cp-3 (0.20000002)], 0x0p+0 (0), 0x0p+0 (0), 0x1p+0 (1)"));
  CHECK(clrefImage(base + "0x3e4cccce:bits").status == 0);
  const Run bad = clrefImage(base + "0x3e4ccccf:bits");
  CHECK(bad.status == 1);
  CHECK(has(bad.out, "verdict:    NOT allowed"));
  // The missing alpha is 1 exactly.
  CHECK(clrefImage(base + "0.2,0,0,0.99999994").status == 1);
}

TEST_CASE("clref image read: the neighbouring texel at a boundary with normalized coordinates",
          "[reference][cli][image]") {
  // Texels 10, 50, 90, 130; normalized 0.5 of width 4 is u = 2 exactly.
  const std::string base =
      "read --format CL_R,CL_UNORM_INT8 --size 4 --texels 0a325a82 "
      "--sampler normalized,clamp_to_edge,nearest --coord 0.5 --check ";
  const Run r = clrefImage(base + "0x1.69696ap-2");  // 90 / 255
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(has(r.out, "candidates: 2"));
  CHECK(clrefImage(base + "0x1.919192p-3").status == 0);  // 50 / 255, texel 1
  CHECK(clrefImage(base + "0x1.050506p-1").status == 1);  // 130 / 255, texel 3
  // Unnormalized nearest with clamp is exact: texel 2 only.
  const Run exact = clrefImage(
      "read --format CL_R,CL_UNORM_INT8 --size 4 --texels 0a325a82 "
      "--sampler unnormalized,clamp,nearest --coord 2 --check 0x1.919192p-3");
  CHECK(exact.status == 1);
  CHECK(has(exact.out, "candidates: 1"));
}

TEST_CASE("clref image read: linear filtering allows a weighted average of the footprint", "[reference][cli][image]") {
  // u = 0.3 x 4 = 1.2, i0 = floor(0.7) = 0: texels 0 and 1 (10 and 50); 0.9 is far above 50 / 255, and 50 / 255
  // (0x1.919192p-3) is the hull's top texel.
  const std::string base =
      "read --format CL_R,CL_UNORM_INT8 --size 4 --texels 0a325a82 --sampler normalized,clamp,linear --coord 0.3 ";
  const Run r = clrefImage(base + "--check 0.9");
  INFO(r.out << r.err);
  CHECK(r.status == 1);
  CHECK(has(r.out, "verdict:    NOT allowed\n"));
  CHECK(has(r.out, "rule:       a weighted average of the footprint texels"));
  CHECK(has(r.out, "2 texels over 1 candidate footprint ("));
  const Run in = clrefImage(base + "--check 0x1.919192p-3");
  INFO(in.out << in.err);
  CHECK(in.status == 0);
  CHECK(has(in.out, "verdict:    allowed\n"));
}

TEST_CASE("clref image write prints the element and judges another", "[reference][cli][image]") {
  const Run r = clrefImage("write --format CL_R,CL_UNORM_INT8 --color 0.5 --check 7f");
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(has(r.out, "element:    80"));  // 127.5 rounds to even: 128
  CHECK(has(r.out, "verdict:    allowed"));
  CHECK(has(r.out, "allowed:    codes per lane (r, g, b, a): [127, 128]"));
  CHECK(clrefImage("write --format CL_R,CL_UNORM_INT8 --color 0.5 --check 7e").status == 1);
  const Run i =
      clrefImage("write --format CL_RGBA,CL_SIGNED_INT16 --kind i --color 70000,-70000,5,-5 --check ff7f0080050000fb");
  CHECK(i.status == 1);  // the last channel should be fbff (-5)
  CHECK(has(i.out, "element:    ff7f00800500fbff"));
  CHECK(clrefImage("write --format CL_RGBA,CL_SIGNED_INT16 --kind i --color 70000,-70000,5,-5 --check ff7f00800500fbff")
            .status == 0);
}

TEST_CASE("clref image rejects bad input with status 2", "[reference][cli][image]") {
  const Run f = clrefImage("read --format CL_RGB,CL_UNORM_INT8 --size 4 --coord 1");
  CHECK(f.status == 2);
  CHECK(has(f.err, "is not an image format"));
  CHECK(clrefImage("read --format CL_R,CL_UNORM_INT8 --size 4x0 --coord 1,1").status == 2);
  CHECK(clrefImage("read --format CL_R,CL_UNORM_INT8 --size 4 --coord 1,2").status == 2);
  CHECK(clrefImage("read --format CL_R,CL_UNORM_INT8 --size 4 --coord 1 --sampler sideways").status == 2);
  CHECK(clrefImage("read --format CL_R,CL_UNORM_INT8 --size 4 --coord 1 --texels 0g").status == 2);
  CHECK(clrefImage("read --format CL_R,CL_UNORM_INT8 --size 4 --coord 1 --kind q").status == 2);
  CHECK(clrefImage("write --format CL_R,CL_UNORM_INT8 --color 0.5 --check 7f7f").status == 2);
  const Run w = clrefImage("write --format CL_R,CL_SIGNED_INT8 --kind f --color 0.5");
  CHECK(w.status == 2);
  CHECK(has(w.err, "undefined"));
  CHECK(clrefImage("read --format CL_R,CL_UNORM_INT8 --size 100000x100000 --coord 1,1").status == 2);
}

TEST_CASE("clref image read of a mipmapped image judges the level the lod or gradients select",
          "[reference][cli][image][mipmap]") {
  // An 8x8 CL_R / CL_UNORM_INT8 image with 4 levels, --texels ramp: byte i = i, level 0 at bytes 0..63, level 1 (4x4)
  // at 64..79, level 2 (2x2) at 80..83, level 3 at 84. (0.3, 0.6) reads texel (2, 4) of level 0 (byte 34) and (1, 2)
  // of level 1 (byte 64 + 9 = 73), (0, 1) of level 2 (byte 82).
  const std::string base =
      "read --format CL_R,CL_UNORM_INT8 --size 8x8 --levels 4 --sampler normalized,clamp_to_edge,nearest "
      "--coord 0.3,0.6 ";
  // 73 / 255 rounded to float: 0x1.252526p-2; 82 / 255: 0x1.49494ap-2 (by hand: 73/255 = 0.28627451...).
  const Run one = clrefImage(base + "--lod 1.2 --check 0x1.252526p-2");
  INFO(one.out << one.err);
  CHECK(one.status == 0);
  CHECK(has(one.out, ", lod 0x1.333334p+0 (1.2))"));
  CHECK(has(one.out, "levels:     1 of 4"));
  CHECK(has(one.out, "verdict:    allowed"));
  CHECK(has(one.out, "[[_creating_image_objects_from_opengl_textures_and_renderbuffers]]"));
  const Run wrongLevel = clrefImage(base + "--lod 1.2 --check 0x1.49494ap-2");
  CHECK(wrongLevel.status == 1);
  CHECK(has(wrongLevel.out, "verdict:    NOT allowed"));
  // Gradients (0.25, 0) and (0, 0.25): lambda in [1, 2], levels 1 and 2 both allowed.
  const Run grad = clrefImage(base + "--gradients '0.25,0;0,0.25' --check 0x1.49494ap-2");
  INFO(grad.out << grad.err);
  CHECK(grad.status == 0);
  CHECK(has(grad.out, "levels:     1, 2 of 4"));
  CHECK(has(grad.out, "gradients 0.25,0;0,0.25"));
  // The linear mip filter with lod 1.25 blends levels 1 and 2: between their texels' values (73 / 255 = 0.286 and
  // 82 / 255 = 0.322), so 0.3 is allowed and 0.5 is not.
  const Run blend = clrefImage(base + "--mip-filter linear --lod 1.25 --check 0.3");
  INFO(blend.out << blend.err);
  CHECK(blend.status == 0);
  CHECK(has(blend.out, "levels:     1, 2 (blended) of 4"));
  CHECK(has(blend.out, "verdict:    allowed\n"));
  CHECK(clrefImage(base + "--mip-filter linear --lod 1.25 --check 0.5").status == 1);
  // --lod-max 0 keeps level 0: byte 34.
  const Run capped = clrefImage(base + "--lod 3 --lod-max 0 --check 0x1.111112p-3");
  INFO(capped.out << capped.err);
  CHECK(capped.status == 0);
  CHECK(has(capped.out, "levels:     0 of 4"));
  // A sampler-less read takes an integer level.
  const Run samplerless =
      clrefImage("read --format CL_R,CL_UNORM_INT8 --size 8x8 --levels 4 --coord 1,1 --lod 2 --check 0x1.4d4d4ep-2");
  INFO(samplerless.out << samplerless.err);
  CHECK(samplerless.status == 0);
  // Bad input: gradients without a sampler, both --lod and --gradients, the wrong number of components.
  CHECK(clrefImage("read --format CL_R,CL_UNORM_INT8 --size 8x8 --levels 4 --coord 1,1 --gradients '1,0;0,1'").status ==
        2);
  CHECK(clrefImage(base + "--lod 1 --gradients '1,0;0,1'").status == 2);
  CHECK(clrefImage(base + "--gradients '1;0'").status == 2);
  CHECK(clrefImage(base + "--mip-filter cubic --lod 1").status == 2);
}

TEST_CASE("clref image write with --coord and --level judges against that level", "[reference][cli][image][mipmap]") {
  const std::string base =
      "write --format CL_R,CL_UNORM_INT8 --color 0.5 --size 8x8 --levels 4 --level 2 --coord ";
  const Run ok = clrefImage(base + "1,1 --check 7f");
  INFO(ok.out << ok.err);
  CHECK(ok.status == 0);
  CHECK(has(ok.out, "at (1, 1) of level 2 (CL_MEM_OBJECT_IMAGE2D 8x8, 4 levels)"));
  CHECK(has(ok.out, "element:    80"));
  CHECK(has(ok.out, "of mip level 2 (2x2"));
  CHECK(clrefImage(base + "1,1 --check 7d").status == 1);
  // (2, 0) lies outside level 2 (2x2): undefined, any result.
  const Run outside = clrefImage(base + "2,0 --check 7d");
  INFO(outside.out << outside.err);
  CHECK(outside.status == 0);
  CHECK(has(outside.out, "verdict:    allowed (no bound)"));
  CHECK(has(outside.out, "image_write_out_of_range"));
  CHECK(clrefImage("write --format CL_R,CL_UNORM_INT8 --color 0.5 --level 1 --coord 1,1").status == 2);
}
