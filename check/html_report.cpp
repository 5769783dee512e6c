// A CheckReport as one self-contained HTML page (check/html_report.hpp).
#include "check/html_report.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "check/version.hpp"
#include "images/texel.hpp"
#include "numerics/verdict.hpp"

namespace clref::host {
namespace {

std::string base64(const uint8_t* p, size_t n) {
  static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string s;
  s.reserve((n + 2) / 3 * 4);
  for (size_t i = 0; i < n; i += 3) {
    const uint32_t v = uint32_t(p[i]) << 16 | (i + 1 < n ? uint32_t(p[i + 1]) << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
    s += digits[v >> 18 & 63];
    s += digits[v >> 12 & 63];
    s += i + 1 < n ? digits[v >> 6 & 63] : '=';
    s += i + 2 < n ? digits[v & 63] : '=';
  }
  return s;
}

// JSON inside <script type="application/json">: a '<' only occurs inside strings there, where \u003c stands for it,
// so that no "</script>" in a value can end the element.
std::string scriptJson(const nlohmann::json& j) {
  const std::string text = j.dump();
  std::string s;
  s.reserve(text.size());
  for (char c : text)
    if (c == '<')
      s += "\\u003c";
    else
      s += c;
  return s;
}

// The clause citations of `text` (docs/CITATIONS.md: a document name, a section number, an anchor) as links into
// the published specifications; everything else escaped.
std::string linkedClauses(const std::string& text) {
  static const std::array<std::pair<const char*, const char*>, 4> documents{{
      {"OpenCL C 3.0", "https://registry.khronos.org/OpenCL/specs/3.0-unified/html/OpenCL_C.html#"},
      {"OpenCL 3.0 API", "https://registry.khronos.org/OpenCL/specs/3.0-unified/html/OpenCL_API.html#"},
      {"OpenCL SPIR-V Environment", "https://registry.khronos.org/OpenCL/specs/3.0-unified/html/OpenCL_Env.html#"},
      {"Vulkan", "https://registry.khronos.org/vulkan/specs/latest/html/vkspec.html#"},
  }};
  static const std::regex anchor(R"(\[\[([A-Za-z0-9_.:-]+)\]\])");
  std::string out;
  size_t done = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), anchor); it != std::sregex_iterator(); ++it) {
    const size_t at = size_t(it->position(0));
    // The document is the nearest one named before the anchor.
    const char* url = nullptr;
    size_t best = 0;
    for (const auto& [name, base] : documents) {
      const size_t p = text.rfind(name, at);
      if (p != std::string::npos && (!url || p >= best)) {
        url = base;
        best = p;
      }
    }
    out += htmlEscape(text.substr(done, at - done));
    if (url)
      out += "<a href=\"" + htmlEscape(std::string(url) + (*it)[1].str()) + "\">" + htmlEscape(it->str()) + "</a>";
    else
      out += htmlEscape(it->str());
    done = at + size_t(it->length(0));
  }
  return out + htmlEscape(text.substr(done));
}

// The distance of an allowed or violating element from clref's value: in ulps of the buffer's floating-point format
// at clref's value (as check.cpp's reasons measure it), in units for integers; NaN when there is none to give (a NaN,
// an infinity, a field of a struct).
double distanceOf(const ElementVerdict& d, numerics::ScalarType type) {
  const char* o = d.observed.c_str();
  const char* r = d.reference.c_str();
  char *oe = nullptr, *re = nullptr;
  if (numerics::isFloat(type)) {
    const double ov = std::strtod(o, &oe), rv = std::strtod(r, &re);
    if (*oe || *re || !std::isfinite(ov) || !std::isfinite(rv)) return NAN;
    return std::fabs(ov - rv) / numerics::ulpOf(rv, numerics::floatFormat(type));
  }
  if (numerics::isSigned(type)) {
    const long long ov = std::strtoll(o, &oe, 10), rv = std::strtoll(r, &re, 10);
    if (*oe || *re || oe == o || re == r) return NAN;
    return std::fabs(double(ov) - double(rv));
  }
  const unsigned long long ov = std::strtoull(o, &oe, 10), rv = std::strtoull(r, &re, 10);
  if (*oe || *re || oe == o || re == r) return NAN;
  return ov > rv ? double(ov - rv) : double(rv - ov);
}

