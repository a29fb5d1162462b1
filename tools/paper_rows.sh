# Sourced by the papers' scripts (tools/paper_table.sh, tools/experiments_papers.sh): the rows
# of cuda/paper_rows.txt as workloads rfsim can run.
#
# paper_rows [PAPER]: "paper row program kernels" per row (of one paper, or all).
# paper_row_lists: writes build/paper-rows/<paper>_<row>/kernelslist.g for every row: the
#   MemcpyHtoD lines of the row's program's trace and the launches of the row's kernels, in
#   launch order, each kernel-N.traceg a symbolic link to build/cuda-traces/<program>/ (the
#   reader wants kernel files by that name beside the list). Fails naming the row if the
#   program has no trace or none of its kernels was launched.
PAPER_ROWS=${PAPER_ROWS:-cuda/paper_rows.txt}
PAPER_TRACES=${PAPER_TRACES:-build/cuda-traces}
PAPER_LISTS=${PAPER_LISTS:-build/paper-rows}

paper_rows() {
  awk -v p="${1:-}" '!/^#/ && NF >= 4 && (p == "" || $1 == p) {print $1, $2, $3, $4}' "$PAPER_ROWS"
}

# paper_config PAPER: the config a paper's experiments run on
paper_config() {
  case $1 in
    warpman) echo configs/gtx480.config ;;
    regshare) echo configs/tesla_c2050.config ;;
    spshare) echo configs/tesla_c2050_scratchpad.config ;;
    finereg) echo configs/gtx980.config ;;
    larf) echo configs/locality_rf.config ;;
    *) echo "paper_config: unknown paper '$1'" >&2; return 1 ;;
  esac
}

# kernel_function SYMBOL: the function name of a kernel symbol (_Z<len><name>... or name)
kernel_function() {
  local s=$1
  if [[ $s =~ ^_Z([0-9]+)(.*)$ ]]; then
    echo "${BASH_REMATCH[2]:0:${BASH_REMATCH[1]}}"
  else
    echo "$s"
  fi
}

paper_row_lists() {
  local paper row prog kernels dir new list line f name n
  while read -r paper row prog kernels; do
    dir=$PAPER_LISTS/${paper}_$row new=$PAPER_LISTS/.${paper}_$row.new
    list=$PAPER_TRACES/$prog/kernelslist.g
    [ -f "$list" ] || { echo "paper rows: $paper $row: no $list (make cuda-traces)" >&2; return 1; }
    rm -rf "$new"
    mkdir -p "$new"
    n=0
    while read -r line; do
      case $line in
        MemcpyHtoD*) echo "$line" ;;
        kernel-*.traceg)
          f=$PAPER_TRACES/$prog/$line
          name=$(kernel_function "$(head -n 1 "$f" | sed 's/^-kernel name = //')")
          if [[ ",$kernels," == *",$name,"* ]]; then
            ln -s "../../${f#build/}" "$new/$line"
            echo "$line"
            n=$((n + 1))
          fi ;;
      esac
    done < "$list" > "$new/kernelslist.g"
    [ $n -gt 0 ] || { echo "paper rows: $paper $row: no launch of $kernels in $list" >&2; return 1; }
    # an unchanged row keeps its folder (and the trace caches in it), so that runs reading it
    # are not disturbed
    if cmp -s "$new/kernelslist.g" "$dir/kernelslist.g" 2>/dev/null; then
      rm -rf "$new"
    else
      rm -rf "$dir"
      mv "$new" "$dir"
    fi
  done < <(paper_rows)
}
