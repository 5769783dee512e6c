# docs/CLI.md, the command reference, is what the built tool's own --help prints for itself and for every
# subcommand (found in each help's "Subcommands:" list, so a new subcommand needs no change here), so that it cannot
# drift from the tool. Run by the target clref_cli_docs (writes DOC) and by the test cli_docs_current (CHECK=ON:
# fails when DOC differs).
#   cmake -DCLREF=<built clref> -DDOC=<docs/CLI.md> [-DCHECK=ON] -P cmake/cli_docs.cmake
if(NOT CLREF OR NOT DOC)
  message(FATAL_ERROR "usage: cmake -DCLREF=<clref> -DDOC=<docs/CLI.md> [-DCHECK=ON] -P cli_docs.cmake")
endif()
set(regenerate "cmake --build build --target clref_cli_docs")

# The help of `clref ${words}`, as one Markdown section; then the sections of its subcommands, depth first.
function(clref_help_section words out)
  execute_process(COMMAND ${CLREF} ${words} --help RESULT_VARIABLE rc OUTPUT_VARIABLE help ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${CLREF} ${words} --help exited with ${rc}: ${err}")
  endif()
  # The usage line names the program as it was called; the reference names it `clref`.
  string(REPLACE "${CLREF}" "clref" help "${help}")
  string(REGEX REPLACE "[ \t]+\n" "\n" help "${help}")
  string(REGEX REPLACE "\n+$" "" help "${help}")
  set(title clref ${words})
  list(JOIN title " " title)
  set(text "## `${title}`\n\n```text\n${help}\n```\n")

  # CLI11 lists subcommands under "Subcommands:", one per line indented by two spaces (a wrapped description's
  # lines by more), until a blank line. (No CMake lists of help lines: a "[" in a line would join list elements.)
  string(FIND "${help}" "\nSubcommands:\n" at)
  if(at GREATER_EQUAL 0)
    math(EXPR at "${at} + 13")
    string(SUBSTRING "${help}" ${at} -1 list_text)
    string(FIND "${list_text}" "\n\n" end)
    if(end GREATER_EQUAL 0)
      string(SUBSTRING "${list_text}" 0 ${end} list_text)
    endif()
    string(REGEX MATCHALL "\n  [A-Za-z0-9_-]+" names "${list_text}")
    foreach(name IN LISTS names)
      string(STRIP "${name}" name)
      set(sub_words ${words} ${name})
      clref_help_section("${sub_words}" sub_text)
      string(APPEND text "\n${sub_text}")
    endforeach()
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

clref_help_section("" sections)
set(content "# The `clref` command: reference

Generated from the tool's own `--help`, for the tool and every subcommand; do not edit. After a change to the help
texts, regenerate it from the build directory `build/`:

```sh
${regenerate}
```

The same commands by task, with what their output means: the [README](../README.md) and [USAGE.md](USAGE.md).

${sections}")

if(CHECK)
  if(NOT EXISTS "${DOC}")
    message(FATAL_ERROR "${DOC} does not exist; generate it with: ${regenerate}")
  endif()
  file(READ "${DOC}" committed)
  if(NOT committed STREQUAL content)
    # Show what changed: the expected file beside the build's other outputs, and the first lines of the difference.
    set(fresh "${CMAKE_CURRENT_BINARY_DIR}/CLI.md.current")
    file(WRITE "${fresh}" "${content}")
    execute_process(COMMAND diff -u "${DOC}" "${fresh}" OUTPUT_VARIABLE difference)
    string(LENGTH "${difference}" length)
    if(length GREATER 4000)
      string(SUBSTRING "${difference}" 0 4000 difference)
      string(APPEND difference "\n…")
    endif()
    message(FATAL_ERROR "${DOC} is not what the current clref prints; regenerate it with:\n  ${regenerate}\n"
                        "The difference (${fresh}):\n${difference}")
  endif()
  message(STATUS "${DOC} is what the current clref prints")
else()
  file(WRITE "${DOC}" "${content}")
  message(STATUS "wrote ${DOC}")
endif()
