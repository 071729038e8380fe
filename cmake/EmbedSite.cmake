# Writes OUTPUT: a C++ source defining gpueff::reports::dashboard::siteAssets(), the static files every
# dashboard site carries (SITE/*.html, SITE/assets/*): the pages' own scripts and style (reports/site/) and the charting
# library from its Debian package (dygraphs, with its copyright file), so the binary writes a self-contained
# site with no data files beside it. Run at build time by add_custom_command; ASSETS is a list of
# NAME=PATH pairs. The bytes are written as hexadecimal arrays (a raw string could meet its delimiter).
set(body "#include \"reports/DashboardAssets.h\"\n\nnamespace gpueff::reports::dashboard {\n\nnamespace {\n\n")
set(table "")
set(index 0)
foreach(pair IN LISTS ASSETS)
  string(FIND "${pair}" "=" eq)
  string(SUBSTRING "${pair}" 0 ${eq} name)
  math(EXPR start "${eq} + 1")
  string(SUBSTRING "${pair}" ${start} -1 path)
  file(READ "${path}" hex HEX)
  string(LENGTH "${hex}" hexLength)
  math(EXPR size "${hexLength} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(APPEND body "const unsigned char asset${index}[] = {${bytes}0};\n")
  string(APPEND table "        {\"${name}\", {reinterpret_cast<const char*>(asset${index}), ${size}}},\n")
  math(EXPR index "${index} + 1")
endforeach()
string(APPEND body "\n} // namespace\n\nstd::span<const SiteAsset> siteAssets() {\n")
string(APPEND body "    static const SiteAsset assets[] = {\n${table}    };\n    return assets;\n}\n\n")
string(APPEND body "} // namespace gpueff::reports::dashboard\n")
file(WRITE "${OUTPUT}.tmp" "${body}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.tmp" "${OUTPUT}")
