// check/html_report.hpp without a browser: what goes into the page is escaped, the embedded rows cannot end their
// script element, the histogram bins distances as the ulps of the output's format, the table is bounded.
#include <catch2/catch.hpp>

#include <sstream>

#include "check/html_report.hpp"

using namespace clref;

namespace {

host::ElementVerdict element(size_t index, host::ElementClass cls, const std::string& observed,
                             const std::string& reference, const std::string& reason) {
  host::ElementVerdict e;
  e.index = index;
  e.cls = cls;
  e.observed = observed;
  e.reference = reference;
  e.reason = reason;
  return e;
}

std::string page(const host::BufferVerdict& b, const std::string& title = "t") {
  host::HtmlSection s;
  s.title = title;
  s.kernel = "k";
  s.report.buffers.push_back(b);
  std::ostringstream out;
  host::writeHtmlReport(out, title, {s});
  return out.str();
}

}  // namespace

TEST_CASE("html report: every string from the report is escaped", "[check][html]") {
  CHECK(host::htmlEscape("<a href='x'>&\"") == "&lt;a href=&#39;x&#39;&gt;&amp;&quot;");
  host::BufferVerdict b;
  b.name = "<b>name</b>";
  b.type = numerics::ScalarType::Float;
  b.elements = 4;
  b.violations = 1;
  b.identical = 3;
  b.details.push_back(element(2, host::ElementClass::Violation, "0x1p+1", "0x1p+0",
                              "</script><img src=x onerror=alert(1)> <!-- & \"q\""));
  const std::string html = page(b, "<title>&");
  CHECK(html.find("<b>name</b>") == std::string::npos);
  CHECK(html.find("&lt;b&gt;name&lt;/b&gt;") != std::string::npos);
  CHECK(html.find("&lt;title&gt;&amp;") != std::string::npos);
  // In the embedded rows the reason's '<' is \u003c: neither "</script>" nor "<!--" occurs in it.
  CHECK(html.find("</script><img") == std::string::npos);
  CHECK(html.find("<!-- &") == std::string::npos);
  CHECK(html.find("\\u003c/script>\\u003cimg src=x onerror=alert(1)> \\u003c!-- & \\\"q\\\"") != std::string::npos);
}

TEST_CASE("html report: the histogram bins distances in ulps of the output's format", "[check][html]") {
  host::BufferVerdict b;
  b.type = numerics::ScalarType::Float;
  b.elements = 8;
  // binary32 on [1, 2): one ulp is 2^-23, so 1.5 + 2^-22 is 2 ulps from 1.5; on [2^10, 2^11) one ulp is 2^-13.
  b.details.push_back(element(0, host::ElementClass::Allowed, "0x1.800002p+0", "0x1.8p+0", ""));   // 1 ulp: ≤ 1
  b.details.push_back(element(1, host::ElementClass::Allowed, "0x1.800004p+0", "0x1.8p+0", ""));   // 2 ulp: ≤ 2^1
  b.details.push_back(element(2, host::ElementClass::Allowed, "0x1.80001p+10", "0x1.8p+10", ""));  // 8 ulp: ≤ 2^3
  b.details.push_back(element(3, host::ElementClass::Violation, "0x1p+1", "0x1p+0", ""));          // 2^23 ulp
  b.details.push_back(element(4, host::ElementClass::Violation, "nan", "0x1p+0", ""));             // none
  b.allowed = 3;
  b.violations = 2;
  b.identical = 3;
  const std::string html = page(b);
  CHECK(html.find("data-class=\"allowed\" data-bin=\"2\" data-count=\"1\"") != std::string::npos);
  CHECK(html.find("data-class=\"allowed\" data-bin=\"3\" data-count=\"1\"") != std::string::npos);
  CHECK(html.find("data-class=\"allowed\" data-bin=\"5\" data-count=\"1\"") != std::string::npos);
  CHECK(html.find("data-class=\"violation\" data-bin=\"19\" data-count=\"1\"") != std::string::npos);  // > 2^16
  CHECK(html.find("data-class=\"violation\" data-bin=\"20\" data-count=\"1\"") != std::string::npos);  // none
}

TEST_CASE("html report: the table holds at most kHtmlTableRows rows and says how many were left out", "[check][html]") {
  host::BufferVerdict b;
  b.type = numerics::ScalarType::Int;
  const size_t n = host::kHtmlTableRows + 25;
  b.elements = n;
  for (size_t i = 0; i < n; ++i) b.details.push_back(element(i, host::ElementClass::Violation, "1", "0", "r"));
  b.violations = n;
  const std::string html = page(b);
  CHECK(html.find("25 left out") != std::string::npos);
  CHECK(html.find("data-total=\"" + std::to_string(n) + "\"") != std::string::npos);
  CHECK(html.find("[" + std::to_string(host::kHtmlTableRows - 1) + ",\"violation\"") != std::string::npos);
  CHECK(html.find("[" + std::to_string(host::kHtmlTableRows) + ",\"violation\"") == std::string::npos);
}
