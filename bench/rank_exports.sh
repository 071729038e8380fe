# bench/rank_exports.sh: sourced by the benchmarks that run on rank exports (distributed.sh, stages.sh).
#
# need_tools TOOL...: exits 2 naming the first tool missing, or the gpueff binary ($gpueff) not built.
need_tools() {
    local tool
    for tool in "$@"; do
        command -v "$tool" >/dev/null || { echo "$0: $tool is required" >&2; exit 2; }
    done
    [[ -x $gpueff ]] || { echo "$0: $gpueff not built (cmake --build build)" >&2; exit 2; }
}

# rank_exports DIR SRC COPIES REPORTS: fills the array `inputs` with REPORTS rank exports of COPIES copies of
# SRC in DIR (bench/make_export.sh RANK; made once, again when make_export.sh is newer), their pages warmed.
rank_exports() {
    local dir=$1 src=$2 copies=$3 reports=$4 k f
    local make=$(dirname "${BASH_SOURCE[0]}")/make_export.sh
    mkdir -p "$dir"
    inputs=()
    for ((k = 0; k < reports; ++k)); do
        f=$dir/c${copies}_r$k.sqlite
        [[ -f $f && $f -nt $make ]] || "$make" "$src" "$f" "$copies" "$k" >/dev/null
        inputs+=("$f")
    done
    cat "${inputs[@]}" >/dev/null
}