// The histogram's bins: 0, ≤ 1/2, ≤ 1, then (2^(k-1), 2^k] up to 2^16, more, and no distance.
constexpr int kTopPower = 16;
constexpr int kBins = 3 + kTopPower + 2;
int binOf(double d) {
  if (std::isnan(d)) return kBins - 1;
  if (d == 0) return 0;
  if (d <= 0.5) return 1;
  if (d <= 1) return 2;
  const int k = int(std::ceil(std::log2(d)));
  return k > kTopPower ? kBins - 2 : 2 + k;
}
std::string binLabel(int b) {
  if (b == 0) return "0";
  if (b == 1) return "\u2264\u00bd";
  if (b == 2) return "\u22641";
  if (b == kBins - 2) return ">2^" + std::to_string(kTopPower);
  if (b == kBins - 1) return "none";
  return "\u22642^" + std::to_string(b - 2);
}

// The SVG histogram of one output's allowed and violating elements by distance.
std::string histogram(const BufferVerdict& b, const std::string& id) {
  std::array<uint64_t, kBins> allowed{}, violating{};
  for (const auto& d : b.details) {
    if (d.cls == ElementClass::Allowed) ++allowed[size_t(binOf(distanceOf(d, b.type)))];
    if (d.cls == ElementClass::Violation) ++violating[size_t(binOf(distanceOf(d, b.type)))];
  }
  uint64_t most = 1;
  for (int i = 0; i < kBins; ++i) most = std::max({most, allowed[size_t(i)], violating[size_t(i)]});
  constexpr int binWidth = 40, barWidth = 16, height = 120, top = 16, left = 8;
  const int width = left * 2 + kBins * binWidth;
  std::ostringstream s;
  s << "<svg class=\"histogram\" id=\"" << id << "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
    << "\" height=\"" << (top + height + 34) << "\" role=\"img\" aria-label=\"distance from clref's value\">";
  for (int i = 0; i < kBins; ++i) {
    const int x = left + i * binWidth;
    for (int series = 0; series < 2; ++series) {
      const uint64_t n = series == 0 ? allowed[size_t(i)] : violating[size_t(i)];
      // A square-root scale keeps a few violations visible beside many allowed elements.
      const int h = n ? std::max(1, int(std::lround(height * std::sqrt(double(n) / double(most))))) : 0;
      const char* cls = series == 0 ? "allowed" : "violation";
      s << "<rect class=\"" << cls << "\" data-class=\"" << cls << "\" data-bin=\"" << i << "\" data-count=\"" << n
        << "\" x=\"" << (x + series * barWidth) << "\" y=\"" << (top + height - h) << "\" width=\"" << barWidth
        << "\" height=\"" << h << "\"><title>" << n << " " << cls << " element" << (n == 1 ? "" : "s") << ", distance "
        << htmlEscape(binLabel(i)) << "</title></rect>";
      if (n)
        s << "<text x=\"" << (x + series * barWidth + barWidth / 2) << "\" y=\"" << (top + height - h - 3)
          << "\" class=\"count\">" << n << "</text>";
    }
    s << "<text x=\"" << (x + barWidth) << "\" y=\"" << (top + height + 14) << "\" class=\"bin\">"
      << htmlEscape(binLabel(i)) << "</text>";
  }
  s << "<text x=\"" << left << "\" y=\"" << (top + height + 30)
    << "\" class=\"axis\">distance from clref's value (ulp of the output's format; integers: units; none: a NaN, an "
       "infinity or a struct field)</text></svg>";
  return s.str();
}

