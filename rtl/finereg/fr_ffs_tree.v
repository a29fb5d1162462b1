// Find first set: the lowest set bit of v_i (found_o: any bit set; idx_o: its index, N - 1
// when none is set). A binary tree of log2(N) levels, each node a 2:1 choice of its children (the left,
// lower, child wins), so the depth is log2(N) muxes. N must be a power of two >= 4.
// The leaf of fr_ffs.v (which splits wide vectors into 32-bit groups).
module fr_ffs_tree #(
  parameter integer N = 128
) (
  input  wire [N-1:0]         v_i,
  output wire                 found_o,
  output wire [$clog2(N)-1:0] idx_o
);
  localparam integer L = $clog2(N);

  // nodes of level l start at off(l): level 0 (the leaves) at 0, the root at 2N-2
  function integer off;
    input integer l;
    begin
      off = 2 * N - ((2 * N) >> l);
    end
  endfunction

  // one vector per field for all levels; split_var lets Verilator see the tree is acyclic
  wire [2*N-2:0]       f /*verilator split_var*/;  // node: some leaf below is set
  wire [(N-1)*L-1:0]   x /*verilator split_var*/;  // inner node G: lowest set leaf below
                                                   // it, at (G - N) * L
  assign f[N-1:0] = v_i;
  genvar l, j;
  generate
    for (l = 1; l <= L; l = l + 1) begin : g_lv
      for (j = 0; j < (N >> l); j = j + 1) begin : g_nd
        localparam integer G  = off(l) + j;
        localparam integer CL = off(l - 1) + 2 * j;
        localparam integer CR = CL + 1;
        localparam [L-1:0] HI = {{(L-1){1'b0}}, 1'b1} << (l - 1);
        assign f[G] = f[CL] | f[CR];
        if (l == 1) begin : g_leaf
          assign x[(G-N)*L +: L] = f[CL] ? {L{1'b0}} : HI;
        end else begin : g_inner
          assign x[(G-N)*L +: L] = f[CL] ? x[(CL-N)*L +: L] : (x[(CR-N)*L +: L] | HI);
        end
      end
    end
  endgenerate
  assign found_o = f[2*N-2];
  assign idx_o   = x[(N-2)*L +: L];
endmodule
