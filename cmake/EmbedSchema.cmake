# Writes OUTPUT: a C++ source defining gpueff::reports::reportSchemaText(), the text of INPUT
# (docs/report.schema.json), so that `gpueff compare` validates report.json files without data files.
file(READ "${INPUT}" text)
set(body "#include \"reports/ReportSchema.h\"\n\nnamespace gpueff::reports {\n\n")
string(APPEND body "const char* reportSchemaText() {\n    return R\"gpueffschema(${text})gpueffschema\";\n}\n\n")
string(APPEND body "} // namespace gpueff::reports\n")
file(WRITE "${OUTPUT}.tmp" "${body}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.tmp" "${OUTPUT}")
