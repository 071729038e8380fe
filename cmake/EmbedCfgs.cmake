# Writes OUTPUT: a C++ source defining gpueff::metrics::embeddedCfg(name), the text of every cfgs/**/*.cfg
# keyed by its path under cfgs/ ("modelfactors/total_runtime.cfg"). Run at build time by add_custom_command.
file(GLOB_RECURSE cfgs RELATIVE "${CFG_DIR}" "${CFG_DIR}/*.cfg")
list(SORT cfgs)
set(body "#include \"metrics/EmbeddedCfgs.h\"\n\n#include <map>\n\nnamespace gpueff::metrics {\n\n")
string(APPEND body "const std::string* embeddedCfg(const std::string& name) {\n")
string(APPEND body "    static const std::map<std::string, std::string> cfgs = {\n")
foreach(cfg IN LISTS cfgs)
  file(READ "${CFG_DIR}/${cfg}" text)
  string(APPEND body "        {\"${cfg}\", R\"gpueffcfg(${text})gpueffcfg\"},\n")
endforeach()
string(APPEND body "    };\n    auto it = cfgs.find(name);\n    return it == cfgs.end() ? nullptr : &it->second;\n}\n\n} // namespace gpueff::metrics\n")
file(WRITE "${OUTPUT}.tmp" "${body}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.tmp" "${OUTPUT}")