uint8_t codeOf(ElementClass c) { return uint8_t(c); }  // 0 identical, 1 allowed, 2 violation, 3 undetermined

// The class of each of n elements, two bits each (element i in bits 2(i mod 4) of byte i / 4), base64.
std::string classCodes(const BufferVerdict& b, uint64_t n) {
  std::vector<uint8_t> packed(size_t((n + 3) / 4), 0);
  for (const auto& d : b.details)
    if (d.index < n) packed[size_t(d.index / 4)] |= uint8_t(codeOf(d.cls) << (2 * (d.index % 4)));
  return base64(packed.data(), packed.size());
}

std::string mapCanvas(const std::string& codes, uint64_t n, uint64_t width, uint64_t rows, const std::string& what) {
  std::ostringstream s;
  s << "<figure><canvas class=\"map\" data-map=\"" << codes << "\" data-n=\"" << n << "\" data-w=\"" << width
    << "\" data-h=\"" << rows << "\"></canvas><figcaption>" << htmlEscape(what) << "</figcaption></figure>";
  return s.str();
}

// How a buffer's elements are laid out in its map: like the NDRange when the buffer holds k elements per work-item
// of a 2-D or 3-D launch (a work-item's k side by side, the z planes one below the other), else in rows.
std::string bufferMap(const BufferVerdict& b, const NDRange& range) {
  const uint64_t n = b.elements;
  if (n == 0 || n > kHtmlMapElements) return "";
  uint64_t width = 0, rows = 0;
  std::string what;
  const uint64_t gx = range.global[0], gy = range.dims > 1 ? range.global[1] : 1,
                 gz = range.dims > 2 ? range.global[2] : 1;
  const uint64_t items = gx * gy * gz;
  if (range.dims >= 2 && items && n % items == 0) {
    const uint64_t k = n / items;
    width = gx * k;
    rows = gy * gz;
    what = "elements by class, laid out like the NDRange (" + std::to_string(gx) + " \u00d7 " + std::to_string(gy) +
           (range.dims > 2 ? " \u00d7 " + std::to_string(gz) + ", the z planes one below the other" : "") +
           (k > 1 ? "; " + std::to_string(k) + " elements per work-item side by side" : "") + ")";
  } else {
    width = range.dims >= 2 && gx > 1 && gx <= n ? gx : std::min<uint64_t>(n, 256);
    rows = (n + width - 1) / width;
    what = "elements by class, " + std::to_string(width) + " per row";
  }
  return mapCanvas(classCodes(b, n), n, width, rows, what);
}

