# cmake -DIN=file -DOUT=file.c -DSYMBOL=name -P embed.cmake
# Writes `const char *SYMBOL(void)` returning the file's bytes as a C string.
file(READ "${IN}" content HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${content}")
file(WRITE "${OUT}.tmp"
  "/* Generated from ${IN} by cmake/embed.cmake; do not edit. */\n"
  "const char *${SYMBOL}(void);\n"
  "static const char data[] = {${bytes} 0x00};\n"
  "const char *${SYMBOL}(void) { return data; }\n")
file(RENAME "${OUT}.tmp" "${OUT}")
