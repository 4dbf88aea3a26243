# Compiles a data file into the program: writes the bytes of IN as a C array
# NAME (NUL-terminated, length in NAME_len) to OUT, which includes HEADER
# (declaring both) when given.  Run with cmake -P so it needs no tool beyond
# CMake itself.
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" digits)
math(EXPR len "${digits} / 2")
string(REGEX REPLACE "(........................)"
       "\\1\n" hex "${hex}")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
get_filename_component(src "${IN}" NAME)
set(decl "")
if(HEADER)
  set(decl "#include \"${HEADER}\"\n")
endif()
file(WRITE "${OUT}.tmp"
  "/* Generated from ${src} by cmake/embed.cmake: do not edit. */\n"
  "#include <stddef.h>\n${decl}"
  "const char ${NAME}[] = {\n${body}0};\n"
  "const size_t ${NAME}_len = ${len};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