// An image's pictures: the observed image, clref's, and the class map, all mip level 0.
std::string imagePictures(const BufferVerdict& b, const HtmlImage& image) {
  const uint64_t n = image.width * image.rows;
  if (n == 0 || n > kHtmlMapElements) return "";
  const size_t es = images::elementSize(image.format);
  if (image.observed.size() < n * es || image.reference.size() < n * es) return "";
  // Colours as the kernel reads them: normalized and floating-point channels on [0, 1]; integer channels scaled by
  // the largest magnitude in either image.
  images::ColorKind kind = images::ColorKind::Float;
  switch (image.format.type) {
    case images::ChannelType::SignedInt8:
    case images::ChannelType::SignedInt16:
    case images::ChannelType::SignedInt32: kind = images::ColorKind::Int; break;
    case images::ChannelType::UnsignedInt8:
    case images::ChannelType::UnsignedInt16:
    case images::ChannelType::UnsignedInt32: kind = images::ColorKind::Uint; break;
    default: break;
  }
  std::vector<std::array<double, 3>> observed(static_cast<size_t>(n)), reference(static_cast<size_t>(n));
  double scale = 1;
  for (uint64_t i = 0; i < n; ++i)
    for (int which = 0; which < 2; ++which) {
      const uint8_t* e = (which ? image.reference : image.observed).data() + i * es;
      const images::Color c = images::decode(image.format, e, kind);
      auto& rgb = (which ? reference : observed)[size_t(i)];
      for (size_t k = 0; k < 3; ++k) {
        rgb[k] = images::laneValue(c.lanes[k], kind);
        if (kind != images::ColorKind::Float && std::isfinite(rgb[k])) scale = std::max(scale, std::fabs(rgb[k]));
      }
    }
  auto picture = [&](const std::vector<std::array<double, 3>>& colours, const std::string& what) {
    std::vector<uint8_t> rgb(size_t(n) * 3);
    for (size_t i = 0; i < colours.size(); ++i)
      for (size_t k = 0; k < 3; ++k) {
        double v = colours[i][k];
        if (kind != images::ColorKind::Float) v = kind == images::ColorKind::Int ? (v / scale + 1) / 2 : v / scale;
        rgb[i * 3 + k] = uint8_t(std::isnan(v) ? 0 : std::lround(std::clamp(v, 0.0, 1.0) * 255));
      }
    return "<figure><canvas class=\"picture\" data-rgb=\"" + base64(rgb.data(), rgb.size()) + "\" data-w=\"" +
           std::to_string(image.width) + "\" data-h=\"" + std::to_string(image.rows) + "\"></canvas><figcaption>" +
           htmlEscape(what) + "</figcaption></figure>";
  };
  std::string s = "<div class=\"pictures\">";
  s += picture(observed, "observed");
  s += picture(reference, "clref");
  s += mapCanvas(classCodes(b, n), n, image.width, image.rows, "elements by class");
  return s + "</div>";
}

std::string countCell(const std::string& id, const char* key, uint64_t n) {
  return "<td class=\"n " + std::string(key) + (n ? " nonzero" : "") + "\" id=\"" + id + "-" + key + "\">" +
         std::to_string(n) + "</td>";
}

std::string ndrangeText(const NDRange& r, const std::array<size_t, 3>& local) {
  std::string s;
  for (unsigned d = 0; d < r.dims; ++d) s += (d ? " \u00d7 " : "") + std::to_string(r.global[d]);
  s += " (work-groups of ";
  for (unsigned d = 0; d < r.dims; ++d) s += (d ? " \u00d7 " : "") + std::to_string(local[d]);
  return s + ")";
}

