// The registry of implementation-defined choices (numerics/choices.hpp).
#include <catch2/catch.hpp>

#include <set>
#include <stdexcept>
#include <string>

#include "numerics/choices.hpp"

using namespace clref::numerics;

TEST_CASE("every choice has a name, a clause, options and a valid default", "[numerics][choices]") {
  const auto all = allChoices();
  REQUIRE(all.size() == size_t(Choice::Count));
  std::set<std::string_view> names;
  for (size_t i = 0; i < all.size(); ++i) {
    const auto& info = all[i];
    INFO("choice " << info.name);
    CHECK(size_t(info.choice) == i);  // registry order = enum order
    CHECK(&infoOf(info.choice) == &info);
    CHECK(!info.name.empty());
    CHECK(names.insert(info.name).second);
    CHECK(!info.clause.empty());
    CHECK(!info.description.empty());
    REQUIRE(!info.options[0].empty());
    REQUIRE(info.defaultOption < info.options.size());
    CHECK(!info.options[info.defaultOption].empty());
  }
}

TEST_CASE("a fresh Choices holds the documented defaults", "[numerics][choices]") {
  const Choices c;
  for (const auto& info : allChoices()) CHECK(c.get(info.choice) == info.defaultOption);
  CHECK(c.as<MadOption>(Choice::Mad) == MadOption::Fused);
  CHECK(c.as<IntDivByZeroOption>(Choice::IntDivByZero) == IntDivByZeroOption::Zero);
  CHECK(c.as<FloatToIntOption>(Choice::FloatToIntOutOfRange) == FloatToIntOption::Saturate);
  CHECK(c.as<LocalSizeOption>(Choice::DefaultLocalSize) == LocalSizeOption::LargestDivisor);
  const std::string d = c.describe();
  CHECK(d.find("mad=fused (default)") != std::string::npos);
}

TEST_CASE("Choices::set by name", "[numerics][choices]") {
  Choices c;
  c.set("mad=unfused");
  CHECK(c.as<MadOption>(Choice::Mad) == MadOption::Unfused);
  CHECK(c.describe().find("mad=unfused\n") != std::string::npos);  // no "(default)" mark
  c.set("int_div_by_zero=dividend");
  CHECK(c.as<IntDivByZeroOption>(Choice::IntDivByZero) == IntDivByZeroOption::Dividend);
  c.set("mad=fused");
  CHECK(c.as<MadOption>(Choice::Mad) == MadOption::Fused);
  // Every option of every choice can be set by its name.
  for (const auto& info : allChoices())
    for (uint8_t i = 0; i < info.options.size() && !info.options[i].empty(); ++i) {
      c.set(std::string(info.name) + "=" + std::string(info.options[i]));
      CHECK(c.get(info.choice) == i);
    }
}

TEST_CASE("Choices::set rejects bad names and options with the valid ones listed", "[numerics][choices]") {
  Choices c;
  auto message = [&](std::string_view s) -> std::string {
    try {
      c.set(s);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "(no exception)";
  };
  const std::string badName = message("madd=fused");
  CHECK(badName.find("madd") != std::string::npos);
  for (const auto& info : allChoices()) CHECK(badName.find(std::string(info.name)) != std::string::npos);

  const std::string badOption = message("mad=sometimes");
  CHECK(badOption.find("sometimes") != std::string::npos);
  CHECK(badOption.find("fused") != std::string::npos);
  CHECK(badOption.find("unfused") != std::string::npos);

  CHECK(message("mad") != "(no exception)");  // no '='
  CHECK(message("=fused") != "(no exception)");
  CHECK(message("mad=") != "(no exception)");
  CHECK_THROWS_AS(c.set(Choice::Mad, 2), std::invalid_argument);  // only 2 options
  CHECK_THROWS_AS(c.set(Choice::Mad, 200), std::invalid_argument);
  // A failed set leaves the value unchanged.
  CHECK(c.as<MadOption>(Choice::Mad) == MadOption::Fused);
}