const char* kStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:1px solid #ccc;margin-top:2em}h3{font-size:1.05em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}
td.violation.nonzero{background:#fbd5d5;font-weight:bold}td.undetermined.nonzero{background:#fdebc8}
table.rows th{cursor:pointer;user-select:none}table.rows th.sorted-up:after{content:" \25B2"}
table.rows th.sorted-down:after{content:" \25BC"}table.rows td{font-family:ui-monospace,monospace;font-size:12px}
tr.violation td:nth-child(2){color:#b00;font-weight:bold}tr.undetermined td:nth-child(2){color:#a60}
.histogram rect.allowed{fill:#4caf50}.histogram rect.violation{fill:#d32f2f}
.histogram text{font-size:10px;text-anchor:middle}.histogram text.axis{text-anchor:start;font-size:11px}
canvas{image-rendering:pixelated;border:1px solid #999;background:#fff}
figure{display:inline-block;margin:.5em 1em .5em 0;vertical-align:top}figcaption{font-size:12px;color:#555}
.legend span{display:inline-block;padding:0 6px;margin-right:4px;color:#fff}
#script-errors{color:#fff;background:#b00;padding:.5em}.verdict-ok{color:#2e7d32}.verdict-bad{color:#c62828}
pre{white-space:pre-wrap}.note{color:#555}
)";

// Draws the maps and pictures, builds the sortable tables from their embedded rows, and records what it did in
// body's data-rendered; any error lands in #script-errors.
const char* kScript = R"(
(function(){
var colours=[[200,200,200],[76,175,80],[211,47,47],[255,160,0]];
function bytes(s){var b=atob(s),a=new Uint8Array(b.length);for(var i=0;i<b.length;i++)a[i]=b.charCodeAt(i);return a;}
function size(c,w,h){c.width=w;c.height=h;var s=Math.max(1,Math.min(Math.floor(512/w),Math.floor(384/h)||1,16));
c.style.width=(w*s)+'px';c.style.height=(h*s)+'px';return c.getContext('2d').createImageData(w,h);}
var drawn=0;
document.querySelectorAll('canvas[data-map]').forEach(function(c){
var w=+c.dataset.w,h=+c.dataset.h,n=+c.dataset.n,codes=bytes(c.dataset.map),img=size(c,w,h);
for(var i=0;i<w*h;i++){var o=4*i;if(i>=n){img.data[o+3]=0;continue;}
var col=colours[(codes[i>>2]>>(2*(i&3)))&3];img.data[o]=col[0];img.data[o+1]=col[1];img.data[o+2]=col[2];img.data[o+3]=255;}
c.getContext('2d').putImageData(img,0,0);drawn++;});
document.querySelectorAll('canvas[data-rgb]').forEach(function(c){
var w=+c.dataset.w,h=+c.dataset.h,rgb=bytes(c.dataset.rgb),img=size(c,w,h);
for(var i=0;i<w*h;i++){img.data[4*i]=rgb[3*i];img.data[4*i+1]=rgb[3*i+1];img.data[4*i+2]=rgb[3*i+2];img.data[4*i+3]=255;}
c.getContext('2d').putImageData(img,0,0);drawn++;});
function number(s){if(typeof s==='number')return s;var t=String(s).trim();
if(/^[-+]?nan$/i.test(t))return NaN;if(/^[-+]?inf(inity)?$/i.test(t))return t[0]==='-'?-Infinity:Infinity;
var m=/^([-+]?)0x([0-9a-f]*)(?:\.([0-9a-f]*))?p([-+]?\d+)$/i.exec(t);
if(m){var f=m[3]||'',v=parseInt((m[2]||'0')+f,16)*Math.pow(2,+m[4]-4*f.length);return m[1]==='-'?-v:v;}
return /^[-+]?\d+(\.\d*)?(e[-+]?\d+)?$/i.test(t)?parseFloat(t):null;}
function compare(a,b){var x=number(a),y=number(b);
if(x!==null&&y!==null){if(isNaN(x))return isNaN(y)?0:1;if(isNaN(y))return -1;return x<y?-1:x>y?1:0;}
return String(a)<String(b)?-1:String(a)>String(b)?1:0;}
var heads=['index','class','observed','clref','allowed set','rule and clause','instruction and source line','reason'];
document.querySelectorAll('div.rows[data-src]').forEach(function(d){
var rows=JSON.parse(document.getElementById(d.dataset.src).textContent);
var t=document.createElement('table');t.className='rows';t.dataset.rows=rows.length;
var hr=t.createTHead().insertRow();var body=t.createTBody();
function fill(){body.textContent='';rows.forEach(function(r){var tr=body.insertRow();tr.className=r[1];
r.forEach(function(v){tr.insertCell().textContent=v;});});}
heads.forEach(function(h,k){var th=document.createElement('th');th.textContent=h;hr.appendChild(th);
th.addEventListener('click',function(){var down=th.classList.contains('sorted-up');
t.querySelectorAll('th').forEach(function(o){o.classList.remove('sorted-up','sorted-down');});
th.classList.add(down?'sorted-down':'sorted-up');
rows.sort(function(a,b){return down?compare(b[k],a[k]):compare(a[k],b[k]);});fill();});});
fill();d.appendChild(t);drawn++;});
document.body.setAttribute('data-rendered',String(drawn));
})();
)";

void writeOutput(std::ostream& out, const HtmlSection& s, size_t section, size_t k) {
  const BufferVerdict& b = s.report.buffers[k];
  const std::string id = "s" + std::to_string(section) + "-o" + std::to_string(k);
  const std::string label =
      k < s.labels.size() && !s.labels[k].empty() ? s.labels[k] : "arg " + std::to_string(b.arg) + " (" + b.name + ")";
  out << "<h3 id=\"" << id << "\">" << htmlEscape(label) << (b.image ? ", image" : "") << "</h3>\n";
  if (!b.image && (b.allowed || b.violations)) out << histogram(b, id + "-histogram") << "\n";
  if (b.image) {
    for (const auto& image : s.images)
      if (image.arg == b.arg) out << imagePictures(b, image) << "\n";
  } else if (s.range.dims) {
    out << bufferMap(b, s.range) << "\n";
  }
  if (b.anyValue) {
    out << "<p>" << b.anyValue << " element" << (b.anyValue == 1 ? " was" : "s were")
        << " judged against the set <em>any value</em> (the verdict says nothing about them):</p><ul>";
    for (const auto& a : b.anyValueBy)
      out << "<li>" << a.elements << " from " << htmlEscape(a.instruction.empty() ? "(no instruction)" : a.instruction)
          << ": " << htmlEscape(a.why) << "</li>";
    out << "</ul>\n";
  }
  nlohmann::json rows = nlohmann::json::array();
  uint64_t total = 0;
  for (const auto& d : b.details) {
    if (d.cls != ElementClass::Violation && d.cls != ElementClass::Undetermined) continue;
    if (total++ >= kHtmlTableRows) continue;
    rows.push_back(
        {d.index, toString(d.cls), d.observed, d.reference, d.allowedString(), d.rule, d.instruction, d.reason});
  }
  if (total == 0) {
    out << "<p class=\"note\">No violation and no undetermined element.</p>\n";
    return;
  }
  out << "<p>" << total << " violation" << (total == 1 ? "" : "s") << " and undetermined elements"
      << (total > kHtmlTableRows ? ", the first " + std::to_string(kHtmlTableRows) + " below; " +
                                       std::to_string(total - kHtmlTableRows) + " left out (the JSON report has all)"
                                 : "")
      << " (click a heading to sort):</p>\n";
  out << "<script type=\"application/json\" id=\"" << id << "-rows\">" << scriptJson(rows) << "</script>\n";
  out << "<div class=\"rows\" id=\"" << id << "-table\" data-src=\"" << id << "-rows\" data-total=\"" << total
      << "\"></div>\n";
}

void writeSection(std::ostream& out, const HtmlSection& s, size_t section) {
  const std::string id = "s" + std::to_string(section);
  const CheckReport& r = s.report;
  out << "<section id=\"" << id << "\"><h2>" << htmlEscape(s.title) << "</h2>\n<table class=\"about\">";
  auto row = [&](const char* key, const std::string& html) {
    out << "<tr><th>" << key << "</th><td>" << html << "</td></tr>";
  };
  row("kernel", htmlEscape(s.kernel));
  if (s.range.dims) row("NDRange", htmlEscape(ndrangeText(s.range, r.run.localSize)));
  row("profile", htmlEscape(s.profile.empty() ? "full" : s.profile));
  row("build options", s.buildOptions.empty() ? "<em>none</em>" : htmlEscape(s.buildOptions));
  std::string inForce;
  for (const auto& info : numerics::allChoices()) {
    const uint8_t option = s.choices.get(info.choice);
    if (option != info.defaultOption)
      inForce += (inForce.empty() ? "" : ", ") + std::string(info.name) + "=" + std::string(info.options[option]);
  }
  row("choices in force", inForce.empty() ? "every choice at its default" : htmlEscape(inForce));
  if (!r.sampledGroups.empty())
    row("sampled", std::to_string(r.sampledGroups.size()) + " work-groups run; elements the others wrote not judged");
  if (!r.run.ok)
    row("clref's run", "<span class=\"verdict-bad\">" +
                           htmlEscape(r.run.fault ? r.run.fault->format() : std::string("failed")) +
                           "</span> (the report is incomplete)");
  out << "</table>\n";
  out << "<p class=\"verdict " << (r.anyViolation() ? "verdict-bad\">violations" : "verdict-ok\">no violation")
      << "</p>\n<table class=\"summary\"><tr><th>output</th><th>elements</th><th>identical</th><th>allowed</th>"
         "<th>violations</th><th>undetermined</th><th>not judged</th><th>any value</th></tr>";
  for (size_t k = 0; k < r.buffers.size(); ++k) {
    const BufferVerdict& b = r.buffers[k];
    const std::string oid = id + "-o" + std::to_string(k);
    const std::string label = k < s.labels.size() && !s.labels[k].empty()
                                  ? s.labels[k]
                                  : "arg " + std::to_string(b.arg) + " (" + b.name + ")";
    out << "<tr><td><a href=\"#" << oid << "\">" << htmlEscape(label) << "</a></td>"
        << countCell(oid, "elements", b.elements) << countCell(oid, "identical", b.identical)
        << countCell(oid, "allowed", b.allowed) << countCell(oid, "violation", b.violations)
        << countCell(oid, "undetermined", b.undetermined) << countCell(oid, "not-judged", b.notJudged)
        << countCell(oid, "any-value", b.anyValue) << "</tr>";
  }
  out << "</table>\n<p class=\"legend\">classes: <span style=\"background:#c8c8c8;color:#222\">identical</span>"
         "<span style=\"background:#4caf50\">allowed</span><span style=\"background:#d32f2f\">violation</span>"
         "<span style=\"background:#ffa000\">undetermined</span></p>\n";
  for (size_t k = 0; k < r.buffers.size(); ++k) writeOutput(out, s, section, k);
  if (!r.decisions.empty()) {
    out << "<h3>Open decisions</h3><p>" << r.decisionCount << " decision" << (r.decisionCount == 1 ? "" : "s")
        << " the allowed sets do not fix (first occurrence per instruction):</p><ul class=\"decisions\">";
    for (size_t i = 0; i < r.decisions.size(); ++i) {
      const auto& d = r.decisions[i];
      out << "<li>" << htmlEscape(d.message);
      if (!d.instruction.empty()) out << "<br><code>" << htmlEscape(d.instruction) << "</code>";
      if (!d.source.empty()) out << " " << htmlEscape(d.source);
      if (!d.sourceLine.empty()) out << "<br><code>| " << htmlEscape(d.sourceLine) << "</code>";
      if (r.controlDecision && *r.controlDecision == i) out << " <strong>(changed control flow or an address)</strong>";
      out << "</li>";
    }
    out << "</ul>\n";
  }
  out << "<h3>Named choices</h3>";
  if (r.run.choicesUsed.empty()) {
    out << "<p class=\"note\">No named choice decided a value in clref's run.</p>\n";
  } else {
    out << "<table class=\"choices\"><tr><th>choice</th><th>option</th><th>values decided</th><th>the first</th>"
           "<th>clause</th></tr>";
    for (const auto& u : r.run.choicesUsed) {
      const numerics::ChoiceInfo& info = numerics::infoOf(u.choice);
      const uint8_t option = s.choices.get(u.choice);
      const interpreter::Diagnostic& d = u.first;
      out << "<tr><td>" << htmlEscape(std::string(info.name)) << "</td><td>"
          << htmlEscape(std::string(info.options[option])) << (option == info.defaultOption ? " (default)" : "")
          << "</td><td class=\"n\">" << (u.count ? std::to_string(u.count) : "may decide unseen") << "</td><td>"
          << htmlEscape(d.message);
      if (!d.instruction.empty()) {
        if (u.count) out << "<br>work-item " << d.globalId[0] << "," << d.globalId[1] << "," << d.globalId[2];
        out << "<br><code>" << htmlEscape(d.instruction) << "</code>";
        if (!d.source.empty() && d.instruction.find(d.source) == std::string::npos) out << " " << htmlEscape(d.source);
        if (!d.sourceLine.empty()) out << "<br><code>| " << htmlEscape(d.sourceLine) << "</code>";
      }
      out << "</td><td>" << linkedClauses(std::string(info.clause)) << "</td></tr>";
    }
    out << "</table>\n";
  }
  out << "</section>\n";
}

}  // namespace

std::string htmlEscape(const std::string& text) {
  std::string s;
  s.reserve(text.size());
  for (char c : text) switch (c) {
      case '&': s += "&amp;"; break;
      case '<': s += "&lt;"; break;
      case '>': s += "&gt;"; break;
      case '"': s += "&quot;"; break;
      case '\'': s += "&#39;"; break;
      default: s += c;
    }
  return s;
}

HtmlImage htmlImageOf(const Kernel& kernel, const ObservedImage& observed) {
  HtmlImage h;
  h.arg = observed.arg;
  const auto image = kernel.imageArg(observed.arg);
  if (!image) return h;
  h.format = image->view().desc.format;
  const auto extent = image->extent(0);
  h.width = extent[0];
  h.rows = extent[1] * extent[2];
  const size_t es = images::elementSize(h.format);
  const uint64_t n = h.width * h.rows;
  h.observed.assign(observed.bytes.begin(),
                    observed.bytes.begin() + std::ptrdiff_t(std::min<uint64_t>(observed.bytes.size(), n * es)));
  h.reference.resize(size_t(n * es));
  image->forEachElement([&](uint64_t index, const std::array<uint64_t, 3>&, uint32_t level, const uint8_t* e) {
    if (level == 0 && index < n) std::memcpy(h.reference.data() + index * es, e, es);
  });
  return h;
}

void writeHtmlReport(std::ostream& out, const std::string& title, const std::vector<HtmlSection>& sections) {
  uint64_t violations = 0, undetermined = 0;
  for (const auto& s : sections)
    for (const auto& b : s.report.buffers) {
      violations += b.violations;
      undetermined += b.undetermined;
    }
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << htmlEscape(title)
      << "</title>\n<style>" << kStyle
      << "</style>\n"
      // First of all scripts, so that it sees the others' errors.
      << "<script>window.onerror=function(message,source,line,column){var e=document.getElementById('script-errors');"
         "if(!e){e=document.createElement('pre');e.id='script-errors';document.documentElement.appendChild(e);}"
         "e.hidden=false;e.textContent+=message+' (line '+line+':'+column+')\\n';};</script>\n</head>\n<body>\n"
      << "<pre id=\"script-errors\" hidden></pre>\n<h1>" << htmlEscape(title) << "</h1>\n<p class=\"note\">clref "
      << htmlEscape(clrefVersion()) << " (" << htmlEscape(clrefCommit()) << ")</p>\n";
  out << "<p class=\"verdict " << (violations ? "verdict-bad" : "verdict-ok")
      << "\" id=\"verdict\"><span id=\"total-violations\">" << violations << "</span> violation"
      << (violations == 1 ? "" : "s") << ", <span id=\"total-undetermined\">" << undetermined
      << "</span> undetermined in " << sections.size() << " judged launch" << (sections.size() == 1 ? "" : "es")
      << "</p>\n";
  if (sections.size() > 1) {
    out << "<ul class=\"sections\">";
    for (size_t i = 0; i < sections.size(); ++i) {
      uint64_t v = 0;
      for (const auto& b : sections[i].report.buffers) v += b.violations;
      out << "<li><a href=\"#s" << i << "\">" << htmlEscape(sections[i].title) << "</a>: " << v << " violation"
          << (v == 1 ? "" : "s") << "</li>";
    }
    out << "</ul>\n";
  }
  for (size_t i = 0; i < sections.size(); ++i) writeSection(out, sections[i], i);
  out << "<script>" << kScript << "</script>\n</body></html>\n";
}

}  // namespace clref::host
